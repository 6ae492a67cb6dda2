import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Config } from '../config.js';
import { drain, TestClient } from './client.js';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';

/** The demo organization's people (DESIGN §3), who log in with DEMO_PASSWORD. */
export const DEMO_PEOPLE = [
  'desdemona',
  'iago',
  'shiva',
  'hamlet',
  'othello',
  'cordelia',
  'polonius',
] as const;
export type DemoName = (typeof DEMO_PEOPLE)[number];

export type Database = 'sqlite' | 'postgres';

/**
 * The databases a test file runs on, chosen at its fixture call: `'both'` is SQLite, and
 * PostgreSQL as well when TEST_DATABASE_URL is set (as in CI); `'sqlite'` is SQLite alone.
 *
 * The rule: a file whose behaviour goes through SQL that could differ by dialect runs on both:
 * messages, narrows, search, flags, unreads, edits, topics, subscriptions, groups, scheduled
 * messages, drafts, users, realm settings, backups, and anything done in a transaction. A file
 * that tests HTTP framing, envelopes, configuration, logs, metrics, compression, static files,
 * rate limits, client routes, starting the process or the command line, or pure functions, runs
 * on SQLite only. When in doubt, both.
 */
export function databases(which: 'both' | 'sqlite'): Database[] {
  return which === 'both' ? DATABASES : ['sqlite'];
}

export interface ServerOptions {
  db: Database;
  /** the demo people to log in (all of them unless given) */
  people?: readonly DemoName[];
  /** configuration over the test defaults; a function is read when the server starts */
  config?: Partial<Config> | (() => Partial<Config>);
  /** whether to seed the demo organization (default true) */
  demo?: boolean;
}

export interface ServerWorld {
  /** the running server, set before the first test */
  server: TestServer;
  /**
   * A client per requested demo person. The objects exist from the fixture call on and are
   * logged in before the first test, so they can be destructured at collection time.
   */
  as: Record<DemoName, TestClient>;
  /** user ids by name (and the demo bot's, as `bot`), as members see them */
  id: Record<DemoName | 'bot', number>;
  /** channel ids by name, as the owner sees them (every channel) */
  stream: Record<string, number>;
  /** a client logged in as anyone with a password (the demo password unless given) */
  login(email: string, password?: string): Promise<TestClient>;
  /** restarts the server on the same data (as after a crash or deploy), its clients following */
  restart(opts?: { samePort?: boolean }): Promise<void>;
  /** registers a queue for each of the given people (all requested ones by default) */
  queues(
    eventTypes: string[],
    people?: readonly DemoName[],
  ): Promise<{ events(who: DemoName): Promise<any[]> }>;
}

/**
 * A server on a temporary database for one describe block: started before its tests, with the
 * requested demo people logged in, and closed after them. Read `server`, `id` and `stream`
 * inside tests and hooks: they are filled in when the server has started.
 */
export function useServer(options: ServerOptions): ServerWorld {
  const people = options.people ?? DEMO_PEOPLE;
  const world: ServerWorld = {
    server: undefined as unknown as TestServer,
    as: Object.fromEntries(DEMO_PEOPLE.map((name) => [name, new TestClient('')])) as Record<
      DemoName,
      TestClient
    >,
    id: {} as ServerWorld['id'],
    stream: {},
    login: (email, password = DEMO_PASSWORD) => TestClient.login(world.server.url, email, password),
    async restart(opts) {
      world.server = await world.server.restart(opts);
      for (const client of Object.values(world.as))
        if (client.email)
          client.adopt(new TestClient(world.server.url, client.email, client.apiKey));
    },
    async queues(eventTypes, who = people) {
      const ids = new Map<DemoName, string>();
      for (const name of who)
        ids.set(
          name,
          (await world.as[name].post('/register', { event_types: eventTypes })).body.queue_id,
        );
      return { events: (name: DemoName) => drain(world.as[name], ids.get(name)!) };
    },
  };
  beforeAll(async () => {
    const config = typeof options.config === 'function' ? options.config() : options.config;
    world.server = await startTestServer({ db: options.db, config, demo: options.demo });
    if (options.demo === false) return;
    await Promise.all(
      people.map(async (name) => world.as[name].adopt(await world.login(`${name}@example.com`))),
    );
    const owner = await world.login('desdemona@example.com');
    const members = (await owner.get('/users')).body.members as {
      email: string;
      user_id: number;
    }[];
    for (const m of members) {
      const name = m.email.split('@')[0] as DemoName;
      if (m.email.endsWith('@example.com') && DEMO_PEOPLE.includes(name))
        world.id[name] = m.user_id;
      if (m.email === 'hamlet-bot@parley.bots') world.id.bot = m.user_id;
    }
    const streams = (await owner.get('/streams', { include_all_active: 'true' })).body.streams as {
      name: string;
      stream_id: number;
    }[];
    Object.assign(world.stream, Object.fromEntries(streams.map((s) => [s.name, s.stream_id])));
  });
  afterAll(() => world.server?.close());
  return world;
}

/**
 * A describe block per database (see `databases`), each with its own server (see `useServer`):
 * `describeServer('topics', { db: 'both' }, (w) => { it(...) })`.
 */
export function describeServer(
  title: string,
  options: Omit<ServerOptions, 'db'> & { db: 'both' | 'sqlite' },
  body: (world: ServerWorld, db: Database) => void,
): void {
  describe.each(databases(options.db))(`${title} on %s`, (db) =>
    body(useServer({ ...options, db }), db),
  );
}

/**
 * A built web client as Vite leaves it, in a temporary directory (the server's `clientDir`): the
 * given files, and a brotli and a gzip copy beside those named in `compressed`, as the build's
 * precompress step writes them. Written before the describe block's later hooks and tests (so
 * call it before the `beforeAll` that starts the server), removed after them.
 */
export function useClientBuild(
  files: Record<string, string>,
  compressed: string[] = [],
): { dir: string } {
  const build = { dir: '' };
  beforeAll(() => {
    build.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-client-'));
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(build.dir, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      if (!compressed.includes(name)) continue;
      fs.writeFileSync(file + '.br', zlib.brotliCompressSync(text));
      fs.writeFileSync(file + '.gz', zlib.gzipSync(text));
    }
  });
  afterAll(() => {
    if (build.dir) fs.rmSync(build.dir, { recursive: true, force: true });
  });
  return build;
}
