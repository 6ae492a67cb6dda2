/** Per-recipient message flags, stored as a bit set in user_messages.flags. */
export const FLAG_BITS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
} as const;

export type FlagName = keyof typeof FLAG_BITS;
export const USER_CHANGEABLE_FLAGS: FlagName[] = ['read', 'starred', 'collapsed'];
export const ALL_FLAG_NAMES = [...Object.keys(FLAG_BITS), 'wildcard_mentioned'];
export const WILDCARD_BITS =
  FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
export const ANY_MENTION_BITS = FLAG_BITS.mentioned | WILDCARD_BITS;

export function flagsToList(bits: number): string[] {
  const out: string[] = [];
  for (const [name, bit] of Object.entries(FLAG_BITS)) if (bits & bit) out.push(name);
  if (bits & WILDCARD_BITS) out.push('wildcard_mentioned');
  return out;
}
