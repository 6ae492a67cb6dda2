import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { configFromEnv, type Config } from '../config.js';
import { DataDirLockedError, openDatabase } from '../db/index.js';
import { verifyPassword } from '../domain/password.js';
import { runManage } from '../manage.js';
import { startServer } from '../server.js';
import { TestClient } from './client.js';
import { MANAGE_COMMAND, runManageProcess } from './process.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** What a command reads as its standard input when something is piped into it. */
const piped = (text: string) => ({ stdin: Readable.from([text]), stderr: { write: () => true } });

/** `npm run manage -- ARGS` as npm runs it, with `input` piped in. */
const manage = (args: string[], config: Config, input = '') =>
  runManageProcess(
    args,
    { PARLEY_DATA_DIR: config.dataDir, DATABASE_URL: '', PARLEY_SCRYPT_COST: '1024' },
    input,
  );

const COMMANDS = [
  'create-realm',
  'create-user',
  'reset-password',
  'populate',
  'list-users',
  'list-realms',
  'backup',
  'restore',
];

function tempConfig(): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-manage-'));
  return { ...configFromEnv({}), port: 0, dataDir, scryptCost: 1024, rateLimitPerMinute: 100_000 };
}

describe('management commands', () => {
  const config = tempConfig();
  const quiet = vi.spyOn(console, 'log').mockImplementation(() => {});
  const quietErr = vi.spyOn(console, 'error').mockImplementation(() => {});
  afterAll(() => {
    quiet.mockRestore();
    quietErr.mockRestore();
  });

  it('creates an organization, a user and resets a password that then logs in', async () => {
    expect(
      await runManage(
        [
          'create-realm',
          '--name',
          'Acme',
          '--owner-email',
          'Boss@Acme.test',
          '--owner-name',
          'The Boss',
          '--password',
          'first-pass',
        ],
        config,
      ),
    ).toBe(0);
    expect(
      await runManage(
        [
          'create-user',
          '--email',
          'ann@acme.test',
          '--full-name',
          'Ann',
          '--password',
          'ann-pass',
          '--role',
          'admin',
        ],
        config,
      ),
    ).toBe(0);
    expect(
      await runManage(
        ['create-user', '--email', 'ann@acme.test', '--full-name', 'Ann again'],
        config,
        piped('another-pass\n'),
      ),
    ).toBe(2);
    expect(
      await runManage(
        ['reset-password', '--email', 'boss@acme.test', '--password', 'second-pass'],
        config,
      ),
    ).toBe(0);
    expect(await runManage(['no-such-command'], config)).toBe(2);

    const server = await startServer(config);
    try {
      const anon = new TestClient(server.url);
      const old = await anon.post('/fetch_api_key', {
        username: 'boss@acme.test',
        password: 'first-pass',
      });
      expect(old.status).toBe(401);
      const boss = await TestClient.login(server.url, 'boss@acme.test', 'second-pass');
      const me = await boss.get('/users/me');
      expect(me.body).toMatchObject({ role: 100, full_name: 'The Boss', is_owner: true });
      const bossSubs = (await boss.get('/users/me/subscriptions')).body.subscriptions;
      expect(bossSubs.map((s: any) => s.name)).toEqual(['general']);
      const ann = await TestClient.login(server.url, 'ann@acme.test', 'ann-pass');
      const annMe = await ann.get('/users/me');
      expect(annMe.body.role).toBe(200);
      const subs = await ann.get('/users/me/subscriptions');
      expect(subs.body.subscriptions.map((s: any) => s.name)).toEqual(['general']);
    } finally {
      await server.close();
    }
  });

  it('refuses a second server on the same SQLite data directory with a clear message', async () => {
    const cfg = tempConfig();
    const first = await openDatabase({ dataDir: cfg.dataDir });
    try {
      await expect(openDatabase({ dataDir: cfg.dataDir })).rejects.toBeInstanceOf(
        DataDirLockedError,
      );
      await expect(openDatabase({ dataDir: cfg.dataDir })).rejects.toThrow(
        /already using the data directory/,
      );
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir: cfg.dataDir });
    await again.close();
  });

  it('takes over a lock file of an earlier version left by a process that died', async () => {
    const cfg = tempConfig();
    fs.writeFileSync(path.join(cfg.dataDir, 'parley.lock'), '999999999');
    const db = await openDatabase({ dataDir: cfg.dataDir });
    await db.close();
  });

  it('is free the moment its owner is killed with kill -9, and never judged by a pid', async () => {
    const cfg = tempConfig();
    // A process that takes the directory's lock, says so and waits to be killed.
    const dataDir = path.join(ROOT, 'server/db/data-dir.ts');
    const owner = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import(${JSON.stringify(dataDir)}).then((m) => { m.lockDataDir(${JSON.stringify(cfg.dataDir)}); console.log('locked'); setInterval(() => {}, 1000); });`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      owner.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('locked')) resolve();
      });
      owner.once('exit', (code) => reject(new Error(`the lock's owner exited (${code})`)));
    });
    await expect(openDatabase({ dataDir: cfg.dataDir })).rejects.toThrow(
      new RegExp(`Another Parley server \\(pid ${owner.pid}\\) is already using`),
    );
    const exited = new Promise((resolve) => owner.once('exit', resolve));
    owner.kill('SIGKILL');
    await exited;
    // At once: no waiting for the dead pid to look dead.
    const db = await openDatabase({ dataDir: cfg.dataDir });
    await db.close();

    // A pid in the pid file that is alive (this very process's parent) does not hold the lock.
    fs.writeFileSync(path.join(cfg.dataDir, 'parley.lock.pid'), String(process.ppid));
    const again = await openDatabase({ dataDir: cfg.dataDir });
    await again.close();
  });

  it('prints help for manage and every command, and its version, without a stack trace', async () => {
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
    const cfg = tempConfig();
    const help = await manage(['--help'], cfg);
    expect(help.code).toBe(0);
    for (const command of COMMANDS) expect(help.stdout).toContain(command);
    const createUser = await manage(['create-user', '--help'], cfg);
    expect(createUser).toMatchObject({ code: 0, stderr: '' });
    expect(createUser.stdout).toMatch(/Usage: manage create-user .*--email <email>.*--realm/s);
    expect(await manage(['--version'], cfg)).toMatchObject({ code: 0, stdout: `${version}\n` });
    // Every command's help, in this process: a process per command would add a start each.
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      for (const command of COMMANDS) {
        out.mockClear();
        expect(await runManage([command, '--help'], cfg)).toBe(0);
        expect(out.mock.calls.join('')).toContain(`Usage: manage ${command}`);
        expect(await runManage(['help', command], cfg)).toBe(0);
      }
    } finally {
      out.mockRestore();
    }
    const wrong = await manage(
      ['create-user', '--email', 'a@b.test', '--full-name', 'A', '--no-such-option'],
      cfg,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/unknown option '--no-such-option'/);
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
    expect(fs.existsSync(path.join(cfg.dataDir, 'parley.sqlite3'))).toBe(false);

    // A mistyped variable is wrong input too: one line, exit code 2, nothing opened.
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    process.env.PARLEY_RATE_LIMIT = '2OO';
    try {
      expect(await runManage(['list-users'])).toBe(2);
      // Other tests' commands may print too; this one's line is the one that names the variable.
      const lines = err.mock.calls.map((call) => String(call[0]));
      expect(lines).toContainEqual(
        expect.stringMatching(/^Error: Invalid configuration: PARLEY_RATE_LIMIT .*"2OO"/),
      );
    } finally {
      delete process.env.PARLEY_RATE_LIMIT;
      err.mockRestore();
    }
  }, 120_000);

  it('reads passwords from standard input, holds them to the server rule, and names organizations by id or string id', async () => {
    const cfg = tempConfig();
    const made = await manage(
      ['create-realm', '--name', 'Default', '--owner-email', 'own@d.test', '--owner-name', 'Own'],
      cfg,
      'owner-secret\n',
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/\(id 1\)/);
    const short = await manage(
      [
        'create-user',
        '--realm',
        '1',
        '--email',
        'x@d.test',
        '--full-name',
        'X',
        '--password-stdin',
      ],
      cfg,
      'abc\n',
    );
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('The password is too short (at least 6 characters).');
    expect(short.stderr).not.toMatch(/\n\s+at /);
    const visible = await manage(
      ['create-user', '--realm', '1', '--email', 'x@d.test', '--full-name', 'X', '--password', 'x'],
      cfg,
    );
    expect(visible.code).toBe(2);
    expect(visible.stderr).toMatch(/visible to other users/);

    const create = (realm: string, email: string, input: string) =>
      runManage(
        ['create-user', '--realm', realm, '--email', email, '--full-name', email],
        cfg,
        piped(input),
      );
    expect(await create('1', 'one@d.test', 'password-one\r\nignored')).toBe(0);
    expect(
      await runManage(
        ['create-realm', '--name', 'Acme', '--owner-email', 'own@acme.test', '--owner-name', 'O'],
        cfg,
        piped('owner-secret\n'),
      ),
    ).toBe(2); // the default organization's string id "" is taken
    expect(
      await runManage(
        [
          'create-realm',
          '--name',
          'Acme',
          '--owner-email',
          'own@acme.test',
          '--owner-name',
          'O',
        ].concat(['--string-id', 'acme']),
        cfg,
        piped('owner-secret\n'),
      ),
    ).toBe(0);
    expect(await create('acme', 'two@acme.test', 'password-two')).toBe(0);
    expect(await create('2', 'three@acme.test', 'password-three\n')).toBe(0);
    expect(await create('', 'four@d.test', 'password-four\n')).toBe(0);
    expect(await create('nowhere', 'five@d.test', 'password-five\n')).toBe(2);
    expect(await create('1', 'six@d.test', '\n')).toBe(2);
    // Two organizations: one must be named.
    expect(
      await runManage(
        ['create-user', '--email', 's@d.test', '--full-name', 'S'],
        cfg,
        piped('password-s\n'),
      ),
    ).toBe(2);
    expect(
      await runManage(
        ['reset-password', '--realm', 'acme', '--email', 'two@acme.test', '--password-stdin'],
        cfg,
        piped('password-two-b\n'),
      ),
    ).toBe(0);

    // The default organization's people log in at the server's address; the other's by subdomain,
    // which this machine does not resolve, so their passwords are checked against the database.
    const server = await startServer(cfg);
    try {
      await TestClient.login(server.url, 'one@d.test', 'password-one');
      await TestClient.login(server.url, 'four@d.test', 'password-four');
    } finally {
      await server.close();
    }
    const handle = await openDatabase({ dataDir: cfg.dataDir, lock: false });
    try {
      for (const [email, password] of [
        ['two@acme.test', 'password-two-b'],
        ['three@acme.test', 'password-three'],
      ]) {
        const user = await handle.db
          .selectFrom('users')
          .innerJoin('realms', 'realms.id', 'users.realm_id')
          .select(['password_hash', 'string_id'])
          .where('email', '=', email!)
          .executeTakeFirstOrThrow();
        expect(user.string_id).toBe('acme');
        expect(await verifyPassword(password!, user.password_hash)).toBe(true);
      }
    } finally {
      await handle.close();
    }
  }, 120_000);

  /** A command run on a terminal (util-linux's `script` gives it one), answering its prompts. */
  function onTerminal(args: string[], config: Config, answers: [RegExp, string][]) {
    return new Promise<{ code: number | null; screen: string }>((resolve) => {
      const command = MANAGE_COMMAND(args)
        .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
        .join(' ');
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        cwd: ROOT,
        env: { ...process.env, PARLEY_DATA_DIR: config.dataDir, DATABASE_URL: '' },
      });
      let screen = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        screen += d;
        // Typed only once asked: a terminal echoes what is typed before the prompt hides it.
        while (answers.length && answers[0]![0].test(screen))
          child.stdin.write(answers.shift()![1]);
      });
      child.on('close', (code) => resolve({ code, screen }));
    });
  }

  it.runIf(fs.existsSync('/usr/bin/script'))(
    'asks for the password on a terminal without showing it, twice',
    async () => {
      const cfg = tempConfig();
      const args = [
        'create-realm',
        '--name',
        'T',
        '--owner-email',
        'o@t.test',
        '--owner-name',
        'O',
      ];
      const differ = await onTerminal(args, cfg, [
        [/New password for o@t.test: /, 'typed-once\r'],
        [/The same password again: /, 'typed-twice\r'],
      ]);
      expect(differ.code).toBe(2);
      expect(differ.screen).toMatch(/The two passwords differ/);
      const made = await onTerminal(args, cfg, [
        [/New password for o@t.test: /, 'hidden-password\r'],
        [/The same password again: /, 'hidden-password\r'],
      ]);
      expect(made.code, made.screen).toBe(0);
      expect(made.screen).toMatch(/Created organization "T" \(id 1\)/);
      expect(made.screen).not.toContain('hidden-password');
      const server = await startServer(cfg);
      try {
        await TestClient.login(server.url, 'o@t.test', 'hidden-password');
      } finally {
        await server.close();
      }
    },
    120_000,
  );
});
