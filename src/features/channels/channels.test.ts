import { describe, expect, it } from 'vitest';
import type { Stream, User } from '../../api/model';
import { joinability, visibleChannels } from './ChannelsView';
import { defaultCandidates } from './DefaultChannelsSection';
import { matchingPeople } from './SubscribersTab';

const stream = (stream_id: number, name: string, description = '', is_archived = false) =>
  ({ stream_id, name, description, is_archived }) as Stream;

describe('the channel list', () => {
  it('sorts by name, filters by name or description, and leaves archived channels out', () => {
    const all = [
      stream(1, 'general'),
      stream(2, 'design', 'mockups'),
      stream(3, 'old', '', true),
      stream(4, 'Announce'),
    ];
    expect(visibleChannels(all, '').map((s) => s.name)).toEqual(['Announce', 'design', 'general']);
    expect(visibleChannels(all, 'MOCK').map((s) => s.name)).toEqual(['design']);
    expect(visibleChannels(all, 'NOUN').map((s) => s.name)).toEqual(['Announce']);
    expect(visibleChannels(all, 'old')).toEqual([]);
  });
});

describe('joining a channel', () => {
  const channel = (invite_only: boolean) => ({ stream_id: 9, name: 'x', invite_only }) as Stream;
  it('offers members public channels, and private ones only by invitation', () => {
    for (const role of [100, 200, 300, 400]) {
      expect(joinability(channel(false), role), `role ${role}`).toBe('join');
      expect(joinability(channel(true), role), `role ${role}`).toBe('invitation-only');
    }
  });
  it('offers guests nothing, and nothing before the user is known', () => {
    expect(joinability(channel(false), 600)).toBe('none');
    expect(joinability(channel(true), 600)).toBe('none');
    expect(joinability(channel(false), undefined)).toBe('none');
  });
});

describe('default channel candidates', () => {
  it('offers active public channels that are not already chosen, by name', () => {
    const all = [
      { ...stream(1, 'general'), invite_only: false },
      { ...stream(2, 'design'), invite_only: true },
      { ...stream(3, 'old', '', true), invite_only: false },
      { ...stream(4, 'announce'), invite_only: false },
      { ...stream(5, 'welcome'), invite_only: false },
    ];
    expect(defaultCandidates(all, [5]).map((s) => s.name)).toEqual(['announce', 'general']);
  });
});

describe('searching people', () => {
  it('matches names and emails, case-insensitively, sorted by name', () => {
    const people = [
      { user_id: 1, full_name: 'Othello', email: 'othello@example.com' },
      { user_id: 2, full_name: 'Cordelia', email: 'cordelia@example.com' },
      { user_id: 3, full_name: 'Iago', email: 'villain@example.com' },
    ] as User[];
    expect(matchingPeople(people, '').map((u) => u.user_id)).toEqual([2, 3, 1]);
    expect(matchingPeople(people, 'VILL').map((u) => u.user_id)).toEqual([3]);
    expect(matchingPeople(people, 'o').map((u) => u.user_id)).toEqual([2, 3, 1]);
    expect(matchingPeople(people, 'dell')).toEqual([]);
  });
});
