import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { configFromEnv, type Config } from '../config.js';
import { DataDirLockedError, openDatabase } from '../db/index.js';
import { runManage } from '../manage.js';
import { startServer } from '../server.js';
import { TestClient } from './client.js';

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
        ['create-user', '--email', 'ann@acme.test', '--full-name', 'Ann again', '--password', 'x'],
        config,
      ),
    ).toBe(1);
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

  it('takes over a lock left by a process that died', async () => {
    const cfg = tempConfig();
    fs.writeFileSync(path.join(cfg.dataDir, 'parley.lock'), '999999999');
    const db = await openDatabase({ dataDir: cfg.dataDir });
    await db.close();
  });
});
