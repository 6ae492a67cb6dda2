/**
 * deploy/: what an operator installs beside the server, each file used on this machine the way
 * the operator would use it. The systemd unit is checked by systemd's own tools and its ExecStart
 * run with the environment systemd would give it; the nginx site is put inside Debian's
 * nginx.conf and two people chat through it over HTTPS; the logrotate snippet rotates a file.
 * Every shipped file is read as shipped, with its known placeholder values (host name,
 * certificate paths, ports, directories) replaced by plain string replacement.
 *
 * This file is longer than most: the helpers that start nginx and speak HTTPS to it serve only it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_UPLOAD_BYTES } from '../actions/uploads.js';
import { COMPRESS_THRESHOLD } from '../app.js';
import { configFromEnv } from '../config.js';
import { MAX_BODY_BYTES } from '../http/body.js';
import { TestClient } from './client.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const shipped = (...parts: string[]) =>
  fs.readFileSync(path.join(root, 'deploy', ...parts), 'utf8');
const isRoot = process.getuid?.() === 0;

// ---------------------------------------------------------------------------------------------
// Reading the shipped files

/** `text` with each known value replaced; a value missing from the shipped file fails loudly. */
function render(text: string, replacements: [from: string, to: string][]): string {
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`expected "${from}" in the shipped file`);
    text = text.split(from).join(to);
  }
  return text;
}

/** One section of a unit file, its settings in order, as systemd reads them. */
function unitSection(text: string, section: string): [string, string][] {
  const settings: [string, string][] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) current = header[1]!;
    else if (line.endsWith('\\'))
      throw new Error(`a continued line, which this reader skips: ${line}`);
    else if (current === section) {
      const eq = line.indexOf('=');
      settings.push([line.slice(0, eq).trim(), line.slice(eq + 1).trim()]);
    }
  }
  return settings;
}

const setting = (settings: [string, string][], key: string) =>
  settings.filter(([k]) => k === key).at(-1)?.[1];

/**
 * An environment file as systemd reads it, limited to what both systemd and /bin/sh read alike
 * (deploy/parley-manage sources the same file): KEY=value, a value plain or in single quotes.
 */
function readEnvironmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!m) throw new Error(`not a KEY=value line: ${line}`);
    const quoted = /^'([^']*)'$/.exec(m[2]!);
    if (!quoted && /[\s'"\\$`&;|<>()]/.test(m[2]!))
      throw new Error(`a value that systemd and sh read differently: ${line}`);
    env[m[1]!] = quoted ? quoted[1]! : m[2]!;
  }
  return env;
}

/** Name, ids, home and shell of a local account, from /etc/passwd. */
function account(name: string) {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no account ${name}`);
  const [, , uid, gid, , home, shell] = line.split(':');
  return { name, uid: Number(uid), gid: Number(gid), home: home!, shell: shell! };
}

/** Where a command is, or null. */
function commandPath(name: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  if (found.status === 0) return found.stdout.trim();
  const sbin = `/usr/sbin/${name}`;
  return fs.existsSync(sbin) ? sbin : null;
}

/** A path for a directory of this run, made by the tests that run (not by those filtered out). */
const temporaryPath = (prefix: string) =>
  path.join(os.tmpdir(), `${prefix}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);

/** A TCP port nobody listens on right now: bound, read and released. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function canListen(host: string, port: number): Promise<boolean> {
  const probe = net.createServer();
  const ok = await new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => resolve(true));
  });
  if (ok) await new Promise((resolve) => probe.close(resolve));
  return ok;
}

/** Waits for `check` to hold, giving up after `seconds` (generous: the machine may be busy). */
async function until(what: string, check: () => boolean | Promise<boolean>, seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Stops a child: `signal`, then SIGKILL to its process group after `seconds`. */
async function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals, seconds = 20) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  const timer = new Promise((r) => setTimeout(r, seconds * 1000, 'timeout'));
  if ((await Promise.race([exited, timer])) === 'timeout') {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
}

const serviceText = shipped('parley.service');
const service = unitSection(serviceText, 'Service');
const envText = shipped('parley.env');
const siteText = shipped('nginx', 'parley.conf');

// ---------------------------------------------------------------------------------------------

describe('deploy: the files agree with each other and with the server', () => {
  it('the unit runs the compiled server as an unprivileged user, restarted on failure, stopped by SIGTERM', () => {
    expect(setting(service, 'User')).toBe('parley');
    expect(setting(service, 'WorkingDirectory')).toBe('/opt/parley');
    expect(setting(service, 'EnvironmentFile')).toBe('/etc/parley/parley.env');
    // scripts/build-server.mjs writes dist-server/main.js; npm start runs the same file.
    expect(setting(service, 'ExecStart')).toBe(
      '/usr/bin/node --enable-source-maps dist-server/main.js',
    );
    expect(setting(service, 'Restart')).toBe('on-failure');
    expect(setting(service, 'KillSignal') ?? 'SIGTERM').toBe('SIGTERM');
    expect(Number.parseInt(setting(service, 'TimeoutStopSec')!)).toBeGreaterThanOrEqual(10);
    for (const [key, value] of [
      ['NoNewPrivileges', 'yes'],
      ['ProtectSystem', 'strict'],
      ['ProtectHome', 'yes'],
      ['PrivateTmp', 'yes'],
      ['PrivateDevices', 'yes'],
      ['CapabilityBoundingSet', ''],
    ])
      expect(setting(service, key!), key).toBe(value);
  });

  it('the unit may write the data directory the environment file names, and nothing else', () => {
    const env = readEnvironmentFile(envText);
    expect(env.PARLEY_DATA_DIR).toBe('/var/lib/parley');
    expect(setting(service, 'ReadWritePaths')).toBe(env.PARLEY_DATA_DIR);
    expect(`/var/lib/${setting(service, 'StateDirectory')}`).toBe(env.PARLEY_DATA_DIR);
  });

  it('the environment file has the server on loopback where nginx sends, believing nginx only', () => {
    const env = readEnvironmentFile(envText);
    expect(env).toMatchObject({
      HOST: '127.0.0.1',
      PORT: '9991',
      PARLEY_TRUSTED_PROXIES: '127.0.0.1',
      PARLEY_DEMO: '0',
      PARLEY_EXTERNAL_URL: 'https://chat.example.com',
    });
    expect(siteText).toContain(`server ${env.HOST}:${env.PORT};`);
    // Every variable it sets is one the server reads.
    const sources = (fs.readdirSync(path.join(root, 'server'), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !f.includes('test'))
      .map((f) => fs.readFileSync(path.join(root, 'server', f), 'utf8'))
      .join('\n');
    for (const key of Object.keys(env)) expect(sources, key).toMatch(new RegExp(`\\b${key}\\b`));
  });

  it('the environment file reads the same to /bin/sh as to systemd', () => {
    const file = path.join(os.tmpdir(), `parley-env-${process.pid}`);
    const withExamples = envText.replace(/^#([A-Z_]+=.*)$/gm, '$1'); // the commented ones too
    fs.writeFileSync(file, withExamples);
    try {
      const sh = spawnSync('sh', ['-c', 'set -a; . "$1"; exec env', 'sh', file], {
        encoding: 'utf8',
        env: {},
      });
      expect(sh.status, sh.stderr).toBe(0);
      const seenBySh = Object.fromEntries(
        sh.stdout.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      const seenBySystemd = readEnvironmentFile(withExamples);
      expect(Object.keys(seenBySystemd).length).toBeGreaterThan(10);
      for (const [key, value] of Object.entries(seenBySystemd))
        expect(seenBySh[key], key).toBe(value);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('nginx lets through the largest request the server takes, and waits out a long-poll', () => {
    const maxBody = /client_max_body_size (\d+)m;/.exec(siteText);
    const bodyBytes = Number(maxBody![1]) * 1024 * 1024;
    expect(bodyBytes).toBeGreaterThanOrEqual(MAX_BODY_BYTES);
    // A file of the largest size with its multipart envelope (boundaries, part headers).
    expect(bodyBytes).toBeGreaterThanOrEqual(MAX_FILE_UPLOAD_BYTES + 64 * 1024);
    expect(bodyBytes).toBeLessThanOrEqual(MAX_FILE_UPLOAD_BYTES + 2 * 1024 * 1024);

    const events = /location = \/api\/v1\/events \{([^}]*)\}/.exec(siteText)![1]!;
    const readTimeout = Number(/proxy_read_timeout (\d+)s;/.exec(events)![1]);
    // Clients wait the long-poll plus 40 s (event_queue_longpoll_timeout_seconds) before giving up.
    expect(readTimeout).toBeGreaterThan(configFromEnv({}).longPollSeconds + 40);
    expect(events).toContain('proxy_buffering off;');
    expect(siteText).toContain(`gzip_min_length ${COMPRESS_THRESHOLD};`);
  });
});

// ---------------------------------------------------------------------------------------------

const systemdAnalyze = commandPath('systemd-analyze');
if (!systemdAnalyze)
  console.warn('deploy: systemd-analyze is not installed (Debian: systemd); its checks step aside');

describe.skipIf(!systemdAnalyze)('deploy: systemd-analyze on parley.service', () => {
  /** The unit, with node where it is on this machine if that is not /usr/bin/node. */
  function unitHere(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-unit-'));
    const file = path.join(dir, 'parley.service');
    fs.writeFileSync(
      file,
      process.execPath === '/usr/bin/node'
        ? serviceText
        : render(serviceText, [['/usr/bin/node', process.execPath]]),
    );
    return file;
  }

  it('verify finds nothing to say about the unit', () => {
    const file = unitHere();
    const verify = spawnSync(systemdAnalyze!, ['verify', file], { encoding: 'utf8' });
    fs.rmSync(path.dirname(file), { recursive: true });
    const about = (verify.stdout + verify.stderr).split('\n').filter((l) => l.includes('parley'));
    expect(about).toEqual([]);
    expect(verify.status, verify.stderr).toBe(0);
  });

  it('its sandbox rates an exposure of 2 or less ("OK") in the offline security review', () => {
    const file = unitHere();
    const review = spawnSync(systemdAnalyze!, ['security', '--offline=true', file], {
      encoding: 'utf8',
    });
    fs.rmSync(path.dirname(file), { recursive: true });
    const level = /Overall exposure level for parley\.service: ([\d.]+)/.exec(review.stdout);
    expect(level, review.stdout + review.stderr).not.toBeNull();
    expect(Number(level![1])).toBeLessThanOrEqual(2);
  });
});

// ---------------------------------------------------------------------------------------------

describe('deploy: parley.service started as systemd would start it', () => {
  // The install directory as deploy/README.md lays it out in /opt/parley: the sources, their
  // node_modules (linked here), and the server built into dist-server/ inside it. Not under
  // /tmp, which the sandbox below replaces with a private one (PrivateTmp=).
  const work = path.join(
    root,
    'node_modules',
    '.cache',
    path.basename(temporaryPath('parley-deploy')),
  );
  const installDir = path.join(work, 'opt-parley');
  const dataDir = path.join(work, 'var-lib-parley');
  const backupsDir = path.join(work, 'var-backups-parley');
  const envFile = path.join(work, 'parley.env');
  // systemd would switch to User=parley; here an existing unprivileged account stands in.
  const runAs = isRoot ? account('nobody') : account(os.userInfo().username);
  const sandbox =
    isRoot && !!commandPath('setpriv') && spawnSync('unshare', ['--mount', 'true']).status === 0;
  if (!sandbox) console.warn('deploy: no unshare --mount here; the service runs unsandboxed');
  const owner = { email: 'owner@deploy.example', password: 'a long deploy password' };
  let child: ChildProcess | undefined;
  let output = '';
  let url = '';

  /** deploy/parley-manage, pointed at this installation. */
  function manage(args: string[], input?: string) {
    return spawnSync(path.join(root, 'deploy', 'parley-manage'), args, {
      encoding: 'utf8',
      input,
      timeout: 120_000,
      env: {
        PATH: process.env.PATH,
        PARLEY_ENV_FILE: envFile,
        PARLEY_INSTALL_DIR: installDir,
        PARLEY_USER: runAs.name,
      },
    });
  }

  /** A directory owned by the service's user, as deploy/README.md has the operator make them. */
  function serviceDirectory(dir: string) {
    fs.mkdirSync(dir, { mode: 0o750 });
    if (isRoot) fs.chownSync(dir, runAs.uid, runAs.gid);
  }

  beforeAll(async () => {
    fs.mkdirSync(installDir, { recursive: true, mode: 0o755 });
    // Copies, not links: manage.ts runs only when it is the script Node was given, by real path.
    for (const entry of ['server', 'src', 'package.json', 'tsconfig.json'])
      fs.cpSync(path.join(root, entry), path.join(installDir, entry), { recursive: true });
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(installDir, 'node_modules'));
    const build = spawnSync(
      process.execPath,
      ['scripts/build-server.mjs', '--out', path.join(installDir, 'dist-server')],
      { cwd: root, encoding: 'utf8', timeout: 170_000 },
    );
    expect(build.status, build.stderr).toBe(0);
    serviceDirectory(dataDir);
    serviceDirectory(backupsDir);
    const port = await freePort();
    fs.writeFileSync(
      envFile,
      render(envText, [
        ['PORT=9991', `PORT=${port}`],
        ['PARLEY_DATA_DIR=/var/lib/parley', `PARLEY_DATA_DIR=${dataDir}`],
      ]),
    );
    url = `http://127.0.0.1:${port}`;

    // The organization, made as deploy/README.md says, through parley-manage.
    const made = manage(
      ['create-realm', '--name', 'Deploy Test', '--owner-email', owner.email].concat([
        '--owner-name',
        'Owner',
        '--password-stdin',
      ]),
      `${owner.password}\n`,
    );
    expect(made.status, made.stdout + made.stderr).toBe(0);
  }, 300_000);

  afterAll(async () => {
    await stopChild(child, 'SIGTERM');
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** The environment systemd gives the process: its own few variables, Environment=, then the file. */
  function systemdEnvironment(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      HOME: runAs.home,
      USER: runAs.name,
      LOGNAME: runAs.name,
      SHELL: runAs.shell,
      INVOCATION_ID: crypto.randomBytes(16).toString('hex'),
      STATE_DIRECTORY: dataDir,
    };
    for (const [key, value] of service)
      if (key === 'Environment') {
        const eq = value.indexOf('=');
        env[value.slice(0, eq)] = value.slice(eq + 1);
      }
    return { ...env, ...readEnvironmentFile(fs.readFileSync(envFile, 'utf8')) };
  }

  /** ExecStart as systemd splits it, with this machine's node. */
  function execStart(): [string, string[]] {
    const line = setting(service, 'ExecStart')!;
    expect(line).toMatch(/^[^'"%$\\]+$/); // nothing systemd would unquote or expand
    const [node, ...args] = line.split(/\s+/);
    return [node === '/usr/bin/node' ? process.execPath : node!, args];
  }

  /**
   * What systemd does around ExecStart, as far as unshare and setpriv can play it when the tests
   * run as root: ProtectSystem=strict (the root file system read-only), ReadWritePaths= (the data
   * directory writable), PrivateTmp= (a /tmp of its own), NoNewPrivileges=, no capabilities, and
   * the switch to the service's user. Otherwise ExecStart runs as it is, as the current user.
   */
  function sandboxed([command, args]: [string, string[]]): [string, string[]] {
    if (!sandbox) return [command, args];
    const script = [
      'set -e',
      'data=$1; uid=$2; gid=$3; shift 3',
      'mount --bind "$data" "$data"',
      'mount -o remount,bind,ro /',
      'mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /tmp',
      'exec setpriv --no-new-privs --reuid "$uid" --regid "$gid" --clear-groups \\',
      '  --inh-caps -all --bounding-set -all "$@"',
    ].join('\n');
    const ids = [String(runAs.uid), String(runAs.gid)];
    return ['unshare', ['--mount', 'sh', '-c', script, 'sh', dataDir, ...ids, command, ...args]];
  }

  /** Starts the service and waits, as a load balancer would (deploy/README.md), for GET /ready. */
  async function startService() {
    output = '';
    const [command, args] = sandboxed(execStart());
    const started = spawn(command, args, {
      cwd: installDir,
      env: systemdEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child = started;
    started.stdout!.on('data', (d) => (output += d));
    started.stderr!.on('data', (d) => (output += d));
    process.once('exit', () => started.kill('SIGTERM'));
    await until('the service to be ready', async () => {
      if (started.exitCode !== null) throw new Error(`exited with ${started.exitCode}: ${output}`);
      return fetch(`${url}/ready`).then(
        (r) => r.ok,
        () => false,
      );
    });
  }

  /** The contents of the organization's latest messages. */
  async function messages(client: TestClient): Promise<string[]> {
    const page = await client.get('/messages', { anchor: 'newest', num_before: 50, num_after: 0 });
    return page.body.messages.map((m: { content: string }) => m.content);
  }

  it('ExecStart starts the server from the install directory with the environment file, as the service user, in its sandbox', async () => {
    await startService();
    const settings = await new TestClient(url).get('/server_settings');
    // Read from the environment file: the external address and the organization parley-manage made.
    expect(settings.body.realm_uri).toBe('https://chat.example.com');
    expect(settings.body.realm_name).toBe('Deploy Test');
    const client = await TestClient.login(url, owner.email, owner.password);
    expect((await client.get('/users/me')).body).toMatchObject({ email: owner.email, role: 100 });
    // It writes where it may: a message into the database, a file among the uploads.
    const sent = await client.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'deploy',
      content: 'Written from inside the sandbox',
    });
    expect(sent.body).toMatchObject({ result: 'success' });
    const uploaded = await client.post('/user_uploads', { file: new File(['a note'], 'note.txt') });
    expect(uploaded.body).toMatchObject({ result: 'success' });
    for (const entry of fs.readdirSync(dataDir))
      expect(fs.statSync(path.join(dataDir, entry)).uid, entry).toBe(runAs.uid);
    if (sandbox) {
      // The process as the kernel sees it: its user, no new privileges, no capabilities...
      const status = fs.readFileSync(`/proc/${child!.pid}/status`, 'utf8');
      expect(status).toMatch(new RegExp(`^Uid:\\s+${runAs.uid}\\s`, 'm'));
      expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
      expect(status).toMatch(/^CapBnd:\s+0+$/m);
      // ...and its mounts: / read-only, the data directory writable, /tmp its own.
      const mounts = new Map(
        fs
          .readFileSync(`/proc/${child!.pid}/mountinfo`, 'utf8')
          .trim()
          .split('\n')
          .map((line) => line.split(' '))
          .map((f) => [f[4]!, `${f[5]!.split(',')[0]} ${f[f.indexOf('-') + 1]}`]),
      );
      expect(mounts.get('/')).toMatch(/^ro /);
      expect(mounts.get(dataDir)).toMatch(/^rw /);
      expect(mounts.get('/tmp')).toBe('rw tmpfs');
    }
  }, 120_000);

  it('parley-manage backup writes an archive as the service user while the service runs', async () => {
    const made = manage(['backup', path.join(backupsDir, 'parley.tar.gz')]);
    expect(made.status, made.stdout + made.stderr).toBe(0);
    const archive = path.join(backupsDir, 'parley.tar.gz');
    expect(fs.statSync(archive).uid).toBe(runAs.uid);
    const listed = spawnSync('tar', ['-tf', archive], { encoding: 'utf8' });
    expect(listed.stdout, listed.stderr).toMatch(/note\.txt$/m); // the upload went in with the database
    // Written after the backup: gone again once it is restored.
    const client = await TestClient.login(url, owner.email, owner.password);
    const sent = await client.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'deploy',
      content: 'Written after the backup',
    });
    expect(sent.body).toMatchObject({ result: 'success' });
  }, 120_000);

  it('a mistyped setting ends it with exit status 2, which the unit does not restart', async () => {
    expect(setting(service, 'RestartPreventExitStatus')).toBe('2');
    const [command, args] = execStart();
    const refused = spawnSync(command, args, {
      cwd: installDir,
      env: { ...systemdEnvironment(), PORT: 'nine thousand' },
      encoding: 'utf8',
      timeout: 60_000,
      ...(isRoot ? { uid: runAs.uid, gid: runAs.gid } : {}),
    });
    expect(refused.status, refused.stdout + refused.stderr).toBe(2);
    expect(refused.stdout + refused.stderr).toContain('PORT');
  }, 90_000);

  it('SIGTERM stops it within TimeoutStopSec with exit status 0, a long-poll open', async () => {
    expect(child?.exitCode).toBeNull();
    const client = await TestClient.login(url, owner.email, owner.password);
    const queue = (await client.post('/register', { event_types: ['message'] })).body;
    const parked = client
      .get('/events', { queue_id: queue.queue_id, last_event_id: queue.last_event_id })
      .catch((err: Error) => err);
    await new Promise((r) => setTimeout(r, 300));
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      child!.once('exit', (code, signal) => resolve([code, signal])),
    );
    child!.kill(setting(service, 'KillSignal') as NodeJS.Signals);
    const limit = Number.parseInt(setting(service, 'TimeoutStopSec')!) * 1000;
    const outcome = await Promise.race([
      exited,
      new Promise((r) => setTimeout(r, limit, 'still running')),
    ]);
    expect(outcome, output).toEqual([0, null]);
    await parked; // answered or cut off, but not left hanging
  }, 60_000);

  it('parley-manage restore --force puts the backup back once it has stopped, and it starts on it', async () => {
    expect(child?.exitCode).toBe(0);
    const restored = manage(['restore', '--force', path.join(backupsDir, 'parley.tar.gz')]);
    expect(restored.status, restored.stdout + restored.stderr).toBe(0);
    await startService();
    const client = await TestClient.login(url, owner.email, owner.password);
    const contents = (await messages(client)).join('\n');
    expect(contents).toContain('Written from inside the sandbox');
    expect(contents).not.toContain('Written after the backup');
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------

const nginxBinary = commandPath('nginx');
const openssl = commandPath('openssl');
const debianNginxConf = '/etc/nginx/nginx.conf';
const nginxAbsent = !nginxBinary
  ? 'nginx is not installed (Debian: apt-get install nginx)'
  : !openssl
    ? 'openssl is not installed (Debian: apt-get install openssl)'
    : !fs.existsSync(debianNginxConf)
      ? `${debianNginxConf} is missing (Debian's nginx package installs it)`
      : '';
if (nginxAbsent) console.warn(`deploy: ${nginxAbsent}; the nginx tests step aside`);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

/** What reached the server through nginx: the request, and the encoding of the server's answer. */
interface Upstream {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  done: boolean;
  encoding?: string;
}

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

function decoded(answer: Answer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body);
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body);
  expect(encoding).toBeUndefined();
  return answer.body;
}

const json = (answer: Answer) => JSON.parse(decoded(answer).toString('utf8'));

/** How many times a header appears in an answer (Node joins repeated ones into one value). */
const times = (answer: Answer, name: string) =>
  answer.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === name).length;

describe.skipIf(!!nginxAbsent)('deploy: the nginx site in front of a server, over HTTPS', () => {
  const work = temporaryPath('parley-nginx');
  const tlsDir = path.join(work, 'tls');
  const clientDir = path.join(work, 'client');
  const siteFile = path.join(work, 'parley.conf');
  const confFile = path.join(work, 'nginx.conf');
  const upstream: Upstream[] = [];
  let server: TestServer;
  let nginx: ChildProcess | undefined;
  let nginxOutput = '';
  let ca: Buffer;
  let agent: https.Agent;
  let httpPort = 0;
  let httpsPort = 0;
  let ipv6 = false;

  /** A certificate authority and a certificate for localhost signed by it, as certbot would leave them. */
  function makeCertificates() {
    fs.mkdirSync(tlsDir, { mode: 0o700 });
    fs.writeFileSync(
      path.join(tlsDir, 'server.ext'),
      'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nextendedKeyUsage=serverAuth\n',
    );
    const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    for (const args of [
      ['req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2'].concat([
        '-subj',
        '/CN=Parley deploy test CA',
        '-addext',
        'basicConstraints=critical,CA:TRUE',
      ]),
      ['req', ...key, '-keyout', 'privkey.pem', '-out', 'server.csr', '-subj', '/CN=localhost'],
      ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key'].concat([
        '-CAcreateserial',
        '-days',
        '2',
        '-extfile',
        'server.ext',
        '-out',
        'fullchain.pem',
      ]),
    ]) {
      const made = spawnSync(openssl!, args, { cwd: tlsDir, encoding: 'utf8' });
      if (made.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${made.stderr}`);
    }
    ca = fs.readFileSync(path.join(tlsDir, 'ca.pem'));
  }

  /** A built web client in miniature: a page and a script, each with the gzip copy the build writes. */
  function makeClientFiles() {
    fs.mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
    const files = {
      'index.html': `<!doctype html><title>Parley</title>${'<p>deploy test</p>'.repeat(200)}`,
      'assets/app-deploy.js': `console.log(${JSON.stringify('deploy test '.repeat(500))});`,
    };
    for (const [name, text] of Object.entries(files)) {
      fs.writeFileSync(path.join(clientDir, name), text);
      fs.writeFileSync(path.join(clientDir, `${name}.gz`), zlib.gzipSync(text, { level: 9 }));
    }
  }

  /** Debian's nginx.conf, with its paths moved into the temporary directory and our site as its only site. */
  function writeNginxConfig() {
    // Loopback only, and IPv6 loopback too where this machine has it.
    const listen = (port: number, rest = '') =>
      `listen 127.0.0.1:${port}${rest};` + (ipv6 ? `\n    listen [::1]:${port}${rest};` : '');
    const site = render(siteText, [
      ['/etc/letsencrypt/live/chat.example.com/', `${tlsDir}/`],
      ['chat.example.com', 'localhost'],
      ['server 127.0.0.1:9991;', `server 127.0.0.1:${new URL(server.url).port};`],
      ['listen [::]:80;\n', ''],
      ['listen [::]:443 ssl http2;\n', ''],
      ['listen 80;', listen(httpPort)],
      ['listen 443 ssl http2;', listen(httpsPort, ' ssl http2')],
    ]);
    fs.writeFileSync(siteFile, site);
    const temporary = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((kind) => `${kind}_temp_path ${work}/${kind};`)
      .join('\n\t');
    const conf = render(fs.readFileSync(debianNginxConf, 'utf8'), [
      ['pid /run/nginx.pid;', `pid ${work}/nginx.pid;`],
      ['worker_processes auto;', 'worker_processes 1;'],
      ['error_log /var/log/nginx/error.log;', `error_log ${work}/error.log;`],
      ['access_log /var/log/nginx/access.log;', `access_log ${work}/access.log;`],
      // This machine's own additions stay out; the site is the only one.
      ['include /etc/nginx/conf.d/*.conf;', ''],
      ['include /etc/nginx/sites-enabled/*;', `${temporary}\n\tinclude ${siteFile};`],
    ]);
    fs.writeFileSync(confFile, conf);
  }

  const nginxArgs = () => ['-p', `${work}/`, '-c', confFile, '-e', `${work}/error.log`];

  beforeAll(async () => {
    // The workers run as Debian's www-data when the tests run as root: they must reach the
    // temporary paths (the private key's directory stays closed: the master reads it).
    fs.mkdirSync(work, { mode: 0o755 });
    makeCertificates();
    makeClientFiles();
    server = await startTestServer({
      config: { trustedProxies: ['127.0.0.1'], longPollSeconds: 10, clientDir },
    });
    server.app.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const seen: Upstream = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        done: false,
      };
      upstream.push(seen);
      res.on('finish', () => {
        // The header block as written: Fastify hands its headers to writeHead, not to setHeader.
        const head = (res as unknown as { _header?: string })._header ?? '';
        seen.encoding = /^content-encoding:\s*(\S+)/im.exec(head)?.[1];
        seen.done = true;
      });
    });
    httpPort = await freePort();
    httpsPort = await freePort();
    ipv6 = (await canListen('::1', httpPort)) && (await canListen('::1', httpsPort));
    writeNginxConfig();

    const check = spawnSync(nginxBinary!, ['-t', ...nginxArgs()], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`nginx -t refused the configuration:\n${check.stderr}`);
    nginx = spawn(nginxBinary!, [...nginxArgs(), '-g', 'daemon off;'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so that its workers can be stopped with it
    });
    nginx.stdout!.on('data', (d) => (nginxOutput += d));
    nginx.stderr!.on('data', (d) => (nginxOutput += d));
    process.once('exit', () => nginx?.kill('SIGTERM'));
    agent = new https.Agent({ ca, keepAlive: true });
    await until('nginx to answer', async () => {
      if (nginx!.exitCode !== null) throw new Error(`nginx exited: ${nginxOutput}`);
      return request({ path: '/api/v1/server_settings' }).then(
        (a) => a.status === 200,
        () => false,
      );
    });
  }, 120_000);

  afterAll(async () => {
    agent?.destroy();
    await stopChild(nginx, 'SIGTERM');
    await server?.close();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  function request(opts: {
    path: string;
    method?: string;
    headers?: http.OutgoingHttpHeaders;
    body?: Buffer | string;
    plain?: boolean;
    host?: string;
    localAddress?: string;
    /** send the headers only, and drop the connection once answered */
    headersOnly?: boolean;
  }): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const options: https.RequestOptions = {
        host: opts.host ?? '127.0.0.1',
        port: opts.plain ? httpPort : httpsPort,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: { host: 'localhost', ...opts.headers },
        localAddress: opts.localAddress,
      };
      const onAnswer = (res: http.IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          });
          if (opts.headersOnly) req.destroy();
        });
      };
      const req = opts.plain
        ? http.request({ ...options, agent: false }, onAnswer)
        : https.request({ ...options, agent, servername: 'localhost' }, onAnswer);
      req.on('error', reject);
      if (opts.headersOnly) req.flushHeaders();
      else req.end(opts.body);
    });
  }

  function api(
    method: string,
    apiPath: string,
    params: Record<string, unknown> = {},
    auth?: string,
    headers: http.OutgoingHttpHeaders = {},
  ): Promise<Answer> {
    const encoded = TestClient.encode(params).toString();
    const get = method === 'GET';
    return request({
      method,
      path: `/api/v1${apiPath}${get && encoded ? `?${encoded}` : ''}`,
      headers: {
        ...(auth ? { authorization: auth } : {}),
        ...(get ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        ...headers,
      },
      body: get ? undefined : encoded,
    });
  }

  /** Logs in through nginx; the Authorization header for that person. */
  async function login(email: string): Promise<string> {
    const answer = await api('POST', '/fetch_api_key', {
      username: email,
      password: DEMO_PASSWORD,
    });
    expect(answer.status).toBe(200);
    const body = json(answer);
    return 'Basic ' + Buffer.from(`${body.email}:${body.api_key}`).toString('base64');
  }

  /** The upstream record of the latest request for `url`, once the server has finished answering it. */
  async function reached(url: string): Promise<Upstream> {
    const seen = upstream.findLast((r) => r.url === url);
    expect(seen, `${url} reached the server`).toBeDefined();
    await until(`the server to answer ${url}`, () => seen!.done);
    return seen!;
  }

  it("nginx -t accepts the site inside Debian's nginx.conf, with no warning about it", () => {
    const check = spawnSync(nginxBinary!, ['-t', ...nginxArgs()], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    expect(check.stderr.split('\n').filter((l) => l.includes(siteFile))).toEqual([]);
  });

  it('plain HTTP sends every request to the same address over HTTPS', async () => {
    for (const host of ipv6 ? ['127.0.0.1', '::1'] : ['127.0.0.1']) {
      for (const method of ['GET', 'POST']) {
        const answer = await request({ plain: true, host, method, path: '/login?next=%2Finbox' });
        expect(answer.status).toBe(301);
        expect(answer.headers.location).toBe('https://localhost/login?next=%2Finbox');
      }
    }
    expect(upstream.some((r) => r.url.startsWith('/login'))).toBe(false);
  }, 90_000);

  it('two people chat through it: log in, register, and a message reaches a parked long-poll', async () => {
    const hamlet = await login('hamlet@example.com');
    const othello = await login('othello@example.com');
    const othelloId = json(await api('GET', '/users/me', {}, othello)).user_id;
    const queue = json(await api('POST', '/register', { event_types: ['message'] }, othello));
    const content = `Through nginx ${crypto.randomUUID()}`;
    const received = (async () => {
      let last: number = queue.last_event_id;
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const polled = await api(
          'GET',
          '/events',
          { queue_id: queue.queue_id, last_event_id: last },
          othello,
        );
        expect(polled.status).toBe(200);
        for (const event of json(polled).events) {
          last = Math.max(last, event.id);
          if (event.type === 'message' && event.message.content.includes(content)) return event;
        }
      }
      throw new Error('the message never arrived');
    })();
    // Sent only once the long-poll is parked in the server, so that the message is delivered to it.
    await until('the long-poll to reach the server', () =>
      upstream.some(
        (r) =>
          r.url.startsWith('/api/v1/events?') &&
          new URLSearchParams(r.url.split('?')[1]).get('queue_id') === queue.queue_id,
      ),
    );
    const sent = await api(
      'POST',
      '/messages',
      { type: 'private', to: [othelloId], content },
      hamlet,
    );
    expect(sent.status).toBe(200);
    const event = await received;
    expect(event.message.id).toBe(json(sent).id);
  });

  it("a visitor's stream of web-public events comes through it, each event as it happens", async () => {
    const hamlet = await login('hamlet@example.com');
    const events: any[] = [];
    let text = '';
    let answered: http.IncomingMessage | undefined;
    const req = https.request(
      {
        host: '127.0.0.1',
        port: httpsPort,
        path: '/api/v1/parley/web_public_events',
        headers: { host: 'localhost', accept: 'text/event-stream' },
        agent: false,
        ca,
        servername: 'localhost',
      },
      (res) => {
        answered = res;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          let end: number;
          while ((end = text.indexOf('\n\n')) !== -1) {
            events.push(...JSON.parse(text.slice(0, end).replace(/^data: /, '')));
            text = text.slice(end + 2);
          }
        });
      },
    );
    req.on('error', () => {});
    req.end();
    try {
      await until('the heartbeat that opens the stream', () => events.length > 0);
      expect(answered!.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(answered!.headers['content-encoding']).toBeUndefined();
      const content = `Through nginx to visitors ${crypto.randomUUID()}`;
      const sent = await api(
        'POST',
        '/messages',
        { type: 'stream', to: 'welcome', topic: 'nginx', content },
        hamlet,
      );
      expect(sent.status).toBe(200);
      await until('the message to reach the visitor', () =>
        events.some((e) => e.type === 'message' && e.message.id === json(sent).id),
      );
    } finally {
      req.destroy();
    }
  });

  it('a file of a few MB and one of the largest size upload through it; a larger body gets the JSON error', async () => {
    const hamlet = await login('hamlet@example.com');
    const upload = async (name: string, data: Buffer) => {
      const form = new FormData();
      form.append('file', new File([new Uint8Array(data)], name));
      // The multipart body as fetch would send it.
      const encoded = new Request('https://localhost/', { method: 'POST', body: form });
      return request({
        method: 'POST',
        path: '/api/v1/user_uploads',
        headers: { authorization: hamlet, 'content-type': encoded.headers.get('content-type')! },
        body: Buffer.from(await encoded.arrayBuffer()),
      });
    };
    const few = crypto.randomBytes(3 * 1024 * 1024);
    const uploaded = await upload('three-megabytes.bin', few);
    expect(uploaded.status, uploaded.body.toString()).toBe(200);
    const downloaded = await request({
      path: json(uploaded).url,
      headers: { authorization: hamlet },
    });
    expect(downloaded.status).toBe(200);
    expect(sha256(decoded(downloaded))).toBe(sha256(few));

    const largest = await upload('largest.bin', Buffer.alloc(MAX_FILE_UPLOAD_BYTES, 7));
    expect(largest.status, largest.body.toString()).toBe(200);

    // Refused from its Content-Length alone, before a byte of the body is sent.
    const before = upstream.length;
    const refused = await request({
      method: 'POST',
      path: '/api/v1/user_uploads',
      headers: {
        authorization: hamlet,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(2 * MAX_FILE_UPLOAD_BYTES),
      },
      headersOnly: true,
    });
    expect(refused.status).toBe(413);
    expect(refused.headers['content-type']).toBe('application/json');
    expect(json(refused)).toEqual({
      result: 'error',
      msg: 'Request body too large',
      code: 'BAD_REQUEST',
    });
    expect(upstream.length).toBe(before);
  }, 120_000);

  it('a large JSON answer is compressed once, by the server or else by nginx; the client files as built', async () => {
    const hamlet = await login('hamlet@example.com');
    const register = async (headers: http.OutgoingHttpHeaders) => {
      const answer = await api('POST', '/register', {}, hamlet, headers);
      expect(answer.status).toBe(200);
      expect(decoded(answer).length).toBeGreaterThan(COMPRESS_THRESHOLD);
      expect(json(answer).queue_id).toBeTruthy(); // one decoding gives the JSON
      expect(times(answer, 'content-encoding')).toBeLessThanOrEqual(1);
      return { answer, server: await reached('/api/v1/register') };
    };
    const gzip = await register({ 'accept-encoding': 'gzip' });
    expect([gzip.answer.headers['content-encoding'], gzip.server.encoding]).toEqual([
      'gzip',
      'gzip',
    ]);
    const brotli = await register({ 'accept-encoding': 'br' });
    expect([brotli.answer.headers['content-encoding'], brotli.server.encoding]).toEqual([
      'br',
      'br',
    ]);
    // An answer the server leaves as it is (here because the request asks it to) is gzipped by nginx.
    const byNginx = await register({ 'accept-encoding': 'gzip', 'x-no-compression': '1' });
    expect([byNginx.answer.headers['content-encoding'], byNginx.server.encoding]).toEqual([
      'gzip',
      undefined,
    ]);
    const plain = await register({});
    expect(plain.answer.headers['content-encoding']).toBeUndefined();

    for (const [url, file] of [
      ['/', 'index.html'],
      ['/assets/app-deploy.js', 'assets/app-deploy.js'],
    ]) {
      const answer = await request({ path: url!, headers: { 'accept-encoding': 'gzip' } });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.body.equals(fs.readFileSync(path.join(clientDir, `${file}.gz`)))).toBe(true);
    }
  }, 90_000);

  it("the server sees the host, https and the client's address, not the address the client wrote", async () => {
    const answer = await request({
      path: '/api/v1/server_settings',
      headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'http' },
      localAddress: '127.0.0.2',
    });
    expect(answer.status).toBe(200);
    const seen = await reached('/api/v1/server_settings');
    expect(seen.headers).toMatchObject({
      host: 'localhost',
      'x-forwarded-for': '127.0.0.2',
      'x-forwarded-proto': 'https',
    });
    // And believes it (PARLEY_TRUSTED_PROXIES=127.0.0.1): anonymous requests are counted per
    // address, and a new address starts a count of its own.
    const remaining = async (from: string) =>
      Number(
        (await request({ path: '/api/v1/server_settings', localAddress: from })).headers[
          'x-ratelimit-remaining'
        ],
      );
    const first = await remaining('127.0.0.3');
    expect(first).toBeGreaterThan(0);
    expect(await remaining('127.0.0.3')).toBe(first - 1);
    expect(await remaining('127.0.0.4')).toBe(first);
  }, 90_000);

  it('/metrics cannot be reached through it; /health and /ready are answered by the server', async () => {
    for (const url of [
      '/metrics',
      '/metrics/',
      '/metrics?name[]=x',
      '//metrics',
      '/%6Detrics',
      '/api/../metrics',
    ]) {
      const answer = await request({ path: url });
      expect(answer.status, url).toBe(404);
    }
    expect(upstream.filter((r) => /metrics/i.test(decodeURIComponent(r.url)))).toEqual([]);

    for (const [url, status] of [
      ['/health', 'alive'],
      ['/ready', 'ready'],
    ]) {
      const answer = await request({ path: url! });
      expect([answer.status, json(answer).status], url).toEqual([200, status]);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect((await reached(url!)).method).toBe('GET');
    }
  }, 90_000);

  it("speaks HTTP/2 and TLS 1.3 (1.2 too), with HSTS and the server's security headers once each", async () => {
    const session = http2.connect(`https://127.0.0.1:${httpsPort}`, {
      ca,
      servername: 'localhost',
    });
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = session.request({
          ':path': '/api/v1/server_settings',
          ':authority': 'localhost',
        });
        let status = 0;
        let body = '';
        stream.on('response', (headers) => (status = Number(headers[':status'])));
        stream.on('data', (d: Buffer) => (body += d));
        stream.on('end', () => resolve({ status, body }));
        stream.on('error', reject);
      });
      expect(session.alpnProtocol).toBe('h2');
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).realm_name).toBe('Parley Demo');
    } finally {
      session.close();
    }

    for (const [maxVersion, expected] of [
      [undefined, 'TLSv1.3'],
      ['TLSv1.2', 'TLSv1.2'],
    ] as const) {
      const socket = tls.connect({
        host: '127.0.0.1',
        port: httpsPort,
        servername: 'localhost',
        ca,
        maxVersion,
      });
      await new Promise((resolve, reject) =>
        socket.once('secureConnect', resolve).once('error', reject),
      );
      expect(socket.getProtocol()).toBe(expected);
      socket.destroy();
    }

    const answer = await request({ path: '/api/v1/server_settings' });
    for (const header of [
      'strict-transport-security',
      'content-security-policy',
      'x-frame-options',
      'x-content-type-options',
      'referrer-policy',
    ])
      expect(times(answer, header), header).toBe(1);
    expect(answer.headers['strict-transport-security']).toMatch(/^max-age=\d{8,}/);
    expect(answer.headers.server).toBe('nginx'); // no version
  }, 90_000);
});

// ---------------------------------------------------------------------------------------------

const logrotate = commandPath('logrotate');
if (!logrotate) console.warn('deploy: logrotate is not installed; its check steps aside');

describe.skipIf(!logrotate)('deploy: the logrotate snippet', () => {
  it('rotates a log the server still writes to by copying and truncating it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-logrotate-'));
    try {
      const log = path.join(dir, 'parley.log');
      fs.writeFileSync(log, '{"level":40,"msg":"before"}\n');
      const writer = fs.openSync(log, 'a'); // as systemd's StandardOutput=append: holds it
      const conf = path.join(dir, 'parley');
      fs.writeFileSync(
        conf,
        render(shipped('logrotate', 'parley'), [['/var/log/parley/', `${dir}/`]]),
      );
      const rotated = spawnSync(logrotate!, ['--force', '--state', path.join(dir, 'state'), conf], {
        encoding: 'utf8',
      });
      expect(rotated.status, rotated.stderr).toBe(0);
      expect(fs.readFileSync(`${log}.1`, 'utf8')).toContain('before');
      fs.writeSync(writer, '{"level":40,"msg":"after"}\n');
      fs.closeSync(writer);
      expect(fs.readFileSync(log, 'utf8')).toBe('{"level":40,"msg":"after"}\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
