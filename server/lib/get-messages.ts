import { sql, type SelectQueryBuilder } from 'kysely';
import type { AppContext } from '../context.js';
import type { DB, Message, Realm, User } from '../db/schema.js';
import { badRequest, notLoggedIn } from '../domain/errors.js';
import { rowsWith, type FlagIndex } from '../db/flag-conditions.js';
import {
  messagesBySearch,
  SEARCH_ORDER_COLUMN,
  searchOrderBound,
  searchMatchIds,
} from '../db/search.js';
import type { SearchQuery } from '../domain/search-text.js';
import { accessibleMessage, HISTORICAL_FLAGS, invalidMessage } from './message-access.js';
import { formatMessages } from './message-records.js';
import { expandWithOperator } from './narrow-with.js';
import { searchMatcher } from './search-highlight.js';
import {
  checkSpectatorNarrow,
  narrowLookup,
  planNarrow,
  type NarrowPlan,
  type NarrowTerm,
} from './narrow.js';

export const MAX_MESSAGES_PER_FETCH = 5000;
/** ids are 32-bit integer columns; larger anchors mean "after everything" */
const MAX_ID = 2147483647;

export interface GetMessagesOptions {
  anchor: 'newest' | 'oldest' | 'first_unread' | number;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow: NarrowTerm[];
  applyMarkdown: boolean;
}

type Row = Message & { flags: number };
type Q = SelectQueryBuilder<DB & { m: DB['messages']; um: DB['user_messages'] }, 'm' | 'um', Row>;

/**
 * The messages of a plan with the reader's flags. With `driver` (SQLite, chooseSearchReading),
 * they are read in id order from the search index: order and bound them by SEARCH_ORDER_COLUMN.
 */
export function baseQuery(
  ctx: AppContext,
  user: User | null,
  plan: NarrowPlan,
  driver: SearchQuery[] | null = null,
): Q {
  const me = user?.id ?? -1;
  const db = ctx.db as any;
  let q: Q;
  const history = plan.historyStream || plan.publicStreamIds;
  if (driver) {
    const found = messagesBySearch(db, driver) as any;
    q = history
      ? found
          .leftJoin('user_messages as um', (j: any) =>
            j.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', me),
          )
          .selectAll('m')
          .select(sql<number>`coalesce(um.flags, ${HISTORICAL_FLAGS})`.as('flags'))
      : found
          .crossJoin('user_messages as um')
          .where('um.user_id', '=', me)
          .whereRef('um.message_id', '=', 'm.id')
          .selectAll('m')
          .select('um.flags as flags');
  } else if (history) {
    // Reading a stream's shared history: messages the user never received count too.
    q = db
      .selectFrom('messages as m')
      .leftJoin('user_messages as um', (j: any) =>
        j.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', me),
      )
      .selectAll('m')
      .select(sql<number>`coalesce(um.flags, ${HISTORICAL_FLAGS})`.as('flags'));
  } else {
    q = db
      .selectFrom('user_messages as um')
      .innerJoin('messages as m', 'm.id', 'um.message_id')
      .selectAll('m')
      .select('um.flags as flags')
      .where('um.user_id', '=', me);
  }
  for (const c of plan.conditions) q = q.where(c as any);
  return q;
}

export const SEARCH_READING_LIMITS = {
  /** below this many matches, a search's matches are read as a list; see SearchReading */
  fewMatches: 2000,
  /** below this many messages, a narrow asks the index about each of its messages */
  smallNarrow: 2000,
};

/**
 * SQLite cannot weigh how many messages a full-text search matches, so this chooses how its
 * matches are read (db/search.ts SearchReading) from two bounded readings. A large narrow (the
 * whole history, a busy channel) reads them newest first from the index, stopping once a page is
 * found: a phrase of two common words costs about a page of rows, where listing all its
 * matches first meant decoding both words' whole entries in the index. A small narrow (a quiet channel, a conversation) gets few
 * matches as a list, read from the index once, and many by asking the index about each of its
 * messages. Returns the queries that then drive the reading.
 */
async function chooseSearchReading(
  ctx: AppContext,
  user: User | null,
  plan: NarrowPlan,
): Promise<SearchQuery[] | null> {
  if (ctx.dialect !== 'sqlite' || plan.searches.length === 0) return null;
  const queries = plan.searches.map((t) => t.query);
  const { fewMatches, smallNarrow } = SEARCH_READING_LIMITS;
  for (const term of plan.searches) term.reading = 'driven';
  const rest = await (ctx.db as any)
    .selectFrom(
      // Written out, not bound: SQLite counts a subquery of a bound LIMIT several times slower.
      baseQuery(ctx, user, plan).clearSelect().select('m.id').limit(sql.lit(smallNarrow)).as('r'),
    )
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst();
  if (Number(rest?.n ?? 0) >= smallNarrow) return queries;
  const ids = await searchMatchIds(ctx.db, queries, fewMatches);
  if (ids.length < fewMatches) {
    // The ids match every search term: the first reads them, the others hold already.
    plan.searches.forEach((term, i) => (term.reading = i === 0 ? { ids } : 'driven'));
    return null;
  }
  for (const term of plan.searches) term.reading = 'probe';
  return null;
}

/** `is` operands whose messages are exactly the reader's rows of one partial index. */
const INDEXED_IS: Record<string, FlagIndex> = {
  unread: 'unread',
  starred: 'starred',
  mentioned: 'mentioned',
  alerted: 'alerted',
  dm: 'private',
  private: 'private',
};

/**
 * The narrow's conditions, plus the condition of the partial index on user_messages that an `is`
 * term selects (unread, starred, mentioned, alerted, direct messages): the same rows, stated so
 * that the database can read them from that index rather than test every message of the reader.
 */
function withIndexedFlags(plan: NarrowPlan, terms: NarrowTerm[]): NarrowPlan {
  const extra = terms.flatMap((t) =>
    t.operator === 'is' && !t.negated && typeof t.operand === 'string' && INDEXED_IS[t.operand]
      ? [rowsWith(INDEXED_IS[t.operand]!, 'um')]
      : [],
  );
  return extra.length
    ? { ...plan, conditions: [...plan.conditions, ...extra.map((c) => () => c)] }
    : plan;
}

/** GET /messages */
export async function getMessages(
  ctx: AppContext,
  realm: Realm,
  user: User | null,
  opts: GetMessagesOptions,
) {
  if (opts.numBefore > MAX_MESSAGES_PER_FETCH || opts.numAfter > MAX_MESSAGES_PER_FETCH)
    throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  if (opts.numBefore < 0 || opts.numAfter < 0)
    throw badRequest('num_before and num_after must not be negative');
  const plan = await planFetch(ctx, realm, user, opts.narrow);
  const { anchor, anchorIsNewest } = await resolveAnchor(ctx, user, plan, opts.anchor);
  const { before, anchorRows, after } = await readWindow(ctx, user, plan, opts, {
    anchor,
    anchorIsNewest,
  });

  const foundOldest = before.length <= opts.numBefore;
  const foundNewest = anchorIsNewest || after.length <= opts.numAfter;
  const rows = [
    ...before.slice(0, opts.numBefore).reverse(),
    ...anchorRows,
    ...after.slice(0, opts.numAfter),
  ];
  const formatted = await formatMessages(ctx, ctx.db, realm, rows, {
    applyMarkdown: opts.applyMarkdown,
  });
  // A search highlights its words in every result, as upstream's match_content and match_subject.
  const words = plan.searchWords;
  const match = words.length === 0 ? null : searchMatcher(words);
  const messages = match
    ? formatted.map((message, index) => ({ ...message, ...match(rows[index]!) }))
    : formatted;
  return {
    anchor: anchorIsNewest ? 10_000_000_000_000_000 : anchor,
    found_anchor: anchorRows.length > 0,
    found_oldest: foundOldest,
    found_newest: foundNewest,
    history_limited: false,
    messages,
  };
}

/** The narrow as conditions on the messages, once whoever asks may read it. */
async function planFetch(
  ctx: AppContext,
  realm: Realm,
  user: User | null,
  requested: GetMessagesOptions['narrow'],
) {
  let lookup = await narrowLookup(ctx.db, realm, user, requested);
  // (Spectator access itself is checked for every anonymous request in the request layer.)
  if (user === null) checkSpectatorNarrow(requested, lookup);
  const narrow = await expandWithOperator(ctx.db, realm, user, requested);
  // A `with` term became the message's conversation, which may name other people.
  if (narrow !== requested) lookup = await narrowLookup(ctx.db, realm, user, narrow);
  const plan = withIndexedFlags(planNarrow(narrow, lookup, ctx.dialect), narrow);
  // A spectator reads channel history only, never rows of their own (they have none).
  if (user === null && !plan.historyStream && !plan.publicStreamIds) throw notLoggedIn();
  return plan;
}

/** The anchor as a message id; "newest" (and an unread anchor with nothing unread) is past all. */
async function resolveAnchor(
  ctx: AppContext,
  user: User | null,
  plan: NarrowPlan,
  requested: GetMessagesOptions['anchor'],
): Promise<{ anchor: number; anchorIsNewest: boolean }> {
  if (requested === 'newest') return { anchor: MAX_ID, anchorIsNewest: true };
  if (requested === 'oldest') return { anchor: 0, anchorIsNewest: false };
  if (requested !== 'first_unread')
    return { anchor: Math.min(requested, MAX_ID), anchorIsNewest: false };
  const first = user === null ? undefined : await firstUnread(ctx, user, plan);
  return first?.first != null
    ? { anchor: Number(first.first), anchorIsNewest: false }
    : { anchor: MAX_ID, anchorIsNewest: true };
}

/**
 * The narrow's first unread message. Unread messages all have the reader's row: read from the
 * index of unread rows, even when the narrow reads a channel's history. The first in id order
 * rather than min(): both databases then walk that index in order and stop at the first row the
 * narrow keeps. With no narrow, the index alone answers.
 */
async function firstUnread(ctx: AppContext, user: User, plan: NarrowPlan) {
  return plan.conditions.length === 0
    ? await ctx.db
        .selectFrom('user_messages as um')
        .select('um.message_id as first')
        .where('um.user_id', '=', user.id)
        .where(rowsWith('unread', 'um'))
        .orderBy('um.message_id')
        .limit(1)
        .executeTakeFirst()
    : await baseQuery(ctx, user, { ...plan, historyStream: null, publicStreamIds: null })
        .clearSelect()
        .select('um.message_id as first')
        .where(rowsWith('unread', 'um'))
        .orderBy('um.message_id')
        .limit(1)
        .executeTakeFirst();
}

/** The rows before the anchor, at it and after it, each side with one row more than asked. */
async function readWindow(
  ctx: AppContext,
  user: User | null,
  plan: NarrowPlan,
  opts: GetMessagesOptions,
  { anchor, anchorIsNewest }: { anchor: number; anchorIsNewest: boolean },
) {
  // Chosen once the anchor is found: the unread anchor reads the matches as a list.
  const driver = await chooseSearchReading(ctx, user, plan);
  const idCol = driver
    ? SEARCH_ORDER_COLUMN
    : plan.historyStream || plan.publicStreamIds
      ? 'm.id'
      : 'um.message_id';
  // The window's bound is stated on the message too (twice, when reading the reader's rows):
  // PostgreSQL does not carry a range across the join, and would otherwise walk every message.
  // One row more than asked tells whether the window reaches the end, also for an empty side.
  const bound = (cmp: '<' | '>' | '=') =>
    driver ? searchOrderBound(cmp, anchor) : (eb: any) => eb(idCol, cmp, anchor);
  const before = await baseQuery(ctx, user, plan, driver)
    .where(bound('<'))
    .where('m.id', '<', anchor)
    .orderBy(idCol as any, 'desc')
    .limit(opts.numBefore + 1)
    .execute();
  const anchorRows =
    opts.includeAnchor && !anchorIsNewest
      ? await baseQuery(ctx, user, plan, driver).where(bound('=')).execute()
      : [];
  const after = !anchorIsNewest
    ? await baseQuery(ctx, user, plan, driver)
        .where(bound('>'))
        .where('m.id', '>', anchor)
        .orderBy(idCol as any, 'asc')
        .limit(opts.numAfter + 1)
        .execute()
    : [];
  return { before, anchorRows, after };
}

/** GET /messages/{id} */
export async function getSingleMessage(
  ctx: AppContext,
  realm: Realm,
  user: User | null,
  id: number,
  applyMarkdown: boolean,
) {
  const row = await accessibleMessage(ctx.db, realm, user, id);
  // Upstream's access_web_public_message: a spectator is asked to log in for anything not theirs
  // to read, which also tells them nothing about whether the message exists.
  if (!row) throw user === null ? notLoggedIn() : invalidMessage();
  const [message] = await formatMessages(ctx, ctx.db, realm, [row], { applyMarkdown });
  return { raw_content: row.content, message };
}
