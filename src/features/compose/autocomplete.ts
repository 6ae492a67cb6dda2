/** Matching for the recipient fields (channel, topic, people). Pure, so it is tested without a DOM. */
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
