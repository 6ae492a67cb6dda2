// npm run cluster -- --processes N: N Parley processes behind Debian's HAProxy, on one port, to
// try a deployment of several processes on one machine. They share the PostgreSQL database and
// the Redis named by DATABASE_URL and REDIS_URL (event queues, rate limits and caches live
// there), and HAProxy runs deploy/haproxy/parley.cfg with their addresses. A process that dies is
// started again a second later, as systemd would. Ctrl-C (or SIGTERM) stops them all.
//
// PORT (9991) is HAProxy's; the processes listen on free ports of 127.0.0.1, each with its own
// data directory under PARLEY_DATA_DIR (./data): cluster-1, cluster-2...
// PARLEY_CLUSTER_SERVER names the command that runs one process (default: npm start's script,
// which builds what is missing); the tests run the TypeScript sources with it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function fail(message) {
  console.error(`npm run cluster: ${message}`);
  process.exit(1);
}

function processCount(argv) {
  const i = argv.findIndex((a) => a === '--processes' || a.startsWith('--processes='));
  if (i === -1) return 3;
  const raw = argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 32)
    fail('--processes takes a whole number from 1 to 32');
  return n;
}

function haproxyBinary() {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/bin/haproxy'])
    if (fs.existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  fail("HAProxy is not installed: on Debian, 'apt-get install haproxy'");
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function waitReady(port, child, ms = 180_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) return false;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/ready`);
      if (res.status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** deploy/haproxy/parley.cfg with this machine's port and servers in place of the examples. */
function haproxyConfig(port, ports) {
  const shipped = fs.readFileSync(path.join(root, 'deploy/haproxy/parley.cfg'), 'utf8');
  const servers = ports.map((p, i) => `    server parley${i + 1} 127.0.0.1:${p}`).join('\n');
  const config = shipped
    .replace(/^( *bind )\S+$/m, `$1${listenHost}:${port}`)
    .replace(
      /( {4}# servers \(replaced by `npm run cluster`\)\n)[\s\S]*?( {4}# end of servers)/,
      `$1${servers}\n$2`,
    );
  if (config === shipped) fail('deploy/haproxy/parley.cfg has no server list to replace');
  return config;
}

const count = processCount(process.argv.slice(2));
const port = Number(process.env.PORT ?? 9991);
if (!process.env.DATABASE_URL)
  fail('set DATABASE_URL to the PostgreSQL database the processes share (postgres://...)');
if (!process.env.REDIS_URL) fail('set REDIS_URL to the Redis the processes share (redis://...)');
const haproxy = haproxyBinary();
const dataRoot = path.resolve(process.env.PARLEY_DATA_DIR ?? path.join(root, 'data'));
const serverCommand = process.env.PARLEY_CLUSTER_SERVER ?? `${process.execPath} scripts/start.mjs`;

const listenHost = process.env.HOST ?? '0.0.0.0';
const publicUrl = `http://${['0.0.0.0', '::'].includes(listenHost) ? '127.0.0.1' : listenHost}:${port}`;
const ports = [];
for (let i = 0; i < count; i++) ports.push(await freePort());
const children = new Array(count).fill(null);
let stopping = false;

/** Starts process `i` (0-based); resolves once it is ready, or false if it never was. */
function startProcess(i) {
  const [cmd, ...args] = serverCommand.split(' ').filter(Boolean);
  const env = {
    ...process.env,
    PORT: String(ports[i]),
    HOST: '127.0.0.1',
    PARLEY_DATA_DIR: path.join(dataRoot, `cluster-${i + 1}`),
    // The client's address comes from HAProxy's X-Forwarded-For.
    PARLEY_TRUSTED_PROXIES: process.env.PARLEY_TRUSTED_PROXIES ?? 'loopback',
    // Links the processes write (icons, mails) name HAProxy's address, not their own.
    PARLEY_EXTERNAL_URL: process.env.PARLEY_EXTERNAL_URL ?? publicUrl,
  };
  const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  children[i] = child;
  console.log(`process ${i + 1}: pid ${child.pid}, port ${ports[i]}`);
  child.on('exit', (code, signal) => {
    if (stopping || children[i] !== child) return;
    console.log(`process ${i + 1} (pid ${child.pid}) ended (${signal ?? code}): starting it again`);
    setTimeout(() => {
      if (!stopping) void startProcess(i);
    }, 1000);
  });
  return waitReady(ports[i], child);
}

let balancer = null;
function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  balancer?.kill('SIGTERM');
  for (const child of children) child?.kill('SIGTERM');
  setTimeout(() => process.exit(code), 200).unref();
  Promise.all(
    children
      .filter(Boolean)
      .map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on('exit', r)))),
  ).then(() => process.exit(code));
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

// The first process alone, so that it migrates (and seeds an empty database) before the others.
if (!(await startProcess(0))) {
  console.error('npm run cluster: the first process did not become ready');
  stopAll(1);
} else {
  const rest = await Promise.all(ports.slice(1).map((_, j) => startProcess(j + 1)));
  if (rest.some((ok) => !ok)) {
    console.error('npm run cluster: a process did not become ready');
    stopAll(1);
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cluster-'));
    const configFile = path.join(dir, 'haproxy.cfg');
    fs.writeFileSync(configFile, haproxyConfig(port, ports));
    balancer = spawn(haproxy, ['-W', '-db', '-f', configFile], { stdio: 'inherit' });
    balancer.on('exit', (code) => {
      if (!stopping) {
        console.error(`npm run cluster: HAProxy ended (${code})`);
        stopAll(1);
      }
    });
    console.log(`Parley: ${count} processes behind HAProxy on ${publicUrl}`);
  }
}
