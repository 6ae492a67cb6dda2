/**
 * The order of people offered for an `@` mention, as the reference app sorts them: bots last;
 * then names with a word starting with the query before names merely containing it; then people
 * who spoke last in this conversation, subscribers of its channel, and everyone else; then by
 * name. Deactivated and muted people are never offered.
 *
 * Built for large organizations: the index lowercases every name once, a query that extends the
 * previous one only rescans the previous matches, and only the best few are kept sorted.
 */
import type { User } from '../../api/model';

interface Entry {
  user: User;
  name: string;
  email: string;
  /** positions where a word of the name starts */
  wordStarts: number[];
}

export interface PeopleContext {
  /** people who sent the latest messages of the conversation, most recent first */
  recentSenderIds: readonly number[];
  /** subscribers of the channel being written to; null outside channels */
  subscriberIds: ReadonlySet<number> | null;
}

/** 0: the full name or a word of it starts with the query; 1: name or address contains it. */
function matchTier(entry: Entry, needle: string): 0 | 1 | null {
  const at = entry.name.indexOf(needle);
  if (at === -1) return entry.email.includes(needle) ? 1 : null;
  if (entry.wordStarts.includes(at)) return 0;
  for (const start of entry.wordStarts) if (entry.name.startsWith(needle, start)) return 0;
  return 1;
}

function wordStarts(name: string): number[] {
  const starts = [0];
  for (let i = 1; i < name.length; i++)
    if (/\s/.test(name[i - 1]) && !/\s/.test(name[i])) starts.push(i);
  return starts;
}

export class PeopleIndex {
  private readonly entries: Entry[];
  private last: { needle: string; matches: Entry[] } | null = null;

  constructor(users: readonly User[], mutedIds: ReadonlySet<number> = new Set()) {
    this.entries = users
      .filter((u) => u.is_active && !mutedIds.has(u.user_id))
      .map((user) => {
        const name = user.full_name.toLowerCase();
        return { user, name, email: user.email.toLowerCase(), wordStarts: wordStarts(name) };
      });
  }

  get size() {
    return this.entries.length;
  }

  /** The best `limit` people for the query, in the reference app's order. */
  rank(query: string, context: PeopleContext, limit: number): User[] {
    const needle = query.trim().toLowerCase();
    const pool =
      this.last && needle.startsWith(this.last.needle) ? this.last.matches : this.entries;
    const matches: Entry[] = [];
    const best: { entry: Entry; key: SortKey }[] = [];
    const recentRank = new Map(context.recentSenderIds.map((id, i) => [id, i] as const));
    for (const entry of pool) {
      const tier = needle ? matchTier(entry, needle) : 0;
      if (tier === null) continue;
      matches.push(entry);
      const key: SortKey = [
        entry.user.is_bot ? 1 : 0,
        tier,
        recentRank.get(entry.user.user_id) ?? Infinity,
        context.subscriberIds?.has(entry.user.user_id) ? 0 : 1,
        entry.name,
      ];
      insertBounded(best, { entry, key }, limit);
    }
    this.last = { needle, matches };
    return best.map((b) => b.entry.user);
  }
}

type SortKey = [bot: number, tier: number, recent: number, subscriber: number, name: string];

function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a[4] < b[4] ? -1 : a[4] > b[4] ? 1 : 0;
}

/** Keeps `list` sorted and at most `limit` long: a partial sort of everything seen. */
function insertBounded<T extends { key: SortKey }>(list: T[], item: T, limit: number) {
  if (list.length >= limit && compareKeys(item.key, list[list.length - 1].key) >= 0) return;
  let i = list.length;
  while (i > 0 && compareKeys(item.key, list[i - 1].key) < 0) i--;
  list.splice(i, 0, item);
  if (list.length > limit) list.pop();
}

/** Names shared by two or more active people, whose mentions need the `|id` form. */
export function ambiguousNames(users: readonly User[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const u of users) {
    if (!u.is_active) continue;
    const name = u.full_name.toLowerCase();
    if (seen.has(name)) twice.add(name);
    seen.add(name);
  }
  return twice;
}

/** Items whose name starts with the query (or has a word that does) first, then those containing it. */
export function rankByName<T>(items: readonly T[], query: string, nameOf: (item: T) => string) {
  const needle = query.trim().toLowerCase();
  const prefix: T[] = [];
  const contains: T[] = [];
  for (const item of items) {
    const name = nameOf(item).toLowerCase();
    if (
      !needle ||
      name.startsWith(needle) ||
      name.split(/[\s_-]+/).some((w) => w.startsWith(needle))
    )
      prefix.push(item);
    else if (name.includes(needle)) contains.push(item);
  }
  return { prefix, contains };
}
