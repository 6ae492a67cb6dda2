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
  | { kind: 'search'; query: string }
  /** any other combination of search operators; the terms in canonical order (filterNarrow) */
  | { kind: 'filter'; terms: NarrowTerm[] };

/**
 * The operators a filter narrow may hold, in the order they are written in URLs and keys. Ids
 * are operands as decimal strings: `channel` a stream id, `sender` and `dm-including` a user id
 * (or an email not known locally), `dm` ids separated by commas, `id` a message id.
 */
export const FILTER_OPERATORS = [
  'channel',
  'topic',
  'dm',
  'dm-including',
  'sender',
  'is',
  'has',
  'id',
  'search',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface NarrowTerm {
  operator: FilterOperator;
  operand: string;
  negated: boolean;
}

/**
 * Where a message list opens when it does not open at the first unread message: centred on one
 * message (`near/ID`), or on the conversation that message is in now, wherever it moved (`with/ID`).
 */
export interface MessageTarget {
  messageId: number;
  follow: boolean;
}

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

const operatorRank = (operator: FilterOperator) => FILTER_OPERATORS.indexOf(operator);

/**
 * The narrow a list of terms names, in its simplest form: `channel:5 topic:lunch` is the ordinary
 * topic narrow (so compose, unread counts and live updates treat it as one), `is:starred` the
 * starred view, and anything else a filter narrow with its terms sorted and its searches joined.
 */
export function filterNarrow(terms: readonly NarrowTerm[], ownUserId?: number): Narrow {
  const searches = terms.filter((t) => t.operator === 'search' && !t.negated);
  const query = searches
    .map((t) => t.operand.trim())
    .filter(Boolean)
    .join(' ');
  const rest = terms
    .filter((t) => !(t.operator === 'search' && !t.negated))
    .map((t) =>
      t.operator === 'dm' ? { ...t, operand: canonicalDmOperand(t.operand, ownUserId) } : t,
    );
  const sorted = [
    ...rest,
    ...(query ? [{ operator: 'search' as const, operand: query, negated: false }] : []),
  ]
    .map((t, index) => ({ t, index }))
    .sort((a, b) => operatorRank(a.t.operator) - operatorRank(b.t.operator) || a.index - b.index)
    .map(({ t }) => t);
  const unique = sorted.filter(
    (t, i) =>
      sorted.findIndex(
        (u) => u.operator === t.operator && u.operand === t.operand && u.negated === t.negated,
      ) === i,
  );
  return simpleNarrow(unique) ?? { kind: 'filter', terms: unique };
}

function canonicalDmOperand(operand: string, ownUserId?: number): string {
  const parts = operand.split(',').map((p) => p.trim());
  if (!parts.every((p) => /^\d+$/.test(p))) return parts.join(',');
  return dmParticipants(parts.map(Number), ownUserId).join(',');
}

/** The simple kind a canonical term list is, if any. */
function simpleNarrow(terms: readonly NarrowTerm[]): Narrow | null {
  if (terms.length === 0) return feedNarrow;
  if (terms.some((t) => t.negated)) return null;
  const [first, second] = terms;
  const isId = (operand: string) => /^\d+$/.test(operand);
  if (terms.length === 1) {
    if (first.operator === 'channel' && isId(first.operand))
      return streamNarrow(Number(first.operand));
    if (first.operator === 'dm' && /^\d+(,\d+)*$/.test(first.operand))
      return { kind: 'dm', userIds: first.operand.split(',').map(Number) };
    if (first.operator === 'is' && first.operand === 'starred') return starredNarrow;
    if (first.operator === 'is' && first.operand === 'mentioned') return mentionsNarrow;
    if (first.operator === 'search') return searchNarrow(first.operand);
  }
  if (
    terms.length === 2 &&
    first.operator === 'channel' &&
    isId(first.operand) &&
    second.operator === 'topic'
  )
    return topicNarrow(Number(first.operand), second.operand);
  return null;
}

/** The terms of any narrow: what the search box shows and what a filter is built on. */
export function narrowTerms(narrow: Narrow): NarrowTerm[] {
  const term = (operator: FilterOperator, operand: string): NarrowTerm => ({
    operator,
    operand,
    negated: false,
  });
  switch (narrow.kind) {
    case 'feed':
      return [];
    case 'stream':
      return [term('channel', String(narrow.streamId))];
    case 'topic':
      return [term('channel', String(narrow.streamId)), term('topic', narrow.topic)];
    case 'dm':
      return [term('dm', narrow.userIds.join(','))];
    case 'starred':
      return [term('is', 'starred')];
    case 'mentions':
      return [term('is', 'mentioned')];
    case 'search':
      return [term('search', narrow.query)];
    case 'filter':
      return narrow.terms;
  }
}

/** A filter's terms as path segments: `-sender/12/search/lunch`; also the filter's key. */
export function termsPath(terms: readonly NarrowTerm[], encode: (text: string) => string): string {
  return terms.map((t) => `${t.negated ? '-' : ''}${t.operator}/${encode(t.operand)}`).join('/');
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
    case 'filter':
      return `filter:${termsPath(narrow.terms, encodeURIComponent)}`;
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
  if (kind === 'filter') return parseFilterKey(body);
  return null;
}

function parseFilterKey(body: string): Narrow | null {
  const parts = body.split('/');
  if (parts.length % 2 !== 0) return null;
  const terms: NarrowTerm[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const negated = parts[i].startsWith('-');
    const operator = (negated ? parts[i].slice(1) : parts[i]) as FilterOperator;
    if (!FILTER_OPERATORS.includes(operator)) return null;
    try {
      terms.push({ operator, operand: decodeURIComponent(parts[i + 1]), negated });
    } catch {
      return null;
    }
  }
  return { kind: 'filter', terms };
}
