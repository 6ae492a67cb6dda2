import { sql, type SqlBool } from 'kysely';
import { searchCondition } from '../db/search.js';
import { messagesHolding, resolvedTopicCondition } from '../db/flag-conditions.js';
import { CONTENT_FLAGS, type ContentFlag } from '../domain/message-content.js';
import { ANY_MENTION_BITS, FLAG_BITS } from '../domain/flags.js';
import { RESOLVED_PREFIX, VISIBILITY } from '../domain/conversations.js';
import { parseSearch, searchesNothing } from '../domain/search-text.js';
import {
  badNarrow,
  defineOperator,
  matchesNothing,
  textOperand,
  type Cond,
  type Lookup,
  type SearchTerm,
} from './narrow-base.js';
import type { MessageTest } from '../domain/message-facts.js';

/** Operators on what a message is to its reader (`is`), what it holds (`has`), search and ids. */

/** One `is` or `has` operand: its SQL condition and its test on a message being delivered. */
interface Property {
  sql: (lookup: Lookup) => Cond;
  /** null: an event queue cannot decide it (see OperatorDef.memory) */
  memory: MessageTest | null;
}

/** A message read from history that the user never received counts as read and historical. */
const flagsOf = sql<number>`coalesce(um.flags, ${FLAG_BITS.historical | FLAG_BITS.read})`;

/** Any of `bits` set in the reader's flags, as they are at delivery for a queue. */
const flagSet = (bits: number): Property => ({
  sql: () => (eb) => eb(sql<number>`${flagsOf} & ${bits}`, '!=', 0),
  memory: (m) => (m.flags & bits) !== 0,
});

const isDm: Property = {
  sql: () => (eb) => eb('m.type', '=', 'private'),
  memory: (m) => m.type === 'private',
};

const IS: Record<string, Property> = {
  dm: isDm,
  private: isDm,
  starred: flagSet(FLAG_BITS.starred),
  mentioned: flagSet(ANY_MENTION_BITS),
  alerted: flagSet(FLAG_BITS.has_alert_word),
  unread: {
    sql: () => (eb) => eb(sql<number>`${flagsOf} & ${FLAG_BITS.read}`, '=', 0),
    memory: (m) => (m.flags & FLAG_BITS.read) === 0,
  },
  resolved: {
    // Stated as its partial index's condition (messages_resolved), so that both databases read
    // the few messages of resolved topics from it.
    sql: () => () => sql<SqlBool>`(${sql.raw(resolvedTopicCondition('m.'))})`,
    memory: (m) => m.type === 'stream' && m.topic.startsWith(RESOLVED_PREFIX),
  },
  followed: {
    sql: (lookup) => (eb) =>
      eb.exists(
        eb
          .selectFrom('user_topics as ut')
          .select(sql<number>`1`.as('one'))
          .where('ut.user_id', '=', lookup.user?.id ?? -1)
          .whereRef('ut.stream_id', '=', 'm.stream_id')
          .whereRef('ut.topic_key', '=', 'm.topic_key')
          .where('ut.visibility_policy', '=', VISIBILITY.FOLLOWED),
      ),
    // Topics are followed and unfollowed after delivery; upstream refuses it for events too.
    memory: null,
  },
};

/** What the rendered HTML holds (domain/message-content.ts), kept with each message. */
const holding = (flag: ContentFlag): Property => ({
  sql: () => () => messagesHolding(flag, 'm'),
  memory: (m) => m.renderedContent.includes(CONTENT_FLAGS[flag].needle),
});

const HAS: Record<string, Property> = {
  link: holding('link'),
  image: holding('image'),
  attachment: holding('attachment'),
  // At delivery a message has no reactions yet, so a queue's has:reaction matches nothing new.
  reaction: {
    sql: () => (eb) =>
      eb.exists(
        eb
          .selectFrom('reactions as r')
          .select(sql<number>`1`.as('one'))
          .whereRef('r.message_id', '=', 'm.id'),
      ),
    memory: (m) => m.reactionCount > 0,
  },
};

function propertyOperator(
  name: 'is' | 'has',
  table: Record<string, Property>,
  spectators: boolean,
) {
  return defineOperator<Property>({
    names: [name],
    spectators,
    resolve(operand) {
      const key = textOperand(operand, `'${name}'`);
      if (!Object.hasOwn(table, key)) throw badNarrow(`unknown '${name}' operand ${key}`);
      return table[key]!;
    },
    sql: (property, lookup) => property.sql(lookup),
    memory: (property) => property.memory,
  });
}

/**
 * Full-text search, as upstream's: every word and "quoted phrase" in the content or the topic,
 * stemmed, ignoring case; stop words and punctuation are not searched for, and a search of
 * nothing else matches no message (domain/search-text.ts, db/search.ts).
 */
const search = defineOperator<SearchTerm>({
  names: ['search'],
  spectators: true,
  // Negated, a term keeps most messages: asking the index about each is quickest. Planned (not
  // negated), it reads its matches as a list unless get-messages chooses otherwise.
  resolve: (operand) => ({ query: parseSearch(textOperand(operand, 'search')), reading: 'probe' }),
  sql(term, _lookup, dialect) {
    if (searchesNothing(term.query)) return matchesNothing;
    // Read when the query is built: get-messages may change how the term is read after planning.
    return () => searchCondition(dialect, term.query, term.reading);
  },
  plan(term, plan) {
    term.reading = 'list';
    plan.searchWords.push(...term.query.highlightTokens);
    if (!searchesNothing(term.query)) plan.searches.push(term);
  },
  // Upstream applies no search to events.
  memory: () => null,
});

/** Message ids are 32-bit integer columns, as upstream's MAX_POSSIBLE_MESSAGE_ID. */
const MAX_MESSAGE_ID = 2147483647;

const id = defineOperator<number>({
  names: ['id'],
  spectators: true,
  resolve(operand) {
    const text = String(operand);
    if (!/^\d+$/.test(text) || Number(text) > MAX_MESSAGE_ID) throw badNarrow('Invalid message ID');
    return Number(text);
  },
  sql: (messageId) => (eb) => eb('m.id', '=', messageId),
  // It names a message that exists before the queue does; upstream refuses it for events.
  memory: () => null,
});

/** Where a view opens; it filters nothing (upstream's by_near). */
const near = defineOperator<null>({
  names: ['near'],
  spectators: true,
  resolve: () => null,
  sql: () => null,
  // A queue would pass everything through it: refused, as upstream does.
  memory: () => null,
});

/**
 * The conversation a message is in now (upstream's `with`, feature level 271). GET /messages,
 * matches_narrow and flags/narrow replace the narrow before planning it (narrow-with.ts); what
 * remains here only validates the operand, and a queue refuses it like `near`.
 */
const withMessage = defineOperator<null>({
  names: ['with'],
  spectators: true,
  resolve(operand) {
    if (!/^\d+$/.test(String(operand)) || Number(operand) > MAX_MESSAGE_ID)
      throw badNarrow("Invalid 'with' operator");
    return null;
  },
  sql: () => null,
  memory: () => null,
});

export const CONTENT_OPERATORS = [
  propertyOperator('is', IS, false),
  propertyOperator('has', HAS, true),
  search,
  id,
  near,
  withMessage,
];
