import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, test } from '@playwright/test';
import { startCluster, type RunningCluster } from '../server/test/process';
import { apiClient, logIn } from './helpers';

/**
 * `npm run cluster -- --processes 3` as people use it: two browsers chat through HAProxy while
 * processes are killed with SIGKILL, and neither notices more than a short reconnect. Needs
 * PostgreSQL (TEST_DATABASE_URL, a database of its own is made), Redis (keys of its own) and
 * Debian's HAProxy; steps aside without them. The server and client are the built ones.
 */
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].some((p) => fs.existsSync(p));
const available = !!process.env.TEST_DATABASE_URL && HAPROXY;

const database = `parley_e2e_cluster_${process.pid}`;
let cluster: RunningCluster | null = null;
let url = '';

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  await client.query(sql);
  await client.end();
}

test.skip(!available, 'needs TEST_DATABASE_URL and HAProxy');

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${database}`);
  const dbUrl = new URL(process.env.TEST_DATABASE_URL!);
  dbUrl.pathname = `/${database}`;
  cluster = await startCluster(3, {
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    PARLEY_REDIS_PREFIX: `${database}:`,
    PARLEY_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-cluster-')),
    PARLEY_CLUSTER_SERVER: `${process.execPath} dist-server/main.js`,
    LOG_LEVEL: 'warn',
  });
  url = cluster.url;
});

test.afterAll(async () => {
  await cluster?.stop();
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
});

test('two people chat through three processes while two of them are killed', async ({
  browser,
}) => {
  const api = await apiClient(url, 'hamlet@example.com');
  const general = (await api.get('/get_stream_id?stream=general')).stream_id;
  const topicPath = `/narrow/channel/${general}-general/topic/through%20the%20cluster`;
  const hamlet = await logIn(browser, url, 'hamlet@example.com', { path: topicPath });
  const othello = await logIn(browser, url, 'othello@example.com', { path: topicPath });
  const say = async (page: typeof hamlet, text: string) => {
    const box = page.getByLabel('Message', { exact: true });
    await box.fill(text);
    await box.press('Enter');
  };

  await say(hamlet, 'Before any crash.');
  await expect(othello.getByText('Before any crash.')).toBeVisible();
  for (const n of [2, 3]) {
    process.kill(cluster!.pidOf(n)!, 'SIGKILL');
    await say(hamlet, `Process ${n} is gone.`);
    // Live, without a reload: the next poll goes to a process still standing.
    await expect(othello.getByText(`Process ${n} is gone.`)).toBeVisible({ timeout: 15_000 });
  }
  await say(othello, 'And still we speak.');
  await expect(hamlet.getByText('And still we speak.')).toBeVisible({ timeout: 15_000 });
  // Nothing says the connection is lost once the messages flow again, and the organization's
  // icon (a link the processes write) loads through the balancer.
  for (const page of [hamlet, othello])
    await expect(page.getByRole('status').filter({ hasText: /offline|reconnect/i })).toHaveCount(0);
  const icon = await othello.evaluate(async () => {
    const img = document.querySelector<HTMLImageElement>('img[src*="realm-icon"]');
    return img ? img.naturalWidth : -1;
  });
  expect(icon).toBeGreaterThan(0);
  await othello.screenshot({ path: 'test-results/cluster-after-crashes.png' });
  // Each killed process was started again.
  await expect
    .poll(() => cluster!.output().match(/ended \(SIGKILL\): starting it again/g)?.length)
    .toBe(2);
});
