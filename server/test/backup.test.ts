import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { openDatabase } from '../db/index.js';
import { InCodeMigrations, migrations } from '../db/migrations.js';
import { pgDumpContents } from '../db/pg-tools.js';
import { KEPT_MIGRATION_COPIES } from '../db/pre-migration.js';
import { registerSearchFunctions } from '../db/search.js';
import { sqliteMigrations } from '../db/sqlite-copy.js';
import { runManage } from '../manage.js';
import { startServer, type RunningServer } from '../server.js';
import { TestClient } from './client.js';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { runManageProcess } from './process.js';

const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** `npm run manage -- ARGS` as npm runs it, on the given data. */
const manage = (args: string[], on: { dataDir: string; databaseUrl?: string }) =>
  runManageProcess(args, { PARLEY_DATA_DIR: on.dataDir, DATABASE_URL: on.databaseUrl ?? '' });

/** A new, empty PostgreSQL schema and the URL whose connections use it (as the harness makes). */
const schemas: string[] = [];
async function newSchemaUrl(): Promise<string> {
  const base = process.env.TEST_DATABASE_URL!;
  const schema = `parley_restore_${process.pid}_${Date.now()}_${schemas.length}`;
  await onPostgres((c) => c.query(`CREATE SCHEMA ${schema}`));
  schemas.push(schema);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function onPostgres<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A new PostgreSQL database, reached with the given schema first in its search_path. */
const databases: string[] = [];
async function newDatabaseUrl(schema: string): Promise<string> {
  const name = `parley_restore_${process.pid}_${Date.now()}_${databases.length}`;
  await onPostgres((c) => c.query(`CREATE DATABASE ${name}`));
  databases.push(name);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** Every schema and database this file made, and the schemas their restores set aside. */
afterAll(async () => {
  if (!schemas.length && !databases.length) return;
  await onPostgres(async (c) => {
    const { rows } = await c.query<{ nspname: string }>(
      `SELECT nspname FROM pg_namespace WHERE nspname LIKE ANY ($1)`,
      [schemas.map((s) => `${s}%`)],
    );
    for (const { nspname } of rows) await c.query(`DROP SCHEMA "${nspname}" CASCADE`);
    for (const name of databases) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
});

/**
 * Where a restored backup goes: a new data directory, and on PostgreSQL a new schema of the test
 * database or, where the backup's own schema is still in use there, a new database.
 */
async function newTarget(db: 'sqlite' | 'postgres', where: 'schema' | 'database' = 'schema') {
  const dataDir = tempDir('parley-restored-');
  if (db === 'sqlite') return { dataDir, databaseUrl: undefined };
  return {
    dataDir,
    databaseUrl: where === 'schema' ? await newSchemaUrl() : await newDatabaseUrl('parley'),
  };
}

const schemaOf = (url: string) => new URL(url).searchParams.get('options')!.split('=')[1]!;

async function serverOn(base: Config, target: { dataDir: string; databaseUrl?: string }) {
  return startServer({ ...base, port: 0, ...target });
}

/** Ids of every message hamlet can see, read page by page from GET /messages. */
async function visibleIds(client: TestClient): Promise<Set<number>> {
  const ids = new Set<number>();
  let anchor: number | string = 'oldest';
  for (;;) {
    const r = await client.get('/messages', { anchor, num_before: 0, num_after: 1000 });
    expect(r.status).toBe(200);
    for (const m of r.body.messages as { id: number }[]) ids.add(m.id);
    if (r.body.found_newest) return ids;
    anchor = (r.body.messages as { id: number }[]).at(-1)!.id + 1;
  }
}

async function uploadFile(server: TestServer, as: TestClient, name: string, body: string) {
  const form = new FormData();
  form.append('file', new File([body], name, { type: 'text/plain' }));
  const res = await fetch(`${server.url}/api/v1/user_uploads`, {
    method: 'POST',
    body: form,
    headers: as.headers(),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { url: string }).url;
}

/** Clients that send to #general one message after another until stopped; acknowledged ids. */
function steadySenders(clients: TestClient[]) {
  const acked: { id: number; at: number }[] = [];
  let running = true;
  const loops = clients.map(async (client, n) => {
    for (let i = 0; running; i++) {
      const r = await client.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'backup under load',
        content: `message ${i} from sender ${n}`,
      });
      if (r.status !== 200) throw new Error(`send failed: ${JSON.stringify(r.body)}`);
      acked.push({ id: r.body.id, at: performance.now() });
    }
  });
  return {
    acked,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

const rate = (acked: { at: number }[], from: number, to: number) =>
  acked.filter((a) => a.at >= from && a.at < to).length / ((to - from) / 1000);

describe.each(DATABASES)('backup and restore (%s)', (db) => {
  it('backs up while clients keep sending, and a server on the restored copy has every message acknowledged before', async () => {
    const server = await startTestServer({ db });
    const file = path.join(tempDir('parley-backup-'), 'backup.tar');
    const names = ['hamlet', 'iago', 'othello', 'cordelia'];
    const clients = await Promise.all(
      names.map((n) => TestClient.login(server.url, `${n}@example.com`, DEMO_PASSWORD)),
    );
    const uploaded = await uploadFile(server, clients[0]!, 'notes.txt', 'kept in the backup');
    const senders = steadySenders(clients);
    let restored: RunningServer | undefined;
    let running = true;
    try {
      await new Promise((r) => setTimeout(r, 1500));
      const started = performance.now();
      const before = senders.acked.map((a) => a.id);
      const made = await manage(['backup', file], server.ctx.config);
      const ended = performance.now();
      await new Promise((r) => setTimeout(r, 300));
      await senders.stop();
      expect(made.code, made.stderr).toBe(0);
      const during = rate(senders.acked, started, ended);
      console.log(
        `[${db}] backup under sending: ${made.stdout.trim()} Sending: ` +
          `${rate(senders.acked, senders.acked[0]!.at, started).toFixed(0)} msg/s before, ` +
          `${during.toFixed(0)} msg/s during the ${((ended - started) / 1000).toFixed(1)} s of the command`,
      );
      expect(senders.acked.some((a) => a.at > started && a.at < ended)).toBe(true);
      expect(before.length).toBeGreaterThan(20);
      // The upload's bytes travel with the database where the database keeps them (PostgreSQL's
      // default store), among the data directory's files otherwise.
      const uploadsInFiles = (await tarOutput(['-tf', file]))
        .split('\n')
        .some((entry) => entry.startsWith('files/uploads/') && entry.endsWith('/notes.txt'));
      expect(uploadsInFiles).toBe(server.ctx.files.kind === 'disk');
      expect(server.ctx.files.kind).toBe(db === 'postgres' ? 'database' : 'disk');

      const config = server.ctx.config;
      running = false;
      await server.close();
      const target = await newTarget(db);
      const put = await manage(['restore', file], target);
      expect(put.code, put.stderr).toBe(0);
      restored = await serverOn(config, target);
      const hamlet = await TestClient.login(restored.url, 'hamlet@example.com', DEMO_PASSWORD);
      const ids = await visibleIds(hamlet);
      expect(before.filter((id) => !ids.has(id))).toEqual([]);
      const download = await fetch(new URL(uploaded, restored.url), { headers: hamlet.headers() });
      expect(download.status).toBe(200);
      expect(await download.text()).toBe('kept in the backup');
    } finally {
      await senders.stop();
      await restored?.close();
      if (running) await server.close();
    }
  }, 120_000);

  describe('refusals', () => {
    let server: TestServer;
    let file: string;
    let printed: string[] = [];
    const errors = () => printed.join('\n');
    const quiet = [console.log, console.error];
    beforeAll(async () => {
      console.log = () => {};
      console.error = (...args: unknown[]) => printed.push(args.map(String).join(' '));
      server = await startTestServer({ db });
      file = path.join(tempDir('parley-backup-'), 'backup.tar.gz');
      expect(await runManage(['backup', file], server.ctx.config)).toBe(0);
      // Compressed, as its name asks, and private: it holds API keys and password hashes.
      expect([...fs.readFileSync(file).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    });
    afterAll(async () => {
      await server.close();
      [console.log, console.error] = quiet;
    });

    it('writes no backup among the data it backs up, but may into its backups directory', async () => {
      const among = path.join(server.dataDir, 'backup.tar');
      expect(await runManage(['backup', among], server.ctx.config)).toBe(2);
      expect(fs.existsSync(among)).toBe(false);
      fs.mkdirSync(path.join(server.dataDir, 'backups'), { recursive: true });
      const kept = path.join(server.dataDir, 'backups', 'backup.tar');
      expect(await runManage(['backup', kept], server.ctx.config)).toBe(0);
      expect(fs.readdirSync(server.dataDir).filter((n) => n.startsWith('.'))).toEqual([]);
    });

    it('refuses to restore while a server uses the data directory or schema', async () => {
      expect(await runManage(['restore', '--force', file], server.ctx.config)).toBe(1);
      expect(errors()).toMatch(/Stop it before restoring|stop every server on it/);
      const live = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
      expect((await live.get('/users/me')).status).toBe(200);
    });

    it('refuses a non-empty target without --force, and with it sets the old data aside', async () => {
      const target = await newTarget(db, 'database');
      const config = { ...server.ctx.config, ...target };
      expect(await runManage(['restore', file], config)).toBe(0);
      fs.writeFileSync(path.join(target.dataDir, 'stray-file.txt'), 'written after the restore\n');
      expect(await runManage(['restore', file], config)).toBe(1);
      expect(errors()).toMatch(/is not empty.*--force/);
      expect(fs.readFileSync(path.join(target.dataDir, 'stray-file.txt'), 'utf8')).toMatch(/after/);

      expect(await runManage(['restore', '--force', file], config)).toBe(0);
      const aside = fs.readdirSync(target.dataDir).filter((n) => n.startsWith('before-restore-'));
      expect(aside).toHaveLength(1);
      const setAside = path.join(target.dataDir, aside[0]!);
      expect(fs.readFileSync(path.join(setAside, 'stray-file.txt'), 'utf8')).toMatch(/after/);
      expect(fs.existsSync(path.join(target.dataDir, 'stray-file.txt'))).toBe(false);
      if (db === 'sqlite') {
        expect(fs.existsSync(path.join(setAside, 'parley.sqlite3'))).toBe(true);
      } else {
        const client = new pg.Client({ connectionString: target.databaseUrl });
        await client.connect();
        const kept = await client.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`, [
          `${schemaOf(target.databaseUrl!)}_before_restore_%`,
        ]);
        await client.end();
        expect(kept.rows).toHaveLength(1);
      }
      const again = await serverOn(server.ctx.config, target);
      try {
        await TestClient.login(again.url, 'hamlet@example.com', DEMO_PASSWORD);
      } finally {
        await again.close();
      }
    });

    it.runIf(db === 'postgres')(
      "refuses a schema other than the backup's where the backup's own is in use",
      async () => {
        const target = await newTarget(db);
        expect(await runManage(['restore', file], { ...server.ctx.config, ...target })).toBe(1);
        expect(errors()).toMatch(/taken from the schema "\w+", which this database has beside/);
      },
    );

    it('refuses what is not a Parley backup before touching anything', async () => {
      const target = await newTarget(db);
      const config = { ...server.ctx.config, ...target };
      fs.writeFileSync(path.join(target.dataDir, 'keep.txt'), 'untouched');
      const dir = tempDir('parley-not-backup-');
      const plain = path.join(dir, 'plain.txt');
      fs.writeFileSync(plain, 'hello');
      const manifest = JSON.parse(
        await tarOutput(['-x', '-O', '-f', file, 'parley-backup.json']),
      ) as { migrations: string[]; formatVersion: number };
      const withManifest = async (name: string, edit: (m: typeof manifest) => void) => {
        const m = structuredClone(manifest);
        edit(m);
        const inner = tempDir('parley-manifest-');
        fs.writeFileSync(path.join(inner, 'parley-backup.json'), JSON.stringify(m));
        await tarOutput(['-c', '-f', path.join(dir, name), '-C', inner, 'parley-backup.json']);
        return path.join(dir, name);
      };
      const cases: [string, RegExp][] = [
        [plain, /not a Parley backup/],
        [path.join(dir, 'missing.tar'), /does not exist/],
        [await withManifest('newer.tar', (m) => m.migrations.push('9999_future')), /newer version/],
        [await withManifest('format.tar', (m) => (m.formatVersion = 9)), /format 9/],
      ];
      for (const [candidate, message] of cases) {
        printed = [];
        expect(await runManage(['restore', '--force', candidate], config)).toBe(2);
        expect(errors()).toMatch(message);
        expect(fs.readdirSync(target.dataDir)).toEqual(['keep.txt']);
      }
    });
  });
});

function tarOutput(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('tar', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`tar ${code}`))));
  });
}

describe.each(DATABASES)('a copy before migrations change an existing database (%s)', (db) => {
  const names = Object.keys(migrations(db)).sort();
  const older = names.at(-3)!;
  const number = (name: string) => name.split('_')[0];

  /** A database as an older Parley left it: only the migrations up to `older`. */
  async function olderDatabase(): Promise<{ dataDir: string; databaseUrl?: string }> {
    const dataDir = tempDir('parley-old-');
    let kysely: Kysely<any>;
    let databaseUrl: string | undefined;
    let schema: string | undefined;
    if (db === 'sqlite') {
      const sqlite = new SQLite(path.join(dataDir, 'parley.sqlite3'));
      sqlite.pragma('journal_mode = WAL');
      registerSearchFunctions(sqlite);
      kysely = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
    } else {
      databaseUrl = await newSchemaUrl();
      schema = schemas.at(-1);
      kysely = new Kysely({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl }) }),
      });
    }
    const migrator = new Migrator({
      db: kysely,
      provider: new InCodeMigrations(db),
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await migrator.migrateTo(older);
    await kysely.destroy();
    if (error) throw error;
    return { dataDir, databaseUrl };
  }

  it('copies the database once, before migrating it, and keeps the last few copies', async () => {
    const old = await olderDatabase();
    const backups = path.join(old.dataDir, 'backups');
    fs.mkdirSync(backups);
    const ext = db === 'sqlite' ? 'sqlite' : 'pgdump';
    const stale = [1, 2, 3].map((d) => `before-migration-0001-to-0002-2020010${d}T000000Z.${ext}`);
    for (const name of stale) fs.writeFileSync(path.join(backups, name), '');

    const handle = await openDatabase({ ...old, lock: false });
    await handle.close();
    const copies = fs.readdirSync(backups).sort();
    expect(copies).toHaveLength(KEPT_MIGRATION_COPIES);
    expect(copies.slice(0, -1)).toEqual(stale.slice(-(KEPT_MIGRATION_COPIES - 1)));
    const copy = copies.at(-1)!;
    expect(copy).toMatch(
      new RegExp(
        `^before-migration-${number(older)}-to-${number(names.at(-1)!)}-\\d{8}T\\d{6}Z\\.${ext}$`,
      ),
    );
    if (db === 'sqlite') {
      expect(sqliteMigrations(path.join(backups, copy))).toEqual(
        names.slice(0, names.indexOf(older) + 1),
      );
      expect(sqliteMigrations(path.join(old.dataDir, 'parley.sqlite3'))).toEqual(names);
    } else {
      expect(await pgDumpContents(path.join(backups, copy))).toMatch(
        /TABLE DATA \S+ kysely_migration/,
      );
    }

    // Up to date: no copy. A new database: none either.
    const again = await openDatabase({ ...old, lock: false });
    await again.close();
    expect(fs.readdirSync(backups)).toHaveLength(KEPT_MIGRATION_COPIES);
    const fresh = await newTarget(db);
    const made = await openDatabase({ ...fresh, lock: false });
    await made.close();
    expect(fs.existsSync(path.join(fresh.dataDir, 'backups'))).toBe(false);
  });
});
