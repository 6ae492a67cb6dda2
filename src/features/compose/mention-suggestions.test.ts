import { describe, expect, it } from 'vitest';
import type { UserGroup } from '../../api/model';
import { eg } from '../../test/eg';
import { mayMentionManyUsers, mentionSuggestions, wildcardsFor } from './mention-suggestions';
import { PeopleIndex } from './people-ranking';

const group = (id: number, name: string, members: number[], extra: Partial<UserGroup> = {}) =>
  ({
    id,
    name,
    description: '',
    members,
    direct_subgroup_ids: [],
    is_system_group: false,
    ...extra,
  }) as UserGroup;

describe('wildcard mentions', () => {
  const member = eg.user({ user_id: 5, role: 400, date_joined: '2026-01-01T00:00:00Z' });
  const admin = eg.user({ user_id: 6, role: 200 });
  const noGroups = { byId: {} };

  it('follow wildcard_mention_policy', () => {
    const policy = (p: number, extra = {}) => ({ wildcard_mention_policy: p, ...extra });
    expect(mayMentionManyUsers(policy(1), member, noGroups)).toBe(true);
    expect(mayMentionManyUsers(policy(2), member, noGroups)).toBe(true);
    expect(mayMentionManyUsers(policy(5), member, noGroups)).toBe(false);
    expect(mayMentionManyUsers(policy(5), admin, noGroups)).toBe(true);
    expect(mayMentionManyUsers(policy(6), admin, noGroups)).toBe(false);
    const jan10 = Date.parse('2026-01-10T00:00:00Z');
    expect(
      mayMentionManyUsers(policy(3, { waiting_period_threshold: 5 }), member, noGroups, jan10),
    ).toBe(true);
    expect(
      mayMentionManyUsers(policy(3, { waiting_period_threshold: 20 }), member, noGroups, jan10),
    ).toBe(false);
  });

  it('follow can_mention_many_users_group where the server sends it', () => {
    const groups = {
      byId: {
        1: group(1, 'role:moderators', [], { direct_subgroup_ids: [2] }),
        2: group(2, 'role:administrators', [6]),
      },
    };
    const settings = { can_mention_many_users_group: 1, wildcard_mention_policy: 1 };
    expect(mayMentionManyUsers(settings, admin, groups)).toBe(true);
    expect(mayMentionManyUsers(settings, member, groups)).toBe(false);
    const anonymous = {
      can_mention_many_users_group: { direct_members: [5], direct_subgroups: [] },
    };
    expect(mayMentionManyUsers(anonymous, member, groups)).toBe(true);
  });

  it('are offered where they may be used', () => {
    const place = {
      direct: false,
      mayMentionMany: false,
      subscriberCount: 100,
      topicParticipantCount: 3,
    };
    expect(wildcardsFor(place)).toEqual(['topic']);
    expect(wildcardsFor({ ...place, topicParticipantCount: 40 })).toEqual([]);
    expect(wildcardsFor({ ...place, subscriberCount: 10 })).toEqual([
      'all',
      'everyone',
      'channel',
      'topic',
    ]);
    expect(wildcardsFor({ ...place, mayMentionMany: true })).toEqual([
      'all',
      'everyone',
      'channel',
      'topic',
    ]);
    expect(wildcardsFor({ ...place, direct: true })).toEqual(['all', 'everyone']);
  });
});

describe('mention suggestions', () => {
  const people = new PeopleIndex([
    eg.user({ user_id: 1, full_name: 'Alice' }),
    eg.user({ user_id: 2, full_name: 'Malachi' }),
    eg.user({ user_id: 3, full_name: 'Alert Bot', is_bot: true }),
  ]);
  const sources = {
    people,
    context: { recentSenderIds: [], subscriberIds: null },
    groups: [group(7, 'alumni', [1]), group(8, 'pals', [2])],
    wildcards: ['all', 'everyone', 'channel', 'topic'],
    ambiguous: new Set<string>(),
  };
  const keys = (query: string, silent = false) =>
    mentionSuggestions(sources, query, silent).map((s) => s.label);

  it('orders people, groups, wildcards, weaker matches, then bots', () => {
    expect(keys('al')).toEqual(['Alice', 'alumni', 'all', 'Malachi', 'pals', 'Alert Bot']);
  });

  it('leaves wildcards out of silent mentions', () => {
    expect(keys('al', true)).toEqual(['Alice', 'alumni', 'Malachi', 'pals', 'Alert Bot']);
  });

  it('writes ambiguous names with the id', () => {
    const [first] = mentionSuggestions({ ...sources, ambiguous: new Set(['alice']) }, 'ali', false);
    expect(first.completion).toEqual({
      kind: 'user',
      fullName: 'Alice',
      userId: 1,
      ambiguous: true,
    });
  });
});

describe('wildcards in the list', () => {
  it('offers at most the two shortest that match', () => {
    const sources = {
      people: new PeopleIndex([]),
      context: { recentSenderIds: [], subscriberIds: null },
      groups: [],
      wildcards: ['all', 'everyone', 'channel', 'topic'],
      ambiguous: new Set<string>(),
    };
    const labels = (query: string) => mentionSuggestions(sources, query, false).map((s) => s.label);
    expect(labels('')).toEqual(['all', 'topic']);
    expect(labels('ch')).toEqual(['channel']);
    expect(labels('e')).toEqual(['everyone']);
  });
});
