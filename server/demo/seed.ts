import { inOneTransaction, type AppContext } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { FLAG_BITS } from '../domain/flags.js';
import { ROLE } from '../domain/roles.js';
import { createRealm } from '../actions/realm.js';
import { realmSettings } from '../lib/realm.js';
import { createUser } from '../actions/users.js';
import { insertStream } from '../actions/create-stream.js';
import { subscribeUsersToStreams } from '../actions/subscriptions.js';
import { sendMessage } from '../actions/send-message.js';
import { SCRIPTED, CHATTER_TOPICS, CHATTER_LINES, DIRECT } from './script.js';

export const DEMO_USERS = [
  { email: 'desdemona@example.com', name: 'Desdemona', role: ROLE.OWNER, tz: 'Europe/Rome' },
  { email: 'iago@example.com', name: 'Iago', role: ROLE.ADMINISTRATOR, tz: 'Europe/Rome' },
  { email: 'shiva@example.com', name: 'Shiva', role: ROLE.MODERATOR, tz: 'Asia/Kolkata' },
  { email: 'hamlet@example.com', name: 'King Hamlet', role: ROLE.MEMBER, tz: 'Europe/Copenhagen' },
  {
    email: 'othello@example.com',
    name: 'Othello, the Moor of Venice',
    role: ROLE.MEMBER,
    tz: 'Europe/Rome',
  },
  {
    email: 'cordelia@example.com',
    name: "Cordelia, Lear's daughter",
    role: ROLE.MEMBER,
    tz: 'Europe/London',
  },
  { email: 'polonius@example.com', name: 'Polonius', role: ROLE.GUEST, tz: 'Europe/Copenhagen' },
];

export const DEMO_STREAMS = [
  { name: 'general', description: 'Everyone is here. Say hello!', default: true },
  { name: 'engineering', description: 'Building **Parley**: code, reviews and releases' },
  { name: 'design', description: 'Private: mockups and critique', invite_only: true },
  { name: 'announce', description: 'Announcements from the administrators', post_policy: 2 },
  { name: 'welcome', description: 'Public to the web: read without an account', web_public: true },
];

/**
 * Seeds "Parley Demo" into an empty database, in one transaction: a process stopped halfway
 * leaves nothing, and the next start seeds it whole. Returns false when an organization exists
 * (or another process, sharing a PostgreSQL database, seeded it meanwhile).
 */
export async function seedDemo(ctx: AppContext, password: string): Promise<boolean> {
  if (await organizationExists(ctx)) return false;
  try {
    return await inOneTransaction(ctx, (joined) => seedInto(joined, password));
  } catch (error) {
    if (await organizationExists(ctx)) return false;
    throw error;
  }
}

async function organizationExists(ctx: AppContext): Promise<boolean> {
  return !!(await ctx.db.selectFrom('realms').select('id').executeTakeFirst());
}

/** `ctx`: a context whose writes join one transaction (inOneTransaction). */
async function seedInto(ctx: AppContext, password: string): Promise<boolean> {
  if (await organizationExists(ctx)) return false;
  const realm = await createRealm(ctx.db, {
    stringId: '',
    name: 'Parley Demo',
    description: 'A demo organization for Parley, the team chat.',
    settings: { enable_spectator_access: true },
  });
  const users = new Map<string, User>();
  for (const u of DEMO_USERS) {
    users.set(
      u.email.split('@')[0],
      await createUser(ctx, realm, {
        email: u.email,
        fullName: u.name,
        password,
        role: u.role,
        timezone: u.tz,
        defaultStreams: false,
      }),
    );
  }
  const hamlet = users.get('hamlet')!;
  const bot = await createUser(ctx, realm, {
    email: 'hamlet-bot@parley.bots',
    fullName: 'Elsinore Bot',
    password: null,
    isBot: true,
    botType: 1,
    botOwnerId: hamlet.id,
    defaultStreams: false,
  });
  users.set('bot', bot);

  const streams = new Map<string, number>();
  for (const s of DEMO_STREAMS) {
    const stream = await insertStream(ctx.db, realm, {
      name: s.name,
      description: s.description,
      invite_only: s.invite_only,
      is_web_public: s.web_public,
      stream_post_policy: s.post_policy ?? 1,
      creatorId: users.get('desdemona')!.id,
    });
    streams.set(s.name, stream.id);
    if (s.default)
      await ctx.db
        .insertInto('default_streams')
        .values({ realm_id: realm.id, stream_id: stream.id })
        .execute();
  }
  const everyone = [...users.values()].map((u) => u.id);
  const members = [...users.values()].filter((u) => u.role !== ROLE.GUEST).map((u) => u.id);
  const designers = ['desdemona', 'iago', 'hamlet', 'cordelia'].map((n) => users.get(n)!.id);
  // Nobody has a queue yet: the subscriptions' events would reach no one.
  const none: never[] = [];
  await subscribeUsersToStreams(
    ctx,
    ctx.db,
    realm,
    everyone,
    [streams.get('general')!, streams.get('welcome')!],
    none,
  );
  await subscribeUsersToStreams(
    ctx,
    ctx.db,
    realm,
    members,
    [streams.get('engineering')!, streams.get('announce')!],
    none,
  );
  await subscribeUsersToStreams(ctx, ctx.db, realm, designers, [streams.get('design')!], none);

  await seedMessages(ctx, realm, users);
  void realmSettings;
  return true;
}

async function seedMessages(ctx: AppContext, realm: Realm, users: Map<string, User>) {
  const send = async (
    sender: string,
    to: { stream: string; topic: string } | { dm: string[] },
    content: string,
  ) => {
    const u = users.get(sender)!;
    const recipient =
      'stream' in to
        ? { type: 'stream' as const, streamName: to.stream, topic: to.topic }
        : { type: 'direct' as const, emails: to.dm.map((n) => users.get(n)!.email) };
    const res = await sendMessage(ctx, realm, u, {
      recipient,
      content,
      client: 'website',
      history: true,
    });
    return res.id as number;
  };
  const ids: number[] = [];
  // Background chatter first, so the scripted conversations are the newest.
  const talkers = ['desdemona', 'iago', 'shiva', 'othello', 'cordelia', 'hamlet'];
  const designTalkers = ['desdemona', 'iago', 'cordelia', 'hamlet'];
  let n = 0;
  for (const [stream, topic] of CHATTER_TOPICS) {
    for (let i = 0; i < 26; i++, n++) {
      const line = CHATTER_LINES[(n * 7 + i) % CHATTER_LINES.length];
      const pool = stream === 'design' ? designTalkers : talkers;
      ids.push(await send(pool[(n + i) % pool.length], { stream, topic }, line));
    }
  }
  const readUpTo = ids[ids.length - 1];
  for (const m of DIRECT) ids.push(await send(m.from, { dm: m.to }, m.content));
  for (const m of SCRIPTED)
    ids.push(await send(m.from, { stream: m.stream, topic: m.topic }, m.content));

  // Spread the history over the past two weeks, oldest first.
  const now = Math.floor(Date.now() / 1000);
  const step = Math.floor((14 * 86400) / ids.length);
  for (let i = 0; i < ids.length; i++) {
    await ctx.db
      .updateTable('messages')
      .set({ date_sent: now - (ids.length - i) * step })
      .where('id', '=', ids[i])
      .execute();
  }
  // Everyone has read the chatter; the newest conversations stay unread, and hamlet starred a few.
  await ctx.db
    .updateTable('user_messages')
    .set((eb) => ({ flags: eb('flags', '|', FLAG_BITS.read) }))
    .where('message_id', '<=', readUpTo)
    .execute();
  const hamlet = users.get('hamlet')!;
  for (const id of [ids[3], ids[40], ids[ids.length - 5]]) {
    await ctx.db
      .updateTable('user_messages')
      .set((eb) => ({ flags: eb('flags', '|', FLAG_BITS.starred) }))
      .where('user_id', '=', hamlet.id)
      .where('message_id', '=', id)
      .execute();
  }
}
