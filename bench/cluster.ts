/**
 * npm run bench:cluster: the read throughput of one process against three behind HAProxy
 * (`npm run cluster`), and the processor time each request costs, on a populated PostgreSQL
 * database (BENCH_DATABASE_URL, filled by `npm run manage -- populate`) and the Redis of
 * REDIS_URL (127.0.0.1:6379 by default).
 *
 * The reads are what clients do most besides long-polling: a page of a channel's newest messages
 * (GET /messages) and a register with the state a client fetches (POST /register, its queue
 * deleted after). 16 clients send them for 10 s through the balancer. On a machine with fewer
 * cores than processes the throughput cannot grow; the processor time per request, summed over
 * the server processes and HAProxy, shows what each request costs wherever it is served: when it
 * stays the same with three processes, three processes on three cores serve three times as much.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const CLIENTS = 16;
const SECONDS = 10;
const TICK_MS = 1000 / 100; // /proc's clock ticks (USER_HZ)

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Processor time a process has used so far, in ms (user and system). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.split(') ')[1]!.split(' ')[1]) === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Every process of the cluster (the script's children and theirs), for their processor time. */
function clusterPids(script: ChildProcess): number[] {
  const all: number[] = [];
  const walk = (pid: number) => {
    for (const child of childPids(pid)) {
      all.push(child);
      walk(child);
    }
  };
  walk(script.pid!);
  return all;
}

async function startCluster(processes: number) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-cluster-'));
  const script = spawn(
    process.execPath,
    ['scripts/cluster.mjs', '--processes', String(processes)],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: process.env.BENCH_DATABASE_URL,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        PARLEY_REDIS_PREFIX: `bench-cluster-${process.pid}:`,
        PARLEY_DATA_DIR: dataDir,
        PARLEY_DEMO: '0',
        PARLEY_RATE_LIMIT: '100000000',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  script.stdout!.on('data', (chunk) => (output += chunk));
  const until = Date.now() + 180_000;
  while (!output.includes('behind HAProxy on')) {
    if (script.exitCode !== null || Date.now() > until) throw new Error(`cluster: ${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const url = `http://127.0.0.1:${port}`;
  while ((await fetch(`${url}/ready`).catch(() => null))?.status !== 200)
    await new Promise((r) => setTimeout(r, 100));
  return { url, script, dataDir };
}

async function login(url: string, email: string) {
  const res = await fetch(`${url}/api/v1/fetch_api_key`, {
    method: 'POST',
    body: new URLSearchParams({ username: email, password: 'parley-demo' }),
  });
  const body = (await res.json()) as { api_key: string };
  return `Basic ${Buffer.from(`${email}:${body.api_key}`).toString('base64')}`;
}

/** CLIENTS loops of reads for SECONDS: how many answered, and how many failed. */
async function load(url: string, auth: string[]) {
  const narrow = encodeURIComponent(JSON.stringify([{ operator: 'channel', operand: 'firehose' }]));
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  let failed = 0;
  const loop = async (i: number) => {
    const headers = { authorization: auth[i % auth.length]! };
    for (let n = 0; performance.now() < until; n++) {
      const register = n % 4 === 3;
      const res = register
        ? await fetch(`${url}/api/v1/register`, {
            method: 'POST',
            headers,
            body: new URLSearchParams({ event_types: '["message"]' }),
          })
        : await fetch(`${url}/api/v1/messages?anchor=newest&num_before=50&num_after=0&narrow=${narrow}`, { headers }); // prettier-ignore
      const body = (await res.json()) as { result: string; queue_id?: string };
      if (body.result !== 'success') failed++;
      else done++;
      if (register && body.queue_id)
        await fetch(`${url}/api/v1/events`, {
          method: 'DELETE',
          headers,
          body: new URLSearchParams({ queue_id: body.queue_id }),
        });
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => loop(i)));
  return { done, failed };
}

async function measure(processes: number) {
  const { url, script, dataDir } = await startCluster(processes);
  try {
    const people = ['admin@populated.example'];
    const auth = await Promise.all(people.map((email) => login(url, email)));
    // Warm-up, not counted: every process compiles its hot paths and fills its caches.
    for (let i = 0; i < processes; i++) await load(url, auth);
    const pids = clusterPids(script).filter((pid) => pid !== script.pid);
    const before = pids.map(cpuMs);
    const started = performance.now();
    const { done, failed } = await load(url, auth);
    const seconds = (performance.now() - started) / 1000;
    const used = pids.reduce((sum, pid, i) => sum + cpuMs(pid) - before[i]!, 0);
    return {
      processes,
      reads_per_s: Math.round(done / seconds),
      failed,
      cpu_ms_per_read: Math.round((used / done) * 100) / 100,
    };
  } finally {
    script.kill('SIGTERM');
    await new Promise((r) => script.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!process.env.BENCH_DATABASE_URL)
  throw new Error(
    'npm run bench:cluster needs BENCH_DATABASE_URL, a populated PostgreSQL database',
  );
const one = await measure(1);
console.log(JSON.stringify({ bench: 'cluster_reads', ...one }));
const three = await measure(3);
console.log(JSON.stringify({ bench: 'cluster_reads', ...three }));
console.log(
  JSON.stringify({
    bench: 'cluster_3_vs_1',
    throughput_ratio: Math.round((three.reads_per_s / one.reads_per_s) * 100) / 100,
    cpu_per_read_ratio: Math.round((three.cpu_ms_per_read / one.cpu_ms_per_read) * 100) / 100,
    cores: os.cpus().length,
  }),
);
