/**
 * What an `@` offers: people (ordered by people-ranking), user groups people made (system groups
 * are left out, as the reference app does), and the wildcard mentions the sender may use here.
 */
import type { GroupSetting, User, UserGroup } from '../../api/model';
import { i18n } from '../../i18n';
import { groupMembersDeep, type UserGroupsState } from '../../model/user-groups';
import { PeopleIndex, rankByName, type PeopleContext } from './people-ranking';
import type { Completion } from './typeahead';

export interface TypeaheadItem {
  key: string;
  completion: Completion;
  label: string;
  detail?: string;
  avatarUrl?: string | null;
  /** for emoji: a glyph or an image */
  glyph?: string;
  imageUrl?: string;
}

/** Channels and topics up to this many people take wildcard mentions from anyone (as the server). */
export const WILDCARD_MENTION_THRESHOLD = 15;

const DAY_MS = 24 * 60 * 60 * 1000;

function inGroupSetting(groups: UserGroupsState, setting: GroupSetting, userId: number): boolean {
  if (typeof setting === 'number') return groupMembersDeep(groups, setting).has(userId);
  return (
    setting.direct_members.includes(userId) ||
    setting.direct_subgroups.some((id) => groupMembersDeep(groups, id).has(userId))
  );
}

/**
 * Whether `user` may notify a whole channel: the organization's `can_mention_many_users_group`
 * where the server sends it, else its older `wildcard_mention_policy`.
 */
export function mayMentionManyUsers(
  settings: Readonly<Record<string, unknown>>,
  user: Pick<User, 'user_id' | 'role' | 'date_joined'>,
  groups: UserGroupsState,
  now = Date.now(),
): boolean {
  const group = settings.can_mention_many_users_group as GroupSetting | undefined;
  if (group !== undefined && group !== null) return inGroupSetting(groups, group, user.user_id);
  switch (settings.wildcard_mention_policy) {
    case 1:
      return true;
    case 2:
      return user.role <= 400;
    case 3: {
      const waitDays = Number(settings.waiting_period_threshold ?? 0);
      return user.role <= 400 && now - Date.parse(user.date_joined) >= waitDays * DAY_MS;
    }
    case 5:
      return user.role <= 200;
    case 7:
      return user.role <= 300;
    case 6:
      return false;
    default:
      // An older server without the setting: the reference default, administrators.
      return user.role <= 200;
  }
}

export interface WildcardPlace {
  direct: boolean;
  mayMentionMany: boolean;
  /** subscribers of the channel, when known */
  subscriberCount: number | null;
  /** people who spoke in the topic, as far as loaded */
  topicParticipantCount: number;
}

/** Wildcards offered: in a direct message all of them reach only its participants. */
export function wildcardsFor(place: WildcardPlace): string[] {
  if (place.direct) return ['all', 'everyone'];
  const small = (n: number | null) => n !== null && n <= WILDCARD_MENTION_THRESHOLD;
  if (place.mayMentionMany || small(place.subscriberCount))
    return ['all', 'everyone', 'channel', 'topic'];
  return small(place.topicParticipantCount) ? ['topic'] : [];
}

const WILDCARD_HINTS: Record<string, () => string> = {
  all: () => i18n.t('compose:notifyChannel'),
  everyone: () => i18n.t('compose:notifyChannel'),
  channel: () => i18n.t('compose:notifyChannel'),
  topic: () => i18n.t('compose:notifyTopic'),
};

export interface MentionSources {
  people: PeopleIndex;
  context: PeopleContext;
  /** non-system, active groups */
  groups: readonly UserGroup[];
  wildcards: readonly string[];
  /** lowercased names that two active people share */
  ambiguous: ReadonlySet<string>;
}

/** The suggestions for `@query`: best people and groups first, then wildcards, then weaker matches. */
export function mentionSuggestions(
  sources: MentionSources,
  query: string,
  silent: boolean,
  limit = 8,
): TypeaheadItem[] {
  const people = sources.people.rank(query, sources.context, limit);
  const needle = query.trim().toLowerCase();
  const person = (u: User): TypeaheadItem => ({
    key: `user-${u.user_id}`,
    completion: {
      kind: 'user',
      fullName: u.full_name,
      userId: u.user_id,
      ambiguous: sources.ambiguous.has(u.full_name.toLowerCase()),
    },
    label: u.full_name,
    detail: u.is_bot ? i18n.t('compose:bot') : u.email,
    avatarUrl: u.avatar_url,
  });
  const group = (g: UserGroup): TypeaheadItem => ({
    key: `group-${g.id}`,
    completion: { kind: 'group', name: g.name },
    label: g.name,
    detail: g.description || i18n.t('compose:userGroup'),
  });
  const groups = rankByName(sources.groups, query, (g) => g.name);
  // Silent mentions notify nobody, so a silent wildcard would mean nothing.
  // Like the reference app, at most the two shortest matching wildcards.
  const wildcards = silent
    ? []
    : sources.wildcards
        .filter((w) => w.startsWith(needle))
        .sort((a, b) => a.length - b.length)
        .slice(0, 2);
  const isStrong = (u: User) => {
    const name = u.full_name.toLowerCase();
    return (
      !needle || name.startsWith(needle) || name.split(/\s+/).some((w) => w.startsWith(needle))
    );
  };
  const humans = people.filter((u) => !u.is_bot);
  const bots = people.filter((u) => u.is_bot);
  return [
    ...humans.filter(isStrong).map(person),
    ...groups.prefix.map(group),
    ...wildcards.map((w): TypeaheadItem => ({
      key: `wildcard-${w}`,
      completion: { kind: 'wildcard', name: w },
      label: w,
      detail: WILDCARD_HINTS[w]?.(),
    })),
    ...humans.filter((u) => !isStrong(u)).map(person),
    ...groups.contains.map(group),
    ...bots.map(person),
  ].slice(0, limit);
}
