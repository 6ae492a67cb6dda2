import { MemoryRateLimits } from './http/rate-limit-stores.js';
import os from 'node:os';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ConfigError, configFromEnv, fileStoreKind, type Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db/index.js';
import { openFileStore } from './db/file-store.js';
import { openServerKeys } from './db/server-keys.js';
import { DomainError } from './domain/errors.js';
import { MemoryLoginAttempts } from './domain/login-attempts.js';
import { ROLE } from './domain/roles.js';
import { Mutex } from './events/lock.js';
import { QueueManager } from './events/manager.js';
import { MemoryBus } from './events/types.js';
import { createUser, setPassword } from './actions/users.js';
import { backup } from './ops/backup.js';
import { UsageError } from './ops/errors.js';
import { createOrganization, findRealm } from './ops/organizations.js';
import { checkNewPassword, readNewPassword, type Terminal } from './ops/password-input.js';
import { restore } from './ops/restore.js';
import { parleyVersion } from './ops/version.js';
import { populate, POPULATE_DEFAULTS } from './populate.js';

const ROLES: Record<string, number> = {
  owner: ROLE.OWNER,
  admin: ROLE.ADMINISTRATOR,
  administrator: ROLE.ADMINISTRATOR,
  moderator: ROLE.MODERATOR,
  member: ROLE.MEMBER,
  guest: ROLE.GUEST,
};

const ABOUT = `Parley's management commands: npm run manage -- <command> [options]`;

const AFTER = `
Database: the one the server uses, PARLEY_DATA_DIR (default ./data) or DATABASE_URL. Changes
made while the server runs are stored at once; open clients see them after a reload.

Passwords: asked for without echo when standard input is a terminal; otherwise read from the
first line of standard input (--password-stdin, or whenever it is piped). --password PW works
too, but shows the password to every user of the machine (ps) and is warned about.

Organizations: --realm takes an id (as create-realm and list-realms print it) or a string id;
--realm '' is the default organization. Without --realm, the only organization there is.

Exit status: 0 done, 1 failed or refused (a server is running, a directory is not empty...),
2 wrong input (an unknown command or option, a password the server would refuse, an unknown
organization, a file that is not a Parley backup).`;

const realmOption = () =>
  new Option('--realm <id-or-string-id>', 'the organization (default: the only one)');

/** Adds the ways to give a new password to an account-making command. */
const withPassword = (command: Command) =>
  command
    .option('--password-stdin', 'read the password from the first line of standard input')
    .addOption(
      new Option('--password <password>', 'the password (visible to others in ps: avoid)'),
    );

interface PasswordFlags {
  password?: string;
  passwordStdin?: boolean;
}

/**
 * Runs one management command and returns its exit status. `config` defaults to the
 * environment's, read only when a command needs it (so that --help works whatever it holds).
 */
export async function runManage(
  argv: string[],
  config?: Config,
  terminal: Terminal = { stdin: process.stdin, stderr: process.stderr },
): Promise<number> {
  const program = buildProgram(() => config ?? configFromEnv(), terminal);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    console.error(`Error: ${err instanceof Error ? err.message : String(err)}`);
    const wrongInput =
      err instanceof UsageError ||
      err instanceof ConfigError ||
      (err instanceof DomainError && err.httpStatus < 500);
    return wrongInput ? 2 : 1;
  }
}

function buildProgram(config: () => Config, terminal: Terminal): Command {
  const program = new Command('manage')
    .description(ABOUT)
    .version(parleyVersion(), '-V, --version', "print Parley's version")
    .helpOption('-h, --help', 'show the help of manage or of a command')
    .helpCommand('help [command]', 'show the help of a command')
    .addHelpText('after', AFTER)
    .showHelpAfterError('(add --help for the usage)')
    .exitOverride();

  addAccountCommands(program, config, terminal);
  addPopulate(program, config);
  addListCommands(program, config);
  addBackupCommands(program, config);
  return program;
}

/** create-realm, create-user and reset-password: each asks for a password unless given one. */
function addAccountCommands(program: Command, config: () => Config, terminal: Terminal) {
  withPassword(
    program
      .command('create-realm')
      .description('Create an organization with its owner and a "general" default channel.')
      .requiredOption('--name <name>', "the organization's name")
      .requiredOption('--owner-email <email>', "the owner's email address")
      .requiredOption('--owner-name <name>', "the owner's full name")
      .option('--string-id <id>', 'its string id (subdomain); the default organization has ""', ''),
  ).action(
    async (
      o: { name: string; ownerEmail: string; ownerName: string; stringId: string } & PasswordFlags,
    ) => {
      const password = await readNewPassword(o, terminal, o.ownerEmail);
      await withContext(config(), async (ctx) => {
        const { realm, owner } = await createOrganization(ctx, {
          name: o.name,
          stringId: o.stringId,
          owner: { email: o.ownerEmail, fullName: o.ownerName, password },
        });
        console.log(
          `Created organization "${realm.name}" (id ${realm.id}) with owner ${owner.email}.`,
        );
      });
    },
  );

  withPassword(
    program
      .command('create-user')
      .description('Create an account in an organization.')
      .requiredOption('--email <email>', 'the email address they log in with')
      .requiredOption('--full-name <name>', 'their full name')
      .addOption(
        new Option('--role <role>', 'their role').choices(Object.keys(ROLES)).default('member'),
      )
      .addOption(realmOption()),
  ).action(
    async (
      o: { email: string; fullName: string; role: string; realm?: string } & PasswordFlags,
    ) => {
      await withContext(config(), async (ctx) => {
        const realm = await findRealm(ctx.db, o.realm);
        const password = await readNewPassword(o, terminal, o.email);
        const user = await createUser(ctx, realm, {
          email: o.email,
          fullName: o.fullName,
          password,
          role: ROLES[o.role]!,
        });
        console.log(`Created ${o.role} ${user.email} (id ${user.id}) in "${realm.name}".`);
      });
    },
  );

  withPassword(
    program
      .command('reset-password')
      .description("Set a new password for someone's account.")
      .requiredOption('--email <email>', 'the email address of the account')
      .addOption(realmOption()),
  ).action(async (o: { email: string; realm?: string } & PasswordFlags) => {
    await withContext(config(), async (ctx) => {
      const realm = await findRealm(ctx.db, o.realm);
      const email = o.email.toLowerCase();
      const user = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('realm_id', '=', realm.id)
        .where('email', '=', email)
        .executeTakeFirst();
      if (!user) throw new UsageError(`There is no account ${email} in "${realm.name}"`);
      await setPassword(ctx, user.id, await readNewPassword(o, terminal, email));
      console.log(`Password of ${email} reset.`);
    });
  });
}

function addListCommands(program: Command, config: () => Config) {
  program
    .command('list-users')
    .description('List the accounts of an organization: id, email, name, role.')
    .addOption(realmOption())
    .action(async (o: { realm?: string }) => {
      await withContext(config(), async (ctx) => {
        const realm = await findRealm(ctx.db, o.realm);
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
      });
    });

  program
    .command('list-realms')
    .description('List the organizations: id, string id, name.')
    .action(async () => {
      await withContext(config(), async (ctx) => {
        const realms = await ctx.db.selectFrom('realms').selectAll().orderBy('id').execute();
        for (const r of realms) console.log(`${r.id}\t"${r.string_id}"\t${r.name}`);
      });
    });
}

function addPopulate(program: Command, config: () => Config) {
  const d = POPULATE_DEFAULTS;
  const count = (value: string) => {
    const n = Number(value.replace(/_/g, '').replace(/k$/i, '000').replace(/m$/i, '000000'));
    if (!Number.isFinite(n)) throw new InvalidArgumentError('must be a number (10000, 10k, 1m)');
    return n;
  };
  program
    .command('populate')
    .description(
      'Fill an organization (made if there is none) with people, channels and history as if it ' +
        'had been sent: most messages in one large channel "firehose", the rest over the other ' +
        'channels, topics and direct messages. The server must be stopped.',
    )
    .option('--users <n>', 'people', count, d.users)
    .option('--channels <n>', 'channels', count, d.channels)
    .option('--messages <n>', 'messages (10k, 1m...)', count, d.messages)
    .option('--unread-for <email>', 'someone who has --unread messages unread')
    .option('--unread <n>', 'unread messages of --unread-for', count, d.unread)
    .option('--reactions <n>', 'reactions', count, d.reactions)
    .option('--stars <n>', 'starred messages', count, d.stars)
    .option(
      '--large-channel-subscribers <n>',
      'subscribers of "firehose"',
      count,
      d.largeChannelSubscribers,
    )
    .option('--channels-per-user <n>', 'channels each person is in', count, d.channelsPerUser)
    .option('--days <n>', 'days the history spans', count, d.days)
    .option('--seed <n>', 'random seed', count, d.seed)
    .option(
      '--password <password>',
      'password of the people made (not secret: test data)',
      d.password,
    )
    .addOption(realmOption())
    .action(async (o: PopulateFlags) => {
      checkNewPassword(o.password);
      const cfg = config();
      await withContext(cfg, async (ctx, handle) => {
        const realm = o.realm === undefined ? null : (await findRealm(ctx.db, o.realm)).string_id;
        const result = await populate(
          handle,
          cfg,
          { ...o, unreadFor: o.unreadFor ?? null, realm },
          (line) => console.log(`  ${line}`),
        );
        console.log(
          `Populated organization ${result.realmId}: ${result.users} people, ${result.channels} channels, ` +
            `${result.messages} messages (${result.userMessages} recipient rows)` +
            (result.unreadFor
              ? `, ${result.unreadFor.unread} unread for ${result.unreadFor.email}`
              : '') +
            ` in ${result.seconds.toFixed(1)} s. Administrator: ${result.adminEmail}; password of the new people: ${o.password}.`,
        );
      });
    });
}

interface PopulateFlags {
  users: number;
  channels: number;
  messages: number;
  unreadFor?: string;
  unread: number;
  reactions: number;
  stars: number;
  largeChannelSubscribers: number;
  channelsPerUser: number;
  days: number;
  seed: number;
  password: string;
  realm?: string;
}

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

function addBackupCommands(program: Command, config: () => Config) {
  program
    .command('backup')
    .description(
      'Write a consistent copy of the database and the uploaded files (uploads, avatars, ' +
        'custom emoji) into one tar archive, while the server runs (.tar.gz or .tgz: compressed).',
    )
    .argument('<file>', 'the archive to write, e.g. parley-backup.tar')
    .action(async (file: string) => {
      // Background work: the server's requests go first for the CPU (tar and pg_dump inherit
      // this). Only in a process of its own: a test calling runManage is not to be slowed.
      if (standalone) os.setPriority(BACKUP_NICENESS);
      const r = await backup(config(), file);
      const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
      console.log(
        `Backed up ${r.manifest.database.kind === 'sqlite' ? 'the SQLite database' : `PostgreSQL schema "${r.manifest.database.schema}"`} ` +
          `(${mb(r.databaseBytes)}, schema version ${r.manifest.migrations.at(-1)}) and ${files(r.files)} ` +
          `into ${r.file} (${mb(r.bytes)}) in ${r.seconds.toFixed(1)} s.`,
      );
    });

  program
    .command('restore')
    .description(
      'Put a backup back: the server must be stopped; what the data directory (or schema) ' +
        'holds is set aside, not deleted.',
    )
    .argument('<file>', 'a backup written by the backup command')
    .option('--force', 'restore into a data directory or schema that is not empty')
    .action(async (file: string, o: { force?: boolean }) => {
      const cfg = config();
      const r = await restore(cfg, file, { force: o.force ?? false });
      console.log(
        `Restored the backup of ${r.manifest.createdAt} (Parley ${r.manifest.parleyVersion}, ` +
          `schema version ${r.manifest.migrations.at(-1)}, ${files(r.manifest.files)}) into ${cfg.dataDir}` +
          (cfg.databaseUrl ? ' and PostgreSQL' : '') +
          '.' +
          (r.asideDir ? `\nThe data directory's previous contents are in ${r.asideDir}.` : '') +
          (r.asideSchema ? `\nThe previous tables are in the schema "${r.asideSchema}".` : ''),
      );
    });
}

/** A context for running actions outside the server, on its database without its lock. */
async function withContext(
  config: Config,
  run: (ctx: AppContext, handle: Awaited<ReturnType<typeof openDatabase>>) => Promise<void>,
) {
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    lock: false,
  });
  const queues = new QueueManager(new MemoryBus(), 600_000);
  try {
    const ctx: AppContext = {
      db: handle.db,
      dialect: handle.dialect,
      config,
      files: openFileStore(fileStoreKind(config), config.dataDir, handle),
      keys: await openServerKeys(handle, config.dataDir),
      lock: new Mutex(),
      log: console,
      queues,
      loginAttempts: new MemoryLoginAttempts(config.loginAttempts, config.loginWindowSeconds),
      rateLimits: new MemoryRateLimits(),
      toDisk: handle.toDisk,
    };
    await run(ctx, handle);
  } finally {
    queues.close();
    await handle.close();
  }
}

/** The lowest scheduling priority (the highest niceness). */
const BACKUP_NICENESS = 19;
/** Whether this process is the command line itself (npm run manage), not a caller of runManage. */
let standalone = false;

/** The command line itself: `npm run manage` (scripts/manage.mjs) or `tsx server/manage.ts`. */
export async function runManageCommandLine(argv: string[]): Promise<number> {
  standalone = true;
  return runManage(argv);
}

if (import.meta.url === `file://${process.argv[1]}`)
  runManageCommandLine(process.argv.slice(2)).then((code) => process.exit(code));
