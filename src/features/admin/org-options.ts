/**
 * The choices of the organization's integer settings, named for people. Built at render time
 * (`t` from the adminOrg namespace), so they follow the interface language.
 */
import type { TFunction } from 'i18next';
import { currentLocale, REFERENCE_LANGUAGE_CODES } from '../../i18n';

type T = TFunction<'adminOrg'>;
type Options = readonly (readonly [number, string])[];

/** Who may: the API's common policy values (1 members, 2 admins, 3 full members, 4 moderators). */
export const commonPolicy = (t: T): Options => [
  [1, t('policy.members')],
  [3, t('policy.fullMembers')],
  [4, t('policy.moderators')],
  [2, t('policy.admins')],
];

/** The common values plus "nobody" (6). */
export const policyWithNobody = (t: T): Options => [...commonPolicy(t), [6, t('policy.nobody')]];

/** The common values plus "everyone, guests too" (5) and "nobody" (6): topic editing. */
export const editTopicPolicy = (t: T): Options => [
  [5, t('policy.everyone')],
  ...commonPolicy(t),
  [6, t('policy.nobody')],
];

export const deleteOwnMessagePolicy = (t: T): Options => [
  [5, t('policy.everyone')],
  ...commonPolicy(t),
];

export const webPublicStreamPolicy = (t: T): Options => [
  [4, t('policy.moderators')],
  [2, t('policy.admins')],
  [7, t('policy.owners')],
  [6, t('policy.nobody')],
];

export const wildcardMentionPolicy = (t: T): Options => [
  [1, t('policy.everyone')],
  [2, t('policy.members')],
  [3, t('policy.fullMembers')],
  [7, t('policy.moderators')],
  [5, t('policy.admins')],
  [6, t('policy.nobody')],
];

export const botCreationPolicy = (t: T): Options => [
  [1, t('bots.everyone')],
  [2, t('bots.limited')],
  [3, t('policy.admins')],
];

export const directMessagePolicy = (t: T): Options => [
  [1, t('dm.everyone')],
  [2, t('dm.nobody')],
];

export const emailVisibility = (t: T): Options => [
  [1, t('emailVisibility.everyone')],
  [2, t('emailVisibility.members')],
  [5, t('emailVisibility.moderators')],
  [3, t('emailVisibility.admins')],
  [4, t('emailVisibility.nobody')],
];

export const orgTypes = (t: T): Options => [
  [0, t('orgType.unspecified')],
  [10, t('orgType.business')],
  [20, t('orgType.openSource')],
  [30, t('orgType.educationNonProfit')],
  [35, t('orgType.education')],
  [40, t('orgType.research')],
  [50, t('orgType.event')],
  [60, t('orgType.nonProfit')],
  [70, t('orgType.government')],
  [80, t('orgType.political')],
  [90, t('orgType.community')],
  [100, t('orgType.personal')],
  [1000, t('orgType.other')],
];

export const gifRatings = (t: T): Options => [
  [0, t('gif.disabled')],
  [1, t('gif.y')],
  [2, t('gif.g')],
  [3, t('gif.pg')],
  [4, t('gif.pg13')],
  [5, t('gif.r')],
];

/** 0 is Monday, as the server counts weekdays; named in the interface language. */
export function weekdays(): Options {
  const format = new Intl.DateTimeFormat(currentLocale(), { weekday: 'long', timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return [0, 1, 2, 3, 4, 5, 6].map((d) => [d, format.format(Date.UTC(2024, 0, 1 + d))] as const);
}

/** Each language named in the interface language, sorted by that name. */
export function languages(): readonly (readonly [string, string])[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([currentLocale()], { type: 'language' });
  } catch {
    names = null;
  }
  const tag = (code: string) =>
    code
      .replace('_', '-')
      .replace(/-(hans|hant)$/, (m) => m.replace(/-(\w)/, (_, c: string) => `-${c.toUpperCase()}`));
  return REFERENCE_LANGUAGE_CODES.map((code) => [code, names?.of(tag(code)) ?? code] as const).sort(
    (a, b) => a[1].localeCompare(b[1], currentLocale()),
  );
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Time limits in seconds; null is "any time". */
export const timeLimits = (t: T): readonly (readonly [number | null, string])[] => [
  [null, t('limit.any')],
  [2 * MINUTE, t('limit.minutes', { count: 2 })],
  [10 * MINUTE, t('limit.minutes', { count: 10 })],
  [HOUR, t('limit.hours', { count: 1 })],
  [DAY, t('limit.days', { count: 1 })],
  [7 * DAY, t('limit.days', { count: 7 })],
];

export const retentionPresets = (t: T): readonly (readonly [number | null, string])[] => [
  [-1, t('retention.forever')],
  [30, t('limit.days', { count: 30 })],
  [365, t('limit.days', { count: 365 })],
];

export const waitingPeriodPresets = (t: T): readonly (readonly [number | null, string])[] => [
  [0, t('waiting.none')],
  [3, t('limit.days', { count: 3 })],
  [90, t('limit.days', { count: 90 })],
];
