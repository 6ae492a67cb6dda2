import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../config.js';
import { TestClient } from './client.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';

/** The demo organization's people (DESIGN §3). */
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

export interface DemoWorld {
  server: TestServer;
  /** a logged-in client per demo person */
  as: Record<DemoName, TestClient>;
  /** user ids by name */
  id: Record<DemoName, number>;
  /** channel ids by name, as the owner sees them (every channel) */
  stream: Record<string, number>;
}

/**
 * A demo server for one describe block: started before its tests (on the given database), with
 * every demo person logged in, and closed after them. The returned object is filled in before the
 * first test runs, so read its fields inside tests and hooks, not at collection time.
 */
export function useDemoServer(db: 'sqlite' | 'postgres', config: Partial<Config> = {}): DemoWorld {
  const world = {} as DemoWorld;
  beforeAll(async () => {
    world.server = await startTestServer({ db, config });
    const clients = await Promise.all(
      DEMO_PEOPLE.map((name) =>
        TestClient.login(world.server.url, `${name}@example.com`, DEMO_PASSWORD),
      ),
    );
    world.as = Object.fromEntries(
      DEMO_PEOPLE.map((name, i) => [name, clients[i]]),
    ) as DemoWorld['as'];
    const ids = await Promise.all(
      clients.map(async (c) => (await c.get('/users/me')).body.user_id as number),
    );
    world.id = Object.fromEntries(DEMO_PEOPLE.map((name, i) => [name, ids[i]])) as DemoWorld['id'];
    const streams = (await world.as.desdemona.get('/streams', { include_all_active: 'true' })).body
      .streams as {
      name: string;
      stream_id: number;
    }[];
    world.stream = Object.fromEntries(streams.map((s) => [s.name, s.stream_id]));
  });
  afterAll(() => world.server?.close());
  return world;
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
