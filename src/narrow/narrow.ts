/**
 * A narrow is a set of messages the user can look at: a stream, a topic, a DM conversation, or one
 * of the cross-cutting views. It is a plain value: compare narrows by `narrowKey`.
 */
export type Narrow =
  | { kind: 'feed' }
  | { kind: 'stream'; streamId: number }
  | { kind: 'topic'; streamId: number; topic: string }
  /** the other participants, sorted; the own user alone for a self DM */
  | { kind: 'dm'; userIds: number[] }
  | { kind: 'starred' }
  | { kind: 'mentions' }
  | { kind: 'search'; query: string };

export const feedNarrow: Narrow = { kind: 'feed' };
export const starredNarrow: Narrow = { kind: 'starred' };
export const mentionsNarrow: Narrow = { kind: 'mentions' };
export const streamNarrow = (streamId: number): Narrow => ({ kind: 'stream', streamId });
export const topicNarrow = (streamId: number, topic: string): Narrow => ({
  kind: 'topic',
  streamId,
  topic,
});
export const searchNarrow = (query: string): Narrow => ({ kind: 'search', query });

/**
 * A DM narrow from any list of participants: the own user is dropped unless alone, so that the
 * same conversation always has the same narrow.
 */
export function dmNarrow(userIds: readonly number[], ownUserId?: number): Narrow {
  return { kind: 'dm', userIds: dmParticipants(userIds, ownUserId) };
}

/** The canonical participant list of a DM conversation (see dmNarrow). */
export function dmParticipants(userIds: readonly number[], ownUserId?: number): number[] {
  const unique = [...new Set(userIds)].sort((a, b) => a - b);
  const others = ownUserId === undefined ? unique : unique.filter((id) => id !== ownUserId);
  return others.length === 0 && ownUserId !== undefined ? [ownUserId] : others;
}

/** A string that is equal for equal narrows; used in query keys and React keys. */
export function narrowKey(narrow: Narrow): string {
  switch (narrow.kind) {
    case 'feed':
    case 'starred':
    case 'mentions':
      return narrow.kind;
    case 'stream':
      return `stream:${narrow.streamId}`;
    case 'topic':
      return `topic:${narrow.streamId}:${narrow.topic}`;
    case 'dm':
      return `dm:${narrow.userIds.join(',')}`;
    case 'search':
      return `search:${narrow.query}`;
  }
}

export function narrowsEqual(a: Narrow, b: Narrow): boolean {
  return narrowKey(a) === narrowKey(b);
}

/** Topic names compare case-insensitively, as the server treats them. */
export function sameTopic(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The inverse of narrowKey; null for strings that are not narrow keys. */
export function narrowFromKey(key: string): Narrow | null {
  if (key === 'feed' || key === 'starred' || key === 'mentions') return { kind: key };
  const [kind, ...rest] = key.split(':');
  const body = rest.join(':');
  if (kind === 'stream' && /^\d+$/.test(body)) return { kind: 'stream', streamId: Number(body) };
  if (kind === 'topic') {
    const match = /^(\d+):([\s\S]*)$/.exec(body);
    return match ? { kind: 'topic', streamId: Number(match[1]), topic: match[2] } : null;
  }
  if (kind === 'dm' && /^\d+(,\d+)*$/.test(body))
    return { kind: 'dm', userIds: body.split(',').map(Number) };
  if (kind === 'search') return { kind: 'search', query: body };
  return null;
}
