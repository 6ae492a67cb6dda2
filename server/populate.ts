/**
 * `npm run manage -- populate`: fills the configured database's organization with a realistic
 * amount of people, channels and history, as if the messages had been sent: every message has
 * its rendered HTML and a user_messages row per recipient with the flags sending would give it
 * (the sender's own copy read), reactions and stars where asked. One channel is large (most of
 * the messages), the rest are spread over many channels, topics and direct conversations.
 *
 * The server must be stopped. Rows are written in large transactions through the database
 * drivers directly: a million messages take about a minute on SQLite.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/index.js';
import { createRealm } from './actions/realm.js';
import { STREAM_COLORS } from './actions/subscriptions.js';
import { hashPassword } from './domain/password.js';
import { FLAG_BITS } from './domain/flags.js';
import { PRIVATE_MESSAGE_BIT } from './db/flag-conditions.js';
import { indexNewMessages, optimizeNewMessages, registerSearchFunctions } from './db/search.js';
import { ROLE } from './domain/roles.js';
import { emojiCodeForName } from './markdown/emoji.js';

export interface PopulateOptions {
  users: number;
  channels: number;
  messages: number;
  /** subscribers of the large first channel (the person given by unreadFor among them) */
  largeChannelSubscribers: number;
  /** channels each person is in besides the large one */
  channelsPerUser: number;
  unreadFor: string | null;
  unread: number;
  /** reactions, spread over random messages */
  reactions: number;
  /** starred messages of the unreadFor person (or of random people without one) */
  stars: number;
  days: number;
  seed: number;
  password: string;
  /** string id of the organization; the first one when not given */
  realm: string | null;
}

export const POPULATE_DEFAULTS: PopulateOptions = {
  users: 100,
  channels: 20,
  messages: 10_000,
  largeChannelSubscribers: 8,
  channelsPerUser: 2,
  unreadFor: null,
  unread: 0,
  reactions: 0,
  stars: 0,
  days: 365,
  seed: 1,
  password: 'parley-demo',
  realm: null,
};

/** Shares of the messages: the large channel, the other channels, direct messages. */
const LARGE_SHARE = 0.75;
const DM_SHARE = 0.1;
const TOPICS_LARGE = 2_000;
const TOPICS_OTHER = 25;
const BATCH = 5_000;

const FIRST_NAMES = [
  'Ada', 'Ben', 'Chiara', 'Dmitri', 'Elif', 'Farah', 'Goran', 'Hana', 'Ines', 'Jonas', 'Kenji',
  'Lena', 'Marek', 'Nadia', 'Omar', 'Priya', 'Quentin', 'Rosa', 'Sven', 'Tariq', 'Uma', 'Viktor',
  'Wen', 'Xavier', 'Yara', 'Zeno',
]; // prettier-ignore
const LAST_NAMES = [
  'Abara', 'Berg', 'Castillo', 'Dubois', 'Eriksen', 'Fischer', 'Gallo', 'Horvat', 'Ito', 'Jansen',
  'Kowalski', 'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Quispe', 'Rossi', 'Sato',
  'Tanaka', 'Ulloa', 'Varga', 'Weber', 'Xu', 'Yilmaz', 'Zhang',
]; // prettier-ignore
const WORDS = [
  'release', 'build', 'deploy', 'review', 'design', 'meeting', 'lunch', 'roadmap', 'bug', 'fix',
  'server', 'client', 'database', 'index', 'query', 'latency', 'budget', 'hiring', 'offsite',
  'customer', 'support', 'ticket', 'metrics', 'dashboard', 'migration', 'schema', 'cache', 'queue',
  'search', 'mobile', 'desktop', 'browser', 'token', 'login', 'password', 'invoice', 'contract',
  'launch', 'beta', 'feedback', 'survey', 'notes', 'agenda', 'standup', 'retro', 'sprint', 'plan',
  'draft', 'proposal', 'the', 'a', 'we', 'should', 'could', 'maybe', 'today', 'tomorrow', 'after',
  'before', 'looks', 'good', 'thanks', 'agreed', 'done', 'pending', 'blocked', 'on', 'with', 'for',
]; // prettier-ignore
const REACTIONS = ['+1', 'heart', 'tada', 'smile', 'eyes', 'rocket', 'check'].map((name) => ({
  name,
  code: emojiCodeForName(name)!,
}));

/** A small, fast, seedable generator (mulberry32), so that a seed gives the same organization. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A message's text and its HTML. The words are plain lower-case letters, so the rendered form is
 * a single escaped-free paragraph, exactly what the Markdown renderer gives for them (a test
 * checks this against the renderer).
 */
export function sentence(random: () => number): { content: string; rendered: string } {
  const count = 3 + Math.floor(random() * 14);
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(WORDS[Math.floor(random() * WORDS.length)]);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  const content = `${words.join(' ')}.`;
  return { content, rendered: `<p>${content}</p>` };
}

export function topicName(channelIndex: number, topicIndex: number): string {
  return channelIndex === 0 && topicIndex === 0
    ? 'general chat'
    : `${WORDS[topicIndex % 49]} ${WORDS[(topicIndex * 7 + channelIndex) % 49]} ${topicIndex}`;
}

interface Table {
  name: string;
  columns: string[];
  /** PostgreSQL array types of the columns, for unnest() */
  pgTypes: string[];
}

const TABLES = {
  users: {
    name: 'users',
    columns: ['id', 'realm_id', 'email', 'delivery_email', 'full_name', 'password_hash', 'api_key',
      'role', 'is_bot', 'is_active', 'date_joined', 'timezone', 'avatar_version', 'settings'],
    pgTypes: ['int', 'int', 'text', 'text', 'text', 'text', 'text', 'int', 'int', 'int', 'bigint',
      'text', 'int', 'text'],
  },
  streams: {
    name: 'streams',
    columns: ['id', 'realm_id', 'name', 'description', 'rendered_description', 'invite_only',
      'is_web_public', 'history_public_to_subscribers', 'stream_post_policy', 'date_created',
      'can_remove_subscribers_group', 'creator_id', 'deactivated'],
    pgTypes: ['int', 'int', 'text', 'text', 'text', 'int', 'int', 'int', 'int', 'bigint', 'int',
      'int', 'int'],
  },
  subscriptions: {
    name: 'subscriptions',
    columns: ['user_id', 'stream_id', 'active', 'color', 'is_muted', 'pin_to_top'],
    pgTypes: ['int', 'int', 'int', 'text', 'int', 'int'],
  },
  messages: {
    name: 'messages',
    columns: ['id', 'realm_id', 'sender_id', 'type', 'stream_id', 'topic', 'topic_key', 'dm_key',
      'content', 'rendered_content', 'date_sent', 'sending_client'],
    pgTypes: ['int', 'int', 'int', 'text', 'int', 'text', 'text', 'text', 'text', 'text', 'bigint',
      'text'],
  },
  userMessages: {
    name: 'user_messages',
    columns: ['user_id', 'message_id', 'flags'],
    pgTypes: ['int', 'int', 'int'],
  },
  reactions: {
    name: 'reactions',
    columns: ['message_id', 'user_id', 'emoji_name', 'emoji_code', 'reaction_type'],
    pgTypes: ['int', 'int', 'text', 'text', 'text'],
  },
} satisfies Record<string, Table>; // prettier-ignore

type Row = (string | number | null)[];

/** Where rows go: buffered, written in batches, inside one transaction per phase. */
interface Writer {
  add(table: Table, row: Row): Promise<void>;
  /** writes what is buffered and commits the phase */
  commit(): Promise<void>;
  run(sql: string, params?: unknown[]): Promise<void>;
  one<T>(sql: string, params?: unknown[]): Promise<T | undefined>;
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * indexes the messages of an id range for search, in the open phase, and after the last range
   * merges the index (PostgreSQL: the column is computed as rows are written)
   */
  indexSearch(firstId: number, lastId: number, last: boolean): Promise<void>;
  close(): Promise<void>;
}

function sqliteWriter(file: string): Writer {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('cache_size = -262144');
  // New messages are indexed for search a batch at a time (indexSearch), not one by one.
  registerSearchFunctions(sqlite, { eachRow: false });
  const statements = new Map<string, SQLite.Statement>();
  const statement = (table: Table) => {
    let s = statements.get(table.name);
    if (!s) {
      s = sqlite.prepare(
        `INSERT INTO ${table.name} (${table.columns.join(', ')}) VALUES (${table.columns.map(() => '?').join(', ')})`,
      );
      statements.set(table.name, s);
    }
    return s;
  };
  let open = false;
  const begin = () => {
    if (!open) sqlite.exec('BEGIN');
    open = true;
  };
  return {
    async add(table, row) {
      begin();
      statement(table).run(row);
    },
    async commit() {
      if (open) sqlite.exec('COMMIT');
      open = false;
    },
    async run(sql, params = []) {
      sqlite.prepare(sql).run(params);
    },
    async one(sql, params = []) {
      return sqlite.prepare(sql).get(params) as never;
    },
    async all(sql, params = []) {
      return sqlite.prepare(sql).all(params) as never;
    },
    async indexSearch(firstId, lastId, last) {
      begin();
      indexNewMessages(sqlite, firstId, lastId);
      if (last) optimizeNewMessages(sqlite);
    },
    async close() {
      if (open) sqlite.exec('ROLLBACK');
      sqlite.close();
    },
  };
}

async function postgresWriter(url: string): Promise<Writer> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  pg.types.setTypeParser(20, (v) => Number(v));
  const buffers = new Map<Table, Row[]>();
  let open = false;
  const begin = async () => {
    if (!open) await client.query('BEGIN');
    open = true;
  };
  const flush = async (table: Table, rows: Row[]) => {
    if (!rows.length) return;
    const columns = table.columns.map((_, i) => rows.map((r) => r[i]));
    const unnest = table.pgTypes.map((t, i) => `$${i + 1}::${t}[]`).join(', ');
    await client.query(
      `INSERT INTO ${table.name} (${table.columns.join(', ')}) SELECT * FROM unnest(${unnest})`,
      columns,
    );
  };
  const flushAll = async () => {
    for (const [table, rows] of buffers) {
      buffers.set(table, []);
      await flush(table, rows);
    }
  };
  return {
    async add(table, row) {
      await begin();
      let rows = buffers.get(table);
      if (!rows) buffers.set(table, (rows = []));
      rows.push(row);
      // Everything buffered goes out together, parents (added first) before their children.
      if (rows.length >= BATCH) await flushAll();
    },
    async commit() {
      await flushAll();
      if (open) await client.query('COMMIT');
      open = false;
    },
    async run(sql, params = []) {
      await client.query(toPg(sql), params);
    },
    async one(sql, params = []) {
      return (await client.query(toPg(sql), params)).rows[0];
    },
    async all(sql, params = []) {
      return (await client.query(toPg(sql), params)).rows;
    },
    // The search column is generated as each row is written.
    async indexSearch() {},
    async close() {
      if (open) await client.query('ROLLBACK');
      await client.end();
    },
  };
}

/** `?` placeholders as PostgreSQL's `$n`. */
function toPg(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export interface PopulateResult {
  realmId: number;
  /** the first person created, an administrator (owner of a new organization) */
  adminEmail: string;
  users: number;
  channels: number;
  messages: number;
  userMessages: number;
  unreadFor: { email: string; unread: number } | null;
  seconds: number;
}

/**
 * Populates the organization. `handle` is the migrated database (used for the organization
 * itself); the rows are written through a direct connection of the same database.
 */
export async function populate(
  handle: DatabaseHandle,
  config: Config,
  options: PopulateOptions,
  log: (line: string) => void = () => {},
): Promise<PopulateResult> {
  const started = Date.now();
  validate(options);
  const realm = await populatedRealm(handle, options.realm);
  const writer =
    handle.dialect === 'postgres'
      ? await postgresWriter(config.databaseUrl!)
      : sqliteWriter(path.join(config.dataDir, 'parley.sqlite3'));
  try {
    return await fill(writer, handle.dialect, realm.id, options, log, started);
  } finally {
    await writer.close();
  }
}

function validate(o: PopulateOptions) {
  const counts: [string, number][] = [
    ['users', o.users],
    ['channels', o.channels],
    ['messages', o.messages],
    ['unread', o.unread],
    ['reactions', o.reactions],
    ['stars', o.stars],
    ['large-channel-subscribers', o.largeChannelSubscribers],
    ['channels-per-user', o.channelsPerUser],
  ];
  for (const [name, n] of counts)
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number >= 0`);
  if (o.users < 2) throw new Error('--users must be at least 2');
  if (o.channels < 1) throw new Error('--channels must be at least 1');
  if (o.unread > 0 && !o.unreadFor) throw new Error('--unread needs --unread-for EMAIL');
  if (!(o.days > 0)) throw new Error('--days must be positive');
}

async function populatedRealm(handle: DatabaseHandle, stringId: string | null) {
  let q = handle.db.selectFrom('realms').selectAll();
  q = stringId !== null ? q.where('string_id', '=', stringId) : q.orderBy('id').limit(1);
  const existing = await q.executeTakeFirst();
  if (existing) return existing;
  if (stringId !== null) throw new Error(`No organization "${stringId}"`);
  return createRealm(handle.db, { stringId: '', name: 'Populated organization' });
}

/** What the steps of fill share: the one random source (so a seed gives the same rows) and the ids. */
interface Fill {
  w: Writer;
  realmId: number;
  o: PopulateOptions;
  log: (line: string) => void;
  random: () => number;
  pick: <T>(list: readonly T[]) => T;
  now: number;
  adminEmail: string;
  /** the person given by --unread-for */
  unreadUser: number | null;
  userIds: number[];
  channels: Channel[];
}

interface Channel {
  id: number;
  subscribers: number[];
}

/** What the messages step leaves for the unread, star and reaction steps. */
interface History {
  messageStart: number;
  /** each message's recipients, by its index */
  recipients: number[][];
  /** the unread person's messages from others, oldest first */
  unreadUserMessages: number[];
  userMessages: number;
}

async function fill(
  w: Writer,
  dialect: 'sqlite' | 'postgres',
  realmId: number,
  o: PopulateOptions,
  log: (line: string) => void,
  started: number,
): Promise<PopulateResult> {
  const random = randomSource(o.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const now = Math.floor(Date.now() / 1000);
  const adminGroup = await w.one<{ id: number }>(
    `SELECT id FROM user_groups WHERE realm_id = ? AND name = 'role:administrators' AND is_system_group = 1`,
    [realmId],
  );
  const firstUserId = await nextId(w, 'users');
  const adminEmail = await newAdminEmail(w, realmId, firstUserId);
  const s: Fill = {
    w,
    realmId,
    o,
    log,
    random,
    pick,
    now,
    adminEmail,
    unreadUser: null,
    userIds: [],
    channels: [],
  };
  s.unreadUser = await findUnreadUser(s, firstUserId);
  const hasOwner = await w.one<{ id: number }>(
    'SELECT id FROM users WHERE realm_id = ? AND role = ? AND is_active = 1',
    [realmId, ROLE.OWNER],
  );
  s.userIds = await addPeople(s, firstUserId, !!hasOwner);
  s.channels = await addChannels(s, adminGroup?.id ?? null);
  await addSubscriptions(s);
  const history = await addMessages(s);
  const unreadCount = await markUnread(s, history);
  await addStars(s, history);
  await addReactions(s, history);
  await finish(w, dialect);
  return {
    realmId,
    adminEmail,
    users: o.users,
    channels: o.channels,
    messages: o.messages,
    userMessages: history.userMessages,
    unreadFor: o.unreadFor ? { email: o.unreadFor, unread: unreadCount } : null,
    seconds: (Date.now() - started) / 1000,
  };
}

async function nextId(w: Writer, table: string): Promise<number> {
  return ((await w.one<{ id: number | null }>(`SELECT MAX(id) AS id FROM ${table}`))?.id ?? 0) + 1;
}

/** Addresses carry the new id, so that a second run adds people beside the first run's. */
async function newAdminEmail(w: Writer, realmId: number, firstUserId: number): Promise<string> {
  const adminTaken = await w.one<{ id: number }>(
    "SELECT id FROM users WHERE realm_id = ? AND delivery_email = 'admin@populated.example'",
    [realmId],
  );
  return adminTaken ? `admin${firstUserId}@populated.example` : 'admin@populated.example';
}

/** The person with unread messages: checked before anything is written. */
async function findUnreadUser({ w, realmId, o, adminEmail }: Fill, firstUserId: number) {
  if (!o.unreadFor) return null;
  const email = o.unreadFor.toLowerCase();
  const row = await w.one<{ id: number }>(
    'SELECT id FROM users WHERE realm_id = ? AND delivery_email = ?',
    [realmId, email],
  );
  if (row) return row.id;
  if (email === adminEmail) return firstUserId;
  throw new Error(`No user ${o.unreadFor} in the organization (nor ${adminEmail}, created here)`);
}

/**
 * People: one password hash for all (hashing ten thousand times would take minutes). The first
 * is an administrator (the owner, in an organization that has none yet).
 */
async function addPeople(s: Fill, firstUserId: number, hasOwner: boolean): Promise<number[]> {
  const { w, realmId, o, now } = s;
  const hash = await hashPassword(o.password);
  const userIds: number[] = [];
  let userId = firstUserId;
  for (let i = 0; i < o.users; i++) {
    const first = FIRST_NAMES[i % FIRST_NAMES.length];
    const last = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length];
    const n = Math.floor(i / (FIRST_NAMES.length * LAST_NAMES.length));
    const name = n ? `${first} ${last} ${n + 1}` : `${first} ${last}`;
    const email =
      i === 0 ? s.adminEmail : `${first}.${last}.${userId}@populated.example`.toLowerCase();
    const adminRole = hasOwner ? ROLE.ADMINISTRATOR : ROLE.OWNER;
    const role = i === 0 ? adminRole : i % 50 === 1 ? ROLE.GUEST : ROLE.MEMBER;
    await w.add(TABLES.users, [
      userId, realmId, email, email, name, hash, crypto.randomBytes(16).toString('hex'), role,
      0, 1, now - o.days * 86400, '', 1, '{}',
    ]); // prettier-ignore
    userIds.push(userId++);
  }
  await w.commit();
  s.log(`${o.users} people`);
  return userIds;
}

/** Channels: the first is the large one. Written with their subscriptions, in one phase. */
async function addChannels(s: Fill, adminGroupId: number | null): Promise<Channel[]> {
  const { w, realmId, o, now } = s;
  let streamId = await nextId(w, 'streams');
  const channels: Channel[] = [];
  const taken = new Set(
    (await w.all<{ name: string }>('SELECT name FROM streams WHERE realm_id = ?', [realmId])).map(
      (r) => r.name.toLowerCase(),
    ),
  );
  for (let i = 0; i < o.channels; i++) {
    let name = i === 0 ? 'firehose' : `${WORDS[i % 49]}-${WORDS[(i * 11) % 49]}-${i}`;
    while (taken.has(name.toLowerCase())) name += '-p';
    taken.add(name.toLowerCase());
    const description = i === 0 ? 'The busiest channel: most of the history is here' : '';
    await w.add(TABLES.streams, [
      streamId, realmId, name, description, description ? `<p>${description}</p>` : '', 0, 0, 1,
      1, now - o.days * 86400, adminGroupId, s.userIds[0], 0,
    ]); // prettier-ignore
    channels.push({ id: streamId++, subscribers: [] });
  }
  return channels;
}

/** Subscriptions: a few people in the large channel, everyone in a few others. */
async function addSubscriptions({ w, o, log, pick, unreadUser, userIds, channels }: Fill) {
  const large = channels[0];
  const largeMembers = new Set<number>(
    userIds.slice(0, Math.min(o.largeChannelSubscribers, o.users)),
  );
  if (unreadUser !== null) largeMembers.add(unreadUser);
  large.subscribers = [...largeMembers];
  const others = channels.slice(1);
  for (const user of userIds) {
    const chosen = new Set<Channel>();
    for (let k = 0; k < Math.min(o.channelsPerUser, others.length); k++) chosen.add(pick(others));
    for (const channel of chosen) channel.subscribers.push(user);
  }
  if (unreadUser !== null && !userIds.includes(unreadUser) && others.length)
    others[0].subscribers.push(unreadUser);
  for (const channel of channels) {
    for (const user of channel.subscribers) {
      const color = STREAM_COLORS[(channel.id + user) % STREAM_COLORS.length];
      await w.add(TABLES.subscriptions, [user, channel.id, 1, color, 0, 0]);
    }
  }
  // Channels nobody was given get one subscriber, so every channel can have messages.
  for (const channel of channels)
    if (channel.subscribers.length === 0) {
      const user = pick(userIds);
      channel.subscribers.push(user);
      await w.add(TABLES.subscriptions, [user, channel.id, 1, STREAM_COLORS[0], 0, 0]);
    }
  await w.commit();
  log(`${o.channels} channels`);
}

/** Messages, oldest first, with one user_messages row per recipient. */
async function addMessages(s: Fill): Promise<History> {
  const { w, o, unreadUser } = s;
  const messageStart = await nextId(w, 'messages');
  const firstTime = s.now - o.days * 86400;
  const span = o.days * 86400;
  // The unread person's messages are counted on the way, to mark the newest of them unread.
  const history: History = {
    messageStart,
    recipients: [],
    unreadUserMessages: [],
    userMessages: 0,
  };
  let indexedTo = messageStart - 1;
  for (let i = 0; i < o.messages; i++) {
    const id = messageStart + i;
    const time = firstTime + Math.floor((i * span) / Math.max(1, o.messages));
    const { sender, members, flags } = await addMessage(s, id, time);
    for (const member of members) {
      await w.add(TABLES.userMessages, [member, id, flags]);
      history.userMessages++;
    }
    if (unreadUser !== null && members.includes(unreadUser) && sender !== unreadUser)
      history.unreadUserMessages.push(id);
    history.recipients.push(members);
    if ((i + 1) % 100_000 === 0) {
      // Each batch is searchable when it commits.
      await w.indexSearch(indexedTo + 1, id, false);
      indexedTo = id;
      await w.commit();
      s.log(`${i + 1} messages`);
    }
  }
  if (o.messages > 0) await w.indexSearch(indexedTo + 1, messageStart + o.messages - 1, true);
  await w.commit();
  return history;
}

/** One message, direct or to a channel; its recipients and the flags of their copies. */
async function addMessage(s: Fill, id: number, time: number) {
  const { w, realmId, random, pick, unreadUser, userIds, channels } = s;
  const { content, rendered } = sentence(random);
  const roll = random();
  const otherChannels = channels.length - 1;
  let sender: number;
  let members: number[];
  if (roll < DM_SHARE || channels.length === 0) {
    sender = pick(userIds);
    let other = pick(userIds);
    if (other === sender) other = userIds[(userIds.indexOf(sender) + 1) % userIds.length];
    if (unreadUser !== null && random() < 0.2) other = unreadUser;
    if (other === sender) other = userIds[(userIds.indexOf(sender) + 1) % userIds.length];
    members = [sender, other].sort((a, b) => a - b);
    await w.add(TABLES.messages, [
      id, realmId, sender, 'private', null, '', '', members.join(','), content, rendered, time,
      'populate',
    ]); // prettier-ignore
  } else {
    const channelIndex =
      roll < DM_SHARE + LARGE_SHARE || otherChannels === 0
        ? 0
        : 1 + Math.floor(random() * otherChannels);
    const channel = channels[channelIndex];
    members = channel.subscribers;
    sender = pick(members);
    const topicCount = channelIndex === 0 ? TOPICS_LARGE : TOPICS_OTHER;
    // Recent topics are busier: a skewed pick.
    const topic = topicName(channelIndex, Math.floor(random() * random() * topicCount));
    await w.add(TABLES.messages, [
      id, realmId, sender, 'stream', channel.id, topic, topic.toLowerCase(), null, content,
      rendered, time, 'populate',
    ]); // prettier-ignore
  }
  const flags =
    roll < DM_SHARE || channels.length === 0
      ? FLAG_BITS.read | PRIVATE_MESSAGE_BIT
      : FLAG_BITS.read;
  return { sender, members, flags };
}

/** Unread: the newest N of the person's messages (from others) lose the read flag. */
async function markUnread({ w, o, log, unreadUser }: Fill, history: History): Promise<number> {
  if (unreadUser === null || o.unread <= 0) return 0;
  const unread = history.unreadUserMessages.slice(-o.unread);
  await updateFlags(w, unreadUser, unread, `flags & ~${FLAG_BITS.read}`);
  if (unread.length < o.unread)
    log(`only ${unread.length} messages reach ${o.unreadFor}: all of them are unread`);
  return unread.length;
}

/** Stars on random messages, by the unread person or else by one of their recipients. */
async function addStars({ w, o, random, pick, unreadUser }: Fill, history: History) {
  if (o.stars <= 0) return;
  const { messageStart, recipients } = history;
  const starred = new Set<number>();
  for (let k = 0; k < o.stars * 4 && starred.size < o.stars; k++) {
    const index = Math.floor(random() * o.messages);
    const user = unreadUser ?? pick(recipients[index]);
    if (!recipients[index].includes(user) || starred.has(messageStart + index)) continue;
    starred.add(messageStart + index);
    await updateFlags(w, user, [messageStart + index], `flags | ${FLAG_BITS.starred}`);
  }
  await w.commit();
}

/** Reactions on random messages by one of their recipients. */
async function addReactions({ w, o, random, pick }: Fill, history: History) {
  const { messageStart, recipients } = history;
  const reacted = new Set<string>();
  for (let k = 0; k < o.reactions * 2 && reacted.size < o.reactions; k++) {
    const index = Math.floor(random() * o.messages);
    const user = pick(recipients[index]);
    const emoji = pick(REACTIONS);
    const key = `${index}:${user}:${emoji.code}`;
    if (reacted.has(key)) continue;
    reacted.add(key);
    await w.add(TABLES.reactions, [
      messageStart + index, user, emoji.name, emoji.code, 'unicode_emoji',
    ]); // prettier-ignore
  }
  await w.commit();
}

/** PostgreSQL's id sequences follow the ids written here; both dialects refresh their statistics. */
async function finish(w: Writer, dialect: 'sqlite' | 'postgres') {
  if (dialect === 'postgres')
    for (const table of ['users', 'streams', 'messages', 'subscriptions'])
      await w.run(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT COALESCE(MAX(id), 1) FROM ${table}))`,
      );
  await w.run('ANALYZE');
}

async function updateFlags(w: Writer, userId: number, messageIds: number[], expression: string) {
  for (let i = 0; i < messageIds.length; i += 500) {
    const chunk = messageIds.slice(i, i + 500);
    await w.run(
      `UPDATE user_messages SET flags = ${expression} WHERE user_id = ? AND message_id IN (${chunk.map(() => '?').join(', ')})`,
      [userId, ...chunk],
    );
  }
}
