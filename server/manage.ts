import { parseArgs } from 'node:util';
import { configFromEnv, type Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db/index.js';
import { Mutex } from './events/lock.js';
import { QueueManager } from './events/manager.js';
import { MemoryBus } from './events/types.js';
import { MemoryLoginAttempts } from './domain/login-attempts.js';
import { createRealm } from './actions/realm.js';
import { createUser, setPassword } from './actions/users.js';
import { ROLE } from './domain/roles.js';
import { insertStream } from './actions/streams.js';
import { populate, POPULATE_DEFAULTS } from './populate.js';

const HELP = `Parley management commands (npm run manage -- <command> [options])

  create-realm   --name NAME --owner-email EMAIL --owner-name NAME --password PW [--string-id ID]
                 Creates an organization with its owner and a "general" default stream.
  create-user    --email EMAIL --full-name NAME --password PW [--role owner|admin|moderator|member|guest] [--realm ID]
  reset-password --email EMAIL --password PW [--realm ID]
  populate       [--users N] [--channels N] [--messages N] [--unread-for EMAIL --unread N]
                 [--reactions N] [--stars N] [--large-channel-subscribers N] [--channels-per-user N]
                 [--days N] [--seed N] [--password PW] [--realm ID]
                 Fills the organization (created if there is none) with people, channels and
                 history as if it had been sent: most messages in one large channel "firehose",
                 the rest over the other channels, topics and direct messages. The server must be
                 stopped. Defaults: 100 people, 20 channels, 10,000 messages, password parley-demo.
  list-users     [--realm ID]
  list-realms

The database is the one the server uses: PARLEY_DATA_DIR (default ./data) or DATABASE_URL.
Changes made while the server runs are stored at once; open clients see them after a reload.`;

const ROLES: Record<string, number> = {
  owner: ROLE.OWNER,
  admin: ROLE.ADMINISTRATOR,
  administrator: ROLE.ADMINISTRATOR,
  moderator: ROLE.MODERATOR,
  member: ROLE.MEMBER,
  guest: ROLE.GUEST,
};

function need(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || !v.trim()) throw new Error(`--${name} is required (see --help)`);
  return v;
}

async function realmFor(ctx: AppContext, stringId: unknown) {
  let q = ctx.db.selectFrom('realms').selectAll();
  q = typeof stringId === 'string' ? q.where('string_id', '=', stringId) : q.orderBy('id').limit(1);
  const realm = await q.executeTakeFirst();
  if (!realm)
    throw new Error(
      typeof stringId === 'string'
        ? `No organization "${stringId}"`
        : 'No organization yet: run create-realm first',
    );
  return realm;
}

export async function runManage(argv: string[], config: Config = configFromEnv()): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP);
    return command ? 0 : 1;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-name': { type: 'string' },
      password: { type: 'string' },
      'string-id': { type: 'string' },
      email: { type: 'string' },
      'full-name': { type: 'string' },
      role: { type: 'string' },
      realm: { type: 'string' },
      users: { type: 'string' },
      channels: { type: 'string' },
      messages: { type: 'string' },
      'unread-for': { type: 'string' },
      unread: { type: 'string' },
      reactions: { type: 'string' },
      stars: { type: 'string' },
      'large-channel-subscribers': { type: 'string' },
      'channels-per-user': { type: 'string' },
      days: { type: 'string' },
      seed: { type: 'string' },
    },
    strict: true,
  });
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    lock: false,
  });
  const ctx: AppContext = {
    db: handle.db,
    dialect: handle.dialect,
    config,
    lock: new Mutex(),
    log: console,
    queues: new QueueManager(new MemoryBus(), 600_000),
    loginAttempts: new MemoryLoginAttempts(config.loginAttempts, config.loginWindowSeconds),
    toDisk: handle.toDisk,
  };
  try {
    switch (command) {
      case 'create-realm': {
        const stringId = (values['string-id'] as string | undefined) ?? '';
        const taken = await ctx.db
          .selectFrom('realms')
          .select('id')
          .where('string_id', '=', stringId)
          .executeTakeFirst();
        if (taken)
          throw new Error(`An organization with string id "${stringId}" exists; pass --string-id`);
        const realm = await createRealm(ctx.db, { stringId, name: need(values, 'name') });
        const owner = await createUser(ctx, realm, {
          email: need(values, 'owner-email'),
          fullName: need(values, 'owner-name'),
          password: need(values, 'password'),
          role: ROLE.OWNER,
        });
        const general = await insertStream(ctx.db, realm, {
          name: 'general',
          description: 'Everyone is here.',
          creatorId: owner.id,
        });
        await ctx.db
          .insertInto('default_streams')
          .values({ realm_id: realm.id, stream_id: general.id })
          .execute();
        await ctx.db
          .insertInto('subscriptions')
          .values({
            user_id: owner.id,
            stream_id: general.id,
            active: 1,
            color: '#76ce90',
            is_muted: 0,
            pin_to_top: 0,
            desktop_notifications: null,
            audible_notifications: null,
            push_notifications: null,
            email_notifications: null,
            wildcard_mentions_notify: null,
          })
          .execute();
        console.log(
          `Created organization "${realm.name}" (id ${realm.id}) with owner ${owner.email}.`,
        );
        return 0;
      }
      case 'create-user': {
        const realm = await realmFor(ctx, values.realm);
        const roleName = ((values.role as string | undefined) ?? 'member').toLowerCase();
        if (!(roleName in ROLES)) throw new Error(`Unknown role "${roleName}"`);
        const user = await createUser(ctx, realm, {
          email: need(values, 'email'),
          fullName: need(values, 'full-name'),
          password: need(values, 'password'),
          role: ROLES[roleName],
        });
        console.log(`Created ${roleName} ${user.email} (id ${user.id}).`);
        return 0;
      }
      case 'reset-password': {
        const realm = await realmFor(ctx, values.realm);
        const email = need(values, 'email').toLowerCase();
        const user = await ctx.db
          .selectFrom('users')
          .select('id')
          .where('realm_id', '=', realm.id)
          .where('email', '=', email)
          .executeTakeFirst();
        if (!user) throw new Error(`No user ${email}`);
        await setPassword(ctx, user.id, need(values, 'password'));
        console.log(`Password of ${email} reset.`);
        return 0;
      }
      case 'populate': {
        const number = (name: string, fallback: number) => {
          const v = (values as Record<string, unknown>)[name];
          if (v === undefined) return fallback;
          const n = Number(
            String(v).replace(/_/g, '').replace(/k$/i, '000').replace(/m$/i, '000000'),
          );
          if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`);
          return n;
        };
        const d = POPULATE_DEFAULTS;
        const result = await populate(
          handle,
          config,
          {
            users: number('users', d.users),
            channels: number('channels', d.channels),
            messages: number('messages', d.messages),
            unreadFor: (values['unread-for'] as string | undefined) ?? null,
            unread: number('unread', d.unread),
            reactions: number('reactions', d.reactions),
            stars: number('stars', d.stars),
            largeChannelSubscribers: number('large-channel-subscribers', d.largeChannelSubscribers),
            channelsPerUser: number('channels-per-user', d.channelsPerUser),
            days: number('days', d.days),
            seed: number('seed', d.seed),
            password: (values.password as string | undefined) ?? d.password,
            realm: (values.realm as string | undefined) ?? null,
          },
          (line) => console.log(`  ${line}`),
        );
        console.log(
          `Populated organization ${result.realmId}: ${result.users} people, ${result.channels} channels, ` +
            `${result.messages} messages (${result.userMessages} recipient rows)` +
            (result.unreadFor
              ? `, ${result.unreadFor.unread} unread for ${result.unreadFor.email}`
              : '') +
            ` in ${result.seconds.toFixed(1)} s. Administrator: ${result.adminEmail}; password of the new people: ${(values.password as string | undefined) ?? d.password}.`,
        );
        return 0;
      }
      case 'list-users': {
        const realm = await realmFor(ctx, values.realm);
        const users = await ctx.db
          .selectFrom('users')
          .select(['id', 'email', 'full_name', 'role', 'is_active', 'is_bot'])
          .where('realm_id', '=', realm.id)
          .orderBy('id')
          .execute();
        for (const u of users)
          console.log(
            `${u.id}\t${u.email}\t${u.full_name}\trole ${u.role}${u.is_bot ? '\tbot' : ''}${u.is_active ? '' : '\tdeactivated'}`,
          );
        return 0;
      }
      case 'list-realms': {
        const realms = await ctx.db.selectFrom('realms').selectAll().orderBy('id').execute();
        for (const r of realms) console.log(`${r.id}\t"${r.string_id}"\t${r.name}`);
        return 0;
      }
      default:
        console.error(`Unknown command "${command}".\n\n${HELP}`);
        return 2;
    }
  } catch (err) {
    console.error(err instanceof Error ? `Error: ${err.message}` : err);
    return 1;
  } finally {
    ctx.queues.close();
    await handle.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runManage(process.argv.slice(2)).then((code) => process.exit(code));
}
