import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { configFromEnv, type Config } from '../config.js';
import { startServer, type RunningServer } from '../server.js';
import { QUEUES_FILE } from '../events/persist.js';

export const DEMO_PASSWORD = 'parley-demo';

export interface TestServer extends RunningServer {
  dataDir: string;
  /**
   * Restarts on the same data; `samePort` keeps its address. The event queues the graceful close
   * saved are thrown away, as after a crash, unless `keepQueues` (as after a deploy).
   */
  restart(opts?: { samePort?: boolean; keepQueues?: boolean }): Promise<TestServer>;
}

/** Which databases the suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DATABASES: ('sqlite' | 'postgres')[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

let schemaCounter = 0;

/** A fresh PostgreSQL schema per server, so test files can run side by side. */
async function dropSchema(url: string) {
  const schema = /search_path%3D(\w+)|search_path=(\w+)/.exec(url);
  const name = schema?.[1] ?? schema?.[2];
  if (!name) return;
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  await client.end();
}

async function freshPostgresUrl(): Promise<string> {
  const base = process.env.TEST_DATABASE_URL!;
  const schema = `parley_test_${process.pid}_${Date.now()}_${schemaCounter++}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  // Its connections are told apart by name (pg_stat_activity), for the tests that end them.
  url.searchParams.set('application_name', schema);
  return url.toString();
}

export async function startTestServer(
  opts: { db?: 'sqlite' | 'postgres'; demo?: boolean; config?: Partial<Config> } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-data-'));
  const databaseUrl = opts.db === 'postgres' ? await freshPostgresUrl() : undefined;
  const config: Config = {
    ...configFromEnv({}),
    port: 0,
    dataDir,
    databaseUrl,
    scryptCost: 1024,
    rateLimitPerMinute: 100_000,
    longPollSeconds: 2,
    // Outgoing-webhook bots' servers in the tests listen on this machine.
    webhookAllow: ['loopback'],
    ...opts.config,
  };
  const server = await boot(config, opts.demo ?? true);
  return withCleanup(server, databaseUrl);
}

/** Drops the test's PostgreSQL schema when the last server on it closes. */
function withCleanup(server: TestServer, databaseUrl: string | undefined): TestServer {
  if (!databaseUrl) return server;
  const close = server.close;
  const restart = server.restart;
  return {
    ...server,
    async close() {
      await close();
      await dropSchema(databaseUrl);
    },
    async restart(opts) {
      return withCleanup(await restart(opts), databaseUrl);
    },
  };
}

async function boot(config: Config, demo: boolean): Promise<TestServer> {
  const server = await startServer(config, { demoPassword: demo ? DEMO_PASSWORD : undefined });
  const result: TestServer = {
    ...server,
    dataDir: config.dataDir,
    async restart(opts) {
      await server.close();
      if (!opts?.keepQueues) fs.rmSync(path.join(config.dataDir, QUEUES_FILE), { force: true });
      const port = opts?.samePort ? Number(new URL(server.url).port) : config.port;
      return boot({ ...config, port }, false);
    },
  };
  return result;
}
