import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { ANY_MENTION_BITS, FLAG_BITS } from '../domain/flags.js';
import { CONTENT_FLAGS, type ContentFlag } from '../domain/message-content.js';
import { RESOLVED_PREFIX } from '../domain/conversations.js';

/**
 * Not a flag of the API (flagsToList never lists it): set on every user_messages row of a direct
 * message, as upstream's `is_private`, so that a person's direct messages have an index of their
 * own (recent_private_conversations reads the newest of them at every /register).
 */
export const PRIVATE_MESSAGE_BIT = 2048;

/**
 * The partial indexes on user_messages (user_id, message_id) and their conditions. A database
 * uses a partial index only when the query states the index's condition itself, with the same
 * constants written out (a bound parameter does not count on SQLite): queries build their
 * conditions with rowsWith(), from this same text.
 */
export const FLAG_INDEXES = {
  user_messages_starred: `flags & ${FLAG_BITS.starred} != 0`,
  user_messages_mentioned: `flags & ${ANY_MENTION_BITS} != 0`,
  user_messages_private: `flags & ${PRIVATE_MESSAGE_BIT} != 0`,
} as const;

/** PostgreSQL statistics of each flag per person (migration 0009): name and bits. */
export const FLAG_STATISTICS = {
  user_messages_read_stats: FLAG_BITS.read,
  user_messages_starred_stats: FLAG_BITS.starred,
  user_messages_mentioned_stats: ANY_MENTION_BITS,
  user_messages_private_stats: PRIVATE_MESSAGE_BIT,
} as const;

/**
 * Rows whose message holds one of the person's alert words (migration 0015; not among
 * FLAG_INDEXES, which migration 0009 created as it stood then). Few rows have it, so without
 * this index `is:alerted` read every message of the person to find them.
 */
export const ALERTED_INDEX = {
  name: 'user_messages_alerted',
  condition: `flags & ${FLAG_BITS.has_alert_word} != 0`,
  statistics: 'user_messages_alerted_stats',
  bits: FLAG_BITS.has_alert_word,
} as const;

/** The condition of the index on unread rows, user_messages_unread_flags. */
export const UNREAD_CONDITION = `flags & ${FLAG_BITS.read} = 0`;

export type FlagIndex = 'unread' | 'starred' | 'mentioned' | 'private' | 'alerted';

const CONDITIONS: Record<FlagIndex, string> = {
  unread: UNREAD_CONDITION,
  starred: FLAG_INDEXES.user_messages_starred,
  mentioned: FLAG_INDEXES.user_messages_mentioned,
  private: FLAG_INDEXES.user_messages_private,
  alerted: ALERTED_INDEX.condition,
};

/**
 * `alias.flags & BITS != 0` (or `= 0` for unread) with the constants inline, matching the
 * partial index of that kind. `alias` is the user_messages table's name or alias in the query.
 */
export function rowsWith(kind: FlagIndex, alias?: string): RawBuilder<SqlBool> {
  const condition = CONDITIONS[kind];
  return alias
    ? sql<SqlBool>`${sql.ref(alias)}.${sql.raw(condition)}`
    : sql<SqlBool>`${sql.raw(condition)}`;
}

/**
 * The partial indexes on messages by what their rendered HTML holds (0017), one per `has` operand
 * but `reaction`, each twice: by id, from which the person's few messages with a link among all
 * are read newest first, and by channel and id, from which a channel's are. Either way a page of
 * `has:link` is read from the messages that have one instead of testing every message.
 */
export const CONTENT_INDEXES = Object.fromEntries(
  Object.entries(CONTENT_FLAGS).map(([kind, { bit }]) => [
    kind,
    {
      names: [`messages_has_${kind}`, `messages_has_${kind}_by_channel`],
      condition: `content_flags & ${bit} != 0`,
      /** PostgreSQL: statistics of the condition's expression (name, expression) */
      statistics: [`messages_has_${kind}_stats`, `content_flags & ${bit}`],
    },
  ]),
) as Record<ContentFlag, { names: string[]; condition: string; statistics: [string, string] }>;

/** The columns of each pair of partial indexes on messages: by id, and by channel and id. */
export const PARTIAL_MESSAGE_INDEX_COLUMNS = ['id', 'stream_id, id'] as const;

/** `alias.content_flags & BIT != 0` with the constant inline, matching its partial index. */
export function messagesHolding(flag: ContentFlag, alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(alias)}.${sql.raw(CONTENT_INDEXES[flag].condition)}`;
}

/**
 * Messages in a resolved topic (0018): partial indexes on messages by id and by channel, as
 * CONTENT_INDEXES, with this condition, `prefix` naming the table (`m.`) in queries and nothing
 * in the index. The topic's first characters are compared, which means the same on both
 * databases whatever their LIKE rules, and as `startsWith` in memory.
 */
export const resolvedTopicCondition = (prefix = '') =>
  `${prefix}type = 'stream' AND substr(${prefix}topic, 1, ${PREFIX_LENGTH}) = '${RESOLVED_PREFIX}'`;

/** The prefix's length in characters, as substr counts on both databases. */
const PREFIX_LENGTH = [...RESOLVED_PREFIX].length;

export const RESOLVED_INDEXES: [string, string] = [
  'messages_resolved',
  'messages_resolved_by_channel',
];

/** PostgreSQL: statistics of the start of topics, for the condition above. */
export const RESOLVED_STATISTICS: [string, string] = [
  'messages_resolved_stats',
  `substr(topic, 1, ${PREFIX_LENGTH})`,
];
