import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchResult } from './client.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A port nothing listens on now, chosen by the system. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The command line of `npm run manage -- ARGS`, as npm runs it (the compiled commands). */
export const MANAGE_COMMAND = (args: string[]) => [process.execPath, 'scripts/manage.mjs', ...args];

/**
 * `npm run manage -- ARGS` in a child process with the given environment over this one's, and
 * `input` on its standard input: its exit code and what it wrote.
 */
export function runManageProcess(args: string[], env: Record<string, string>, input = '') {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const [command, ...rest] = MANAGE_COMMAND(args);
    const child = spawn(command, rest, { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** A fresh data directory, removed by `removeDataDir`. */
export const tempDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'parley-process-'));
export const removeDataDir = (dir: string) => fs.rmSync(dir, { recursive: true, force: true });

/**
 * The server as `npm start` runs it (the bundle in dist-server/, which the tests' global set-up
 * builds), in a child process with its own environment: what it prints, its exit code and signals.
 */
export class ServerProcess {
  readonly child: ChildProcess;
  /** everything it wrote, standard output and standard error together */
  output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--enable-source-maps', 'dist-server/main.js'], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PARLEY_CLIENT_DIR: path.join(os.tmpdir(), 'parley-no-client'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d) => (this.output += d));
    this.child.stderr!.on('data', (d) => (this.output += d));
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  /** Its output, line by line, without empty lines. */
  get lines(): string[] {
    return this.output.split('\n').filter((l) => l.trim() !== '');
  }

  /** Resolves once `done` holds, checked every few milliseconds; fails if the process exits. */
  async until<T>(done: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`the server exited: ${this.output}`);
      const value = await done();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out; the server wrote: ${this.output}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM') {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** GET `url`: its status and body (JSON or text), or undefined while nothing listens. */
export async function probe(
  url: string,
): Promise<{ status: number; body: any; headers: Headers } | undefined> {
  try {
    return await fetchResult(url);
  } catch {
    return undefined;
  }
}

/** `npm run cluster` running in a child process (startCluster). */
export interface RunningCluster {
  /** HAProxy's address: the one port of the cluster */
  url: string;
  child: ChildProcess;
  /** what the command and its processes have written so far */
  output(): string;
  /** the pid the cluster last started for process `n` (1, 2…) */
  pidOf(n: number): number | undefined;
  /** every process's last pid, by its number */
  pids(): Map<number, number>;
  stop(): Promise<void>;
}

/**
 * `npm run cluster -- --processes N` with `env` over this process's (DATABASE_URL, REDIS_URL,
 * PARLEY_CLUSTER_SERVER…) on a free port; resolves once HAProxy answers /ready with 200, and
 * throws with the end of the output if the cluster ends or has not started in 150 s.
 */
export async function startCluster(
  processes: number,
  env: Record<string, string>,
): Promise<RunningCluster> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['scripts/cluster.mjs', '--processes', String(processes)], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const pids = () =>
    [...output.matchAll(/process (\d+): pid (\d+)/g)].reduce(
      (byProcess, [, n, pid]) => byProcess.set(Number(n), Number(pid)),
      new Map<number, number>(),
    );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const until = Date.now() + 150_000;
  while ((await fetch(`${url}/ready`).catch(() => null))?.status !== 200) {
    if (child.exitCode !== null || Date.now() > until) {
      await stop();
      throw new Error(`the cluster did not start:\n${output.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, child, output: () => output, pidOf: (n) => pids().get(n), pids, stop };
}
