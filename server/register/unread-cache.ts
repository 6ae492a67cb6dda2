import type { AppContext } from '../context.js';
import { idList } from '../db/dialect.js';
import { rowsWith } from '../db/flag-conditions.js';
import { tableVersion } from '../db/row-cache.js';
import { topicsOf, unreadConversations } from '../db/unread-conversations.js';
import { MemoryBus, type Delivery, type EventDelivery } from '../events/types.js';

/** One conversation among a person's unread messages; ids ascending. */
export interface UnreadGroup {
  streamId: number | null;
  topicKey: string;
  dmKey: string | null;
  ids: number[];
  mentioned: number[];
  wildcard: number[];
  /** a channel conversation: the topic as its oldest unread message (ids[0]) names it, if known */
  topic?: string;
}

/**
 * A person's unread messages by conversation, kept in memory between registrations: at fifty
 * thousand unread messages, grouping them in the database is most of a /register's work.
 *
 * The copy is read from the database once, under the write lock that /register holds, and from
 * then on follows the events published for that person, as a client's own copy does: a new unread
 * message is added, messages marked read or deleted are removed. An event the copy does not
 * follow exactly (marked unread again, mark-all, an edit or move of an unread message) drops it,
 * to be read again at the next registration.
 *
 * It is still checked before each use: the number of the person's unread rows and the newest of
 * them are read from the index of unread rows (a few milliseconds at fifty thousand) and must be
 * what the copy expects, so a change that reached the database without an event (another
 * process, a tool) makes it read afresh instead of answering wrongly. That check is skipped while
 * the database shows that no such change can have happened since it last passed: on SQLite, no
 * other connection has committed and no statement of this process has written the table
 * (db/row-cache.ts, tableVersion). Kept only with the in-memory bus of a single process, as
 * realm_users is (realm-users.ts).
 */

interface Entry {
  groups: Map<string, UnreadGroup>;
  where: Map<number, UnreadGroup>;
  /**
   * The database holds older unread messages than these (the read was capped): the copy holds
   * every unread message from its oldest on, and is read again once it has fewer than the cap.
   */
  partial: boolean;
  /** the person's unread rows in the database, and the newest of them, as events left them */
  total: number;
  newest: number;
  /**
   * The database's version of the messages people have when the copy was last proved equal to
   * it (db/row-cache.ts, tableVersion): while it holds, no proof is needed. Null: always prove.
   */
  proved: string | null;
}

/** Ids held in all copies at most; the least recently used copies go first. */
const MAX_HELD = 2_000_000;

class UnreadCache {
  /** by user id, least recently used first */
  readonly entries = new Map<number, Entry>();
  /** bumped by every event that may change someone's unread messages */
  changes = 0;
  private held = 0;

  use(userId: number): Entry | undefined {
    const entry = this.entries.get(userId);
    if (entry) {
      this.entries.delete(userId);
      this.entries.set(userId, entry);
    }
    return entry;
  }

  store(userId: number, entry: Entry) {
    this.drop(userId);
    this.entries.set(userId, entry);
    this.held += entry.where.size;
    for (const [id, old] of this.entries) {
      if (this.held <= MAX_HELD || id === userId) break;
      this.held -= old.where.size;
      this.entries.delete(id);
    }
  }

  drop(userId: number) {
    const entry = this.entries.get(userId);
    if (!entry) return;
    this.held -= entry.where.size;
    this.entries.delete(userId);
  }

  apply(deliveries: Delivery[]) {
    for (const d of deliveries) {
      if (!d.event) continue;
      const type = d.event.type;
      if (
        type !== 'message' &&
        type !== 'update_message_flags' &&
        type !== 'delete_message' &&
        type !== 'update_message'
      )
        continue;
      this.changes++;
      if (this.entries.size === 0) continue;
      for (const userId of this.reached(d)) {
        const entry = this.entries.get(userId)!;
        if (!this.follow(entry, d, userId)) this.drop(userId);
      }
    }
  }

  /** The people with a copy among those an event is for. */
  private reached(d: EventDelivery): number[] {
    // Whichever side is smaller is walked.
    if (d.userIds.length <= this.entries.size)
      return d.userIds.filter((id) => this.entries.has(id));
    // A message's recipients are the keys of its per-user flags: no set of thousands to build.
    if (d.event.type === 'message' && d.perUser)
      return [...this.entries.keys()].filter((id) => d.perUser![id] !== undefined);
    const to = new Set(d.userIds);
    return [...this.entries.keys()].filter((id) => to.has(id));
  }

  /** Applies one event to one copy; false when the copy cannot follow it and must go. */
  private follow(entry: Entry, d: EventDelivery, userId: number): boolean {
    const event = d.event as Record<string, unknown>;
    switch (event.type) {
      case 'message': {
        const flags = (d.perUser?.[userId]?.flags as string[] | undefined) ?? [];
        if (flags.includes('read')) return true;
        const message = event.message as { id: number };
        if (!d.conversation) return false;
        add(entry, message.id, d.conversation, flags);
        return true;
      }
      case 'update_message_flags': {
        if (event.flag !== 'read') return true;
        if (event.op !== 'add' || event.all === true) return false;
        // Each of these was unread in the database (only changed rows are announced).
        return remove(entry, event.messages as number[], true);
      }
      case 'delete_message': {
        const ids = (event.message_ids as number[] | undefined) ?? [event.message_id as number];
        return remove(entry, ids, false);
      }
      default: {
        // An edit or a move touches the conversation or mentions of some messages: harmless
        // unless one of them is unread.
        const ids = (event.message_ids as number[] | undefined) ?? [event.message_id as number];
        return !ids.some((id) => entry.where.has(id));
      }
    }
  }
}

const conversationKey = (c: { streamId: number | null; topicKey: string; dmKey: string | null }) =>
  `${c.streamId ?? ''}\u0000${c.topicKey}\u0000${c.dmKey ?? ''}`;

function insertAscending(ids: number[], id: number) {
  if (!ids.length || ids[ids.length - 1] < id) ids.push(id);
  else {
    let at = ids.length;
    while (at > 0 && ids[at - 1] > id) at--;
    if (ids[at - 1] !== id) ids.splice(at, 0, id);
  }
}

function add(
  entry: Entry,
  id: number,
  conversation: NonNullable<EventDelivery['conversation']>,
  flags: string[],
) {
  if (entry.where.has(id)) return;
  const key = conversationKey(conversation);
  let group = entry.groups.get(key);
  if (!group) {
    const { streamId, topicKey, dmKey } = conversation;
    group = { streamId, topicKey, dmKey, ids: [], mentioned: [], wildcard: [] };
    entry.groups.set(key, group);
  }
  insertAscending(group.ids, id);
  if (group.ids[0] === id && group.streamId !== null) group.topic = conversation.topic;
  if (flags.includes('mentioned')) insertAscending(group.mentioned, id);
  if (flags.includes('stream_wildcard_mentioned') || flags.includes('topic_wildcard_mentioned'))
    insertAscending(group.wildcard, id);
  entry.where.set(id, group);
  entry.total++;
  entry.newest = Math.max(entry.newest, id);
}

/**
 * False when an id that must be unread is not in the copy: it has drifted, or (a capped copy)
 * an older unread message was read.
 */
function remove(entry: Entry, ids: number[], allUnread: boolean): boolean {
  for (const id of ids) {
    const group = entry.where.get(id);
    if (!group) {
      if (allUnread) return false;
      continue;
    }
    entry.where.delete(id);
    if (group.ids[0] === id) group.topic = undefined;
    const without = (list: number[]) => {
      const at = list.indexOf(id);
      if (at >= 0) list.splice(at, 1);
    };
    without(group.ids);
    without(group.mentioned);
    without(group.wildcard);
    if (!group.ids.length) entry.groups.delete(conversationKey(group));
    entry.total--;
  }
  if (!entry.where.has(entry.newest)) {
    // Each group's ids ascend: the newest is the largest of their last ids.
    entry.newest = 0;
    for (const g of entry.groups.values())
      entry.newest = Math.max(entry.newest, g.ids[g.ids.length - 1]);
  }
  return true;
}

const caches = new WeakMap<AppContext['queues'], UnreadCache>();

function cacheOf(ctx: AppContext): UnreadCache | null {
  if (!(ctx.queues.bus instanceof MemoryBus)) return null;
  let cache = caches.get(ctx.queues);
  if (!cache) {
    const created = new UnreadCache();
    ctx.queues.bus.subscribe((deliveries) => created.apply(deliveries));
    caches.set(ctx.queues, (cache = created));
  }
  return cache;
}

/** How many unread rows the person has, and the newest, from the index of unread rows. */
async function unreadFingerprint(ctx: AppContext, userId: number) {
  const row = await ctx.db
    .selectFrom('user_messages')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('message_id').as('newest')])
    .where('user_id', '=', userId)
    .where(rowsWith('unread'))
    .executeTakeFirst();
  return { total: Number(row?.n ?? 0), newest: Number(row?.newest ?? 0) };
}

/** Looks up the topics the copy does not know (a group whose oldest message was read). */
async function learnTopics(ctx: AppContext, groups: Iterable<UnreadGroup>) {
  const unknown = [...groups].filter((g) => g.streamId !== null && g.topic === undefined);
  if (!unknown.length) return;
  const firsts = unknown.map((g) => g.ids[0]);
  const topics = await topicsOf(ctx.db, firsts);
  // An event may have read a group's oldest message meanwhile: its topic stays unknown.
  unknown.forEach((g, i) => {
    if (g.ids[0] === firsts[i]) g.topic = topics.get(firsts[i]);
  });
}

/** Copies of the groups, with only the newest `limit` ids when the copy holds more. */
function groupsOf(entry: Entry, limit: number): UnreadGroup[] {
  let floor = 0;
  if (entry.where.size > limit) {
    const ids = [...entry.where.keys()].sort((a, b) => b - a);
    floor = ids[limit - 1];
  }
  const out: UnreadGroup[] = [];
  for (const g of entry.groups.values()) {
    const ids = keepFrom(g.ids, floor);
    if (!ids.length) continue;
    out.push({
      streamId: g.streamId,
      topicKey: g.topicKey,
      dmKey: g.dmKey,
      ids,
      mentioned: keepFrom(g.mentioned, floor),
      wildcard: keepFrom(g.wildcard, floor),
      topic: ids[0] === g.ids[0] ? g.topic : undefined,
    });
  }
  return out;
}

/** A copy of the ascending `list` from `floor` on (all of it when `floor` is 0). */
function keepFrom(list: number[], floor: number): number[] {
  if (!floor || !list.length || list[0] >= floor) return list.slice();
  let at = 0;
  while (at < list.length && list[at] < floor) at++;
  return list.slice(at);
}

async function fromDatabase(ctx: AppContext, userId: number, limit: number) {
  return (await unreadConversations(ctx.db, ctx.dialect, userId, limit)).map((r): UnreadGroup => ({
    streamId: r.stream_id,
    topicKey: r.topic_key,
    dmKey: r.dm_key,
    ids: idList(r.ids),
    mentioned: idList(r.mentioned),
    wildcard: idList(r.wildcard),
  }));
}

/**
 * A person's newest `limit` unread messages grouped by conversation: from the copy in memory when
 * there is one that still matches the database, else from the database (and kept). `database`
 * reads the database and leaves the copies alone (the tests compare the two).
 */
export async function unreadGroups(
  ctx: AppContext,
  userId: number,
  limit: number,
  source: 'memory' | 'database' = 'memory',
): Promise<UnreadGroup[]> {
  const cache = source === 'memory' ? cacheOf(ctx) : null;
  if (!cache) return fromDatabase(ctx, userId, limit);
  const cached = cache.use(userId);
  if (cached) {
    const version = tableVersion(ctx.db, 'user_messages');
    const enough = !cached.partial || cached.where.size >= limit;
    const now =
      version !== null && version === cached.proved ? cached : await unreadFingerprint(ctx, userId);
    if (enough && now.total === cached.total && now.newest === cached.newest) {
      cached.proved = version;
      await learnTopics(ctx, cached.groups.values());
      return groupsOf(cached, limit);
    }
    cache.drop(userId);
  }
  const changes = cache.changes;
  const version = tableVersion(ctx.db, 'user_messages');
  const fingerprint = await unreadFingerprint(ctx, userId);
  const entry: Entry = {
    groups: new Map(),
    where: new Map(),
    partial: false,
    total: fingerprint.total,
    newest: fingerprint.newest,
    proved: version,
  };
  for (const g of await fromDatabase(ctx, userId, limit)) {
    entry.groups.set(conversationKey(g), g);
    for (const id of g.ids) entry.where.set(id, g);
  }
  entry.partial = entry.where.size < fingerprint.total;
  await learnTopics(ctx, entry.groups.values());
  // Kept only if no event passed while it was read (none does under the lock /register holds).
  if (cache.changes === changes) cache.store(userId, entry);
  return groupsOf(entry, limit);
}
