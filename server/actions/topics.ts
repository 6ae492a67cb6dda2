import type { AppContext } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { badRequest } from '../domain/errors.js';
import { renderMarkdown } from '../markdown/index.js';
import { canReadStreamHistory, receivedMessageIds } from '../lib/access.js';
import { baseQuery } from '../lib/get-messages.js';
import { narrowLookup, planNarrow, type NarrowTerm } from '../lib/narrow.js';
import { expandWithOperator } from '../lib/narrow-with.js';
import { searchMatcher } from '../lib/search-highlight.js';
import { markdownContext } from './markdown-context.js';
import { streamForUser } from '../lib/streams.js';

/** GET /users/me/{stream_id}/topics: the stream's topics, most recently active first. */
export async function streamTopics(
  ctx: AppContext,
  realm: Realm,
  user: User | null,
  streamId: number,
) {
  const { stream, subscribed } = await streamForUser(ctx.db, realm, user, { id: streamId });
  let inner = ctx.db
    .selectFrom('messages')
    .select(['topic_key', (eb) => eb.fn.max('id').as('max_id')])
    .where('stream_id', '=', stream.id)
    .groupBy('topic_key');
  if (!canReadStreamHistory(user, stream, subscribed)) {
    if (!user) return { topics: [] };
    inner = inner.where('id', 'in', receivedMessageIds(ctx.db, user.id));
  }
  // The newest message's spelling of each topic is the one to show.
  const rows = await ctx.db
    .selectFrom(inner.as('t'))
    .innerJoin('messages as m', (j) => j.onRef('m.id', '=', 't.max_id'))
    .select(['m.topic as name', 'm.id as max_id'])
    .orderBy('m.id', 'desc')
    .execute();
  return { topics: rows.map((r) => ({ name: r.name, max_id: Number(r.max_id) })) };
}

/** POST /messages/render: a preview of what a message would look like. */
export async function renderPreview(ctx: AppContext, realm: Realm, user: User, content: string) {
  if (content.trim() === '') throw badRequest('Message must not be empty');
  const md = renderMarkdown(content, await markdownContext(ctx.db, realm, user, content));
  return { rendered: md.html };
}

/** GET /messages/matches_narrow: which of the given messages match a narrow. */
export async function matchesNarrow(
  ctx: AppContext,
  realm: Realm,
  user: User,
  ids: number[],
  narrow: NarrowTerm[],
) {
  const terms = await expandWithOperator(ctx.db, realm, user, narrow);
  const plan = planNarrow(terms, await narrowLookup(ctx.db, realm, user), ctx.dialect);
  // As upstream, only messages the user received are matched: this answers whether messages the
  // client holds belong in a view, never what a channel's history holds.
  plan.historyStream = null;
  plan.publicStreamIds = null;
  // A few messages are each looked up in the search index rather than all its matches read.
  for (const term of plan.searches) term.reading = 'probe';
  if (!ids.length) return { messages: {} };
  const rows = await baseQuery(ctx, user, plan).where('m.id', 'in', ids.slice(0, 1000)).execute();
  const messages: Record<string, { match_content: string; match_subject: string }> = {};
  const match = searchMatcher(plan.searchWords);
  for (const r of rows) messages[String(r.id)] = match(r);
  return { messages };
}
