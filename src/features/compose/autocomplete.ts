/** Matching and insertion for compose autocomplete. Pure, so it is tested without a DOM. */
import type { Subscription, User } from '../../api/model';

const LIMIT = 8;

/** Items whose name starts with the query first, then those containing it; case-insensitive. */
function rank<T>(
  items: readonly T[],
  query: string,
  nameOf: (item: T) => string[],
  limit = LIMIT,
): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return items.slice(0, limit);
  const starts: T[] = [];
  const contains: T[] = [];
  for (const item of items) {
    const names = nameOf(item).map((n) => n.toLowerCase());
    if (
      names.some(
        (n) => n.startsWith(needle) || n.split(/\s+/).some((word) => word.startsWith(needle)),
      )
    )
      starts.push(item);
    else if (names.some((n) => n.includes(needle))) contains.push(item);
  }
  return [...starts, ...contains].slice(0, limit);
}

export const matchStreams = (streams: readonly Subscription[], query: string) =>
  rank(streams, query, (s) => [s.name]);
export const matchTopics = (topics: readonly string[], query: string) =>
  rank(topics, query, (t) => [t]);
export const matchUsers = (users: readonly User[], query: string, limit = LIMIT) =>
  rank(users, query, (u) => [u.full_name, u.email], limit);

export interface MentionQuery {
  /** index of the `@` */
  start: number;
  query: string;
}

/** The `@name` being typed just before the caret, if any. */
export function mentionQueryAt(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|[\s(])@(\*\*)?([^\s@*][^@*\n]{0,30})?$/.exec(before);
  if (!match) return null;
  const query = match[3] ?? '';
  // A space ends a mention unless it continues a name ("@King Ha").
  if (/\s{2,}$/.test(query)) return null;
  return { start: before.length - query.length - 1 - (match[2]?.length ?? 0), query };
}

/** Replaces the typed `@query` with `@**Full Name** ` and returns the new text and caret. */
export function insertMention(
  text: string,
  mention: MentionQuery,
  caret: number,
  user: Pick<User, 'full_name'>,
) {
  const inserted = `@**${user.full_name}** `;
  const next = text.slice(0, mention.start) + inserted + text.slice(caret);
  return { text: next, caret: mention.start + inserted.length };
}
