import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { DEMO_PASSWORD } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What `npm start` runs: the server compiled by scripts/build-server.mjs, started with plain Node.
 * Built into a folder of its own under node_modules/.cache, so that a developer's dist-server/ is
 * left alone while the packages kept out of the bundle are still found.
 */
describe('the compiled server', () => {
  const outDir = path.join(root, 'node_modules', '.cache', `parley-build-test-${process.pid}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-built-'));
  let child: ChildProcess | undefined;
  let url = '';
  let output = '';

  /** Starts the built server on `dataDir` and waits until it prints its address. */
  async function startChild() {
    output = '';
    child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        PARLEY_DATA_DIR: dataDir,
        PARLEY_CLIENT_DIR: path.join(dataDir, 'no-client'),
        PARLEY_DEMO: '1',
        PARLEY_SCRYPT_COST: '1024',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    // main.ts logs the address (a JSON line) once the demo organization is in place.
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        const m = /"url":"(http:\/\/[^"]+)"/.exec(output);
        if (m && output.includes('Log in as')) {
          url = m[1]!;
          resolve();
        }
      };
      child!.stdout!.on('data', check);
      child!.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
  }

  beforeAll(async () => {
    const build = spawnSync(process.execPath, ['scripts/build-server.mjs', '--out', outDir], {
      cwd: root,
      encoding: 'utf8',
      timeout: 170_000,
    });
    expect(build.status, build.stderr).toBe(0);
    expect(fs.existsSync(path.join(outDir, 'main.js'))).toBe(true);

    await startChild();
  }, 240_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts, seeds the demo organization and answers the API', async () => {
    const settings = await new TestClient(url).get('/server_settings');
    expect(settings.status).toBe(200);
    expect(settings.body.realm_name).toBe('Parley Demo');
  });

  it('renders messages with the data files it reads at run time (emoji names, math)', async () => {
    const hamlet = await TestClient.login(url, 'hamlet@example.com', DEMO_PASSWORD);
    const sent = await hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'build check',
      content: 'ready :rocket: $$x^2$$',
    });
    expect(sent.status).toBe(200);
    const got = await hamlet.get(`/messages/${sent.body.id}`);
    expect(got.body.message.content).toContain('class="emoji emoji-1f680"');
    expect(got.body.message.content).toContain('class="katex"');
  });

  it('keeps every acknowledged message when the process is killed at once', async () => {
    const hamlet = await TestClient.login(url, 'hamlet@example.com', DEMO_PASSWORD);
    // Concurrent sends, so that several share a commit and its sync.
    const sent = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        hamlet.post('/messages', {
          type: 'stream',
          to: 'general',
          topic: 'kill',
          content: `m${i}`,
        }),
      ),
    );
    expect(sent.map((r) => r.status)).toEqual(Array(12).fill(200));
    const killed = new Promise((r) => child!.once('exit', r));
    child!.kill('SIGKILL');
    await killed;
    await startChild();
    const again = new TestClient(url, hamlet.email, hamlet.apiKey);
    for (const r of sent) {
      const got = await again.get(`/messages/${r.body.id}`);
      expect(got.status).toBe(200);
    }
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses a mistyped setting with one line and exit code 2', () => {
    for (const [name, value, must] of [
      ['PARLEY_RATE_LIMIT', '2OO', 'must be a whole number of requests per minute, at least 1'],
      ['PORT', 'abc', 'must be a port number from 0 to 65535'],
    ]) {
      const run = spawnSync(process.execPath, [path.join(outDir, 'main.js')], {
        cwd: root,
        env: { ...process.env, PARLEY_DATA_DIR: dataDir, [name]: value },
        encoding: 'utf8',
        timeout: 60_000,
      });
      const lines = `${run.stdout}${run.stderr}`.split('\n').filter(Boolean);
      expect(run.status, lines.join('\n')).toBe(2);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: 60,
        msg: `Invalid configuration: ${name} ${must}, not "${value}"`,
      });
    }
  });
});
