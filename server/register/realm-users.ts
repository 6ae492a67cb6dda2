import type { AppContext } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { mayReadDeliveryEmail } from '../domain/email-visibility.js';
import { userToApi } from '../domain/serialize.js';
import { profileDataFor, realmUsers } from '../actions/users.js';
import { RawJson } from '../domain/raw-json.js';
import { tableVersion } from '../db/row-cache.js';
import { deflatePiece } from '../domain/deflate-pieces.js';
import { MemoryBus, type Delivery } from '../events/types.js';

/**
 * `realm_users` and `realm_non_active_users` of /register as JSON text, kept per organization
 * between registrations: at ten thousand people, reading, shaping and serializing them is most
 * of a registration's work, and they change rarely.
 *
 * One user's JSON is the same for every reader but for `delivery_email`, so each is kept in two
 * pieces around it and joined per reader with the address or null.
 *
 * Kept correct by two checks. Every change to people is announced by an event (realm_user,
 * realm_bot, custom_profile_fields, user_settings...), and every event but the frequent ones that
 * cannot concern people (messages, flags, typing, presence...) drops the organization's copy; a
 * copy being built when such an event passes is not kept. Those events pass synchronously,
 * under the write lock that /register takes, only with the in-memory bus of a single process:
 * with several processes (the Redis bus) nothing is kept. And people added by another process
 * (`manage create-user` beside a running server) change the count or the highest id, which are
 * read at each use unless the database shows that no other process has written since they were
 * last read (db/row-cache.ts, tableVersion).
 */

/** Events that never change what realm_users shows; every other event drops the copy. */
const UNRELATED_EVENTS = new Set([
  'message',
  'update_message',
  'delete_message',
  'update_message_flags',
  'reaction',
  'typing',
  'presence',
  // a status is its own section of /register (user_status), not part of a person's entry
  'user_status',
  'heartbeat',
  'user_topic',
  'drafts',
  'scheduled_messages',
  'subscription',
  'stream',
  'alert_words',
  'muted_users',
  'attachment',
  'submessage',
]);

interface UserPieces {
  user: User;
  /** JSON up to and including `"delivery_email":` */
  head: string;
  /** the address as JSON */
  address: string;
  /** JSON after the address, closing brace included */
  tail: string;
}

interface Entry {
  count: number;
  maxId: number;
  /** the database's version of people when count and maxId were last proved (tableVersion) */
  proved: string | null;
  active: UserPieces[];
  inactive: UserPieces[];
  /** the lists as JSON per reader role ("active:400"), made at first use */
  joined: Map<string, Joined>;
}

interface State {
  entries: Map<number, Entry>;
  /** bumped by every event that may concern people of the organization */
  generations: Map<number, number>;
}

const states = new WeakMap<AppContext['queues'], State>();

function stateOf(ctx: AppContext): State | null {
  if (!(ctx.queues.bus instanceof MemoryBus)) return null;
  let state = states.get(ctx.queues);
  if (!state) {
    const created: State = { entries: new Map(), generations: new Map() };
    ctx.queues.bus.subscribe((deliveries: Delivery[]) => {
      for (const d of deliveries) {
        if (!d.event || UNRELATED_EVENTS.has(d.event.type)) continue;
        created.entries.delete(d.realmId);
        created.generations.set(d.realmId, (created.generations.get(d.realmId) ?? 0) + 1);
      }
    });
    states.set(ctx.queues, (state = created));
  }
  return state;
}

const KEY = '"delivery_email":null';

function piecesOf(ctx: AppContext, user: User, profile: Parameters<typeof userToApi>[3]) {
  const json = JSON.stringify(userToApi(ctx, user, null, profile));
  const at = json.indexOf(KEY) + KEY.length - 'null'.length;
  return {
    user,
    head: json.slice(0, at),
    address: JSON.stringify(user.delivery_email),
    tail: json.slice(at + 'null'.length),
  };
}

async function build(ctx: AppContext, realm: Realm): Promise<Entry> {
  const users = await realmUsers(ctx.db, realm.id);
  const profiles = await profileDataFor(ctx.db, realm.id);
  const entry: Entry = {
    count: users.length,
    maxId: 0,
    proved: null,
    active: [],
    inactive: [],
    joined: new Map(),
  };
  for (const u of users) {
    entry.maxId = Math.max(entry.maxId, u.id);
    (u.is_active ? entry.active : entry.inactive).push(piecesOf(ctx, u, profiles.get(u.id) ?? {}));
  }
  return entry;
}

async function fingerprint(ctx: AppContext, realmId: number) {
  const row = await ctx.db
    .selectFrom('users')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('id').as('max')])
    .where('realm_id', '=', realmId)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), maxId: Number(row?.max ?? 0) };
}

async function entryFor(ctx: AppContext, realm: Realm): Promise<Entry> {
  const state = stateOf(ctx);
  if (!state) return build(ctx, realm);
  const cached = state.entries.get(realm.id);
  if (cached) {
    // Unchanged since the last proof (nothing but this process's events can have added people):
    // no need to read the count again.
    const version = tableVersion(ctx.db, 'users');
    if (version !== null && version === cached.proved) return cached;
    const now = await fingerprint(ctx, realm.id);
    if (now.count === cached.count && now.maxId === cached.maxId) {
      cached.proved = version;
      return cached;
    }
    state.entries.delete(realm.id);
  }
  const generation = state.generations.get(realm.id) ?? 0;
  const version = tableVersion(ctx.db, 'users');
  const entry = await build(ctx, realm);
  entry.proved = version;
  if ((state.generations.get(realm.id) ?? 0) === generation) state.entries.set(realm.id, entry);
  return entry;
}

/** One list joined for readers of one role, with where each address (or null) stands in it. */
interface Joined {
  json: string;
  /** the same as UTF-8, made at first use */
  bytes?: Buffer;
  slots: Map<number, { at: number; shown: boolean; address: string }>;
  /**
   * Where the text is cut into pieces for compression, between two people (offsets in `json`,
   * 0 and its length included): a reader whose own address differs from what the others see
   * has only the piece holding it compressed again.
   */
  cuts: number[];
  /** each piece between cuts, deflated (domain/deflate-pieces.ts), made at first use */
  deflated?: Promise<Buffer[]>;
}

/** About how long a piece is: 256 KB of text compresses in ~1 ms at level 1. */
const PIECE = 256 * 1024;

function join(pieces: UserPieces[], role: number): Joined {
  // A reader of this role who is none of these people: each reader's own entry is fixed after.
  const reader = { id: -1, role };
  const parts: string[] = ['['];
  const slots: Joined['slots'] = new Map();
  const cuts = [0];
  let length = 1;
  pieces.forEach((p, i) => {
    const shown = mayReadDeliveryEmail(reader, p.user);
    const value = shown ? p.address : 'null';
    const head = i ? `,${p.head}` : p.head;
    slots.set(p.user.id, { at: length + head.length, shown, address: p.address });
    parts.push(head, value, p.tail);
    length += head.length + value.length + p.tail.length;
    if (length - cuts[cuts.length - 1] >= PIECE) cuts.push(length);
  });
  parts.push(']');
  length += 1;
  if (cuts[cuts.length - 1] !== length) cuts.push(length);
  return { json: parts.join(''), slots, cuts };
}

/** The text between cuts `k` and `k + 1` (cuts fall between people: never in a character). */
const pieceText = (joined: Joined, k: number) =>
  joined.json.slice(joined.cuts[k], joined.cuts[k + 1]);

function deflatedPieces(joined: Joined): Promise<Buffer[]> {
  if (!joined.deflated) {
    const made = Promise.all(
      joined.cuts.slice(0, -1).map((_, k) => deflatePiece(Buffer.from(pieceText(joined, k)))),
    );
    joined.deflated = made;
    // A failure is not kept: the next answer tries again.
    made.catch(() => joined.deflated === made && (joined.deflated = undefined));
  }
  return joined.deflated;
}

/** The pieces with the reader's own address where the others see null. */
async function deflatedWithAddress(joined: Joined, at: number, address: string): Promise<Buffer[]> {
  const shared = await deflatedPieces(joined);
  const k = joined.cuts.findIndex((cut, i) => cut <= at && at < joined.cuts[i + 1]);
  const piece = pieceText(joined, k);
  const within = at - joined.cuts[k];
  const text = piece.slice(0, within) + address + piece.slice(within + 'null'.length);
  const own = await deflatePiece(Buffer.from(text));
  return shared.map((piece, i) => (i === k ? own : piece));
}

function listFor(entry: Entry, which: 'active' | 'inactive', viewer: User): RawJson {
  const key = `${which}:${viewer.role}`;
  let joined = entry.joined.get(key);
  if (!joined) entry.joined.set(key, (joined = join(entry[which], viewer.role)));
  const own = joined.slots.get(viewer.id);
  const list = joined;
  if (!own || own.shown)
    return new RawJson(joined.json, (joined.bytes ??= Buffer.from(joined.json)), () =>
      deflatedPieces(list),
    );
  return new RawJson(
    joined.json.slice(0, own.at) + own.address + joined.json.slice(own.at + 'null'.length),
    undefined,
    () => deflatedWithAddress(list, own.at, own.address),
  );
}

/** realm_users and realm_non_active_users as `viewer` sees them. */
export async function realmUsersFor(ctx: AppContext, realm: Realm, viewer: User) {
  const entry = await entryFor(ctx, realm);
  return {
    realm_users: listFor(entry, 'active', viewer),
    realm_non_active_users: listFor(entry, 'inactive', viewer),
  };
}
