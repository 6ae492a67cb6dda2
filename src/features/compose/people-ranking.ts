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
  for (let i = name.indexOf(' '); i !== -1; i = name.indexOf(' ', i + 1))
    if (i + 1 < name.length && name[i + 1] !== ' ') starts.push(i + 1);
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
    const best: Ranked[] = [];
    const recentRank = new Map(context.recentSenderIds.map((id, i) => [id, i] as const));
    for (const entry of pool) {
      const tier = needle ? matchTier(entry, needle) : 0;
      if (tier === null) continue;
      matches.push(entry);
      const id = entry.user.user_id;
      // One number, most significant first: bot, match quality, recency, subscription.
      const score =
        (entry.user.is_bot ? 1e6 : 0) +
        tier * 1e5 +
        Math.min(recentRank.get(id) ?? 9999, 9999) * 10 +
        (context.subscriberIds?.has(id) ? 0 : 1);
      insertBounded(best, entry, score, limit);
    }
    this.last = { needle, matches };
    return best.map((b) => b.entry.user);
  }
}

interface Ranked {
  entry: Entry;
  score: number;
}

const before = (score: number, name: string, other: Ranked) =>
  score < other.score || (score === other.score && name < other.entry.name);

/** Keeps `list` sorted and at most `limit` long: a partial sort of everything seen. */
function insertBounded(list: Ranked[], entry: Entry, score: number, limit: number) {
  if (list.length >= limit && !before(score, entry.name, list[list.length - 1])) return;
  let i = list.length;
  while (i > 0 && before(score, entry.name, list[i - 1])) i--;
  list.splice(i, 0, { entry, score });
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
