import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A real Parley server in its own process for end-to-end tests, on a fresh demo database, that
 * a test can stop and start again on the same data (the app must recover without a reload). It
 * runs the compiled server of dist-server/, built by the global setup.
 */
export class ServerProcess {
  private child: ChildProcess | null = null;
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-'));

  private chosenPort: number | null;

  /**
   * Without a port, a free one is picked at the first start and kept for restarts. `env` adds to
   * the server's environment (a mail server, say), read at each start.
   */
  constructor(
    port?: number,
    readonly env: Record<string, string> = {},
  ) {
    this.chosenPort = port ?? null;
  }

  get port(): number {
    if (this.chosenPort === null) throw new Error('the server has not been started yet');
    return this.chosenPort;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.chosenPort ??= await freePort();
    // The compiled server, as `npm start` runs it (built by global-setup.ts).
    const child = spawn(process.execPath, ['--enable-source-maps', 'dist-server/main.js'], {
      cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
      env: {
        ...process.env,
        PORT: String(this.port),
        PARLEY_DATA_DIR: this.dataDir,
        PARLEY_DEMO: '1',
        PARLEY_QUIET: '1',
        PARLEY_RATE_LIMIT: '100000',
        PARLEY_LONGPOLL_SECONDS: '20',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
      try {
        // Ready once the demo organization is seeded on a new database (503 until then).
        const r = await fetch(`${this.url}/ready`);
        if (r.ok) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`server did not start in time: ${output}`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.child = null;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** A port nothing listens on now, chosen by the system. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
