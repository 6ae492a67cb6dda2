import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { useServer } from './fixtures.js';
import {
  missingPythonModules,
  PYTHON,
  writeZuliprc,
  zulipSource,
  type SourceName,
} from './zulip-sources.js';

/**
 * Real Zulip clients, unchanged, against our server: the bindings' command-line sender
 * (`zulip-send`), a `zulip_bots` bot that keeps state (the incrementor) and zulip-terminal driven
 * in tmux. Their sources come from zulip-sources.ts; each part steps aside when they are absent.
 */

const run = promisify(execFile);

function sources(names: SourceName[], modules: string[], pythonPath: (d: string[]) => string[]) {
  const dirs: string[] = [];
  for (const name of names) {
    const found = zulipSource(name);
    if ('reason' in found) return { reason: found.reason };
    dirs.push(found.dir);
  }
  const missing = missingPythonModules(modules, pythonPath(dirs));
  return missing ? { reason: missing } : { pythonPath: pythonPath(dirs).join(':') };
}

const bots = sources(
  ['bindings'],
  ['zulip', 'zulip_bots.run', 'importlib_metadata', 'html2text'],
  ([api]) => [`${api}/zulip`, `${api}/zulip_bots`],
);
const botserver = sources(
  ['bindings'],
  ['zulip', 'zulip_bots.lib', 'zulip_botserver.server', 'flask', 'importlib_metadata'],
  ([api]) => [`${api}/zulip`, `${api}/zulip_bots`, `${api}/zulip_botserver`],
);
const tmux = spawnSync('tmux', ['-V']).status === 0;
const terminal = tmux
  ? sources(
      ['terminal', 'bindings082'],
      ['zulipterminal.cli.run', 'urwid', 'urwid_readline', 'bs4', 'lxml', 'tzlocal', 'pytz'],
      ([zt, api]) => [zt, `${api}/zulip`],
    )
  : { reason: 'tmux is missing' };
for (const [what, found] of [
  ['zulip-send and zulip_bots', bots],
  ['zulip-botserver', botserver],
  ['zulip-terminal', terminal],
] as const)
  if ('reason' in found)
    console.warn(`real clients test (${what}): ${found.reason}; stepping aside`);

/** A port nothing listens on now, for a child process to listen on. */
async function freePort() {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Polls `check` until it gives a value, for up to a minute (slow machines start Python slowly). */
async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('real Zulip clients', () => {
  const t = useServer({ db: 'sqlite', people: ['hamlet', 'othello'] });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-clients-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const latest = async (client: TestClient, narrow: unknown[]) =>
    (
      await client.get('/messages', {
        anchor: 'newest',
        num_before: 5,
        num_after: 0,
        apply_markdown: false,
        narrow: JSON.stringify(narrow),
      })
    ).body.messages as any[];

  it.skipIf('reason' in bots)('zulip-send sends to a channel and to a person', async () => {
    const rc = path.join(dir, 'hamlet.zuliprc');
    writeZuliprc(rc, 'hamlet@example.com', t.as.hamlet.apiKey!, t.server.url);
    const send = (...args: string[]) =>
      run(PYTHON, ['-m', 'zulip.send', '--config-file', rc, ...args], {
        env: { PATH: process.env.PATH, HOME: dir, PYTHONPATH: (bots as any).pythonPath },
        timeout: 60_000,
      });
    await send(
      '--stream',
      'general',
      '--subject',
      'from a shell',
      '--message',
      'sent by **zulip-send**',
    );
    await send('othello@example.com', '--message', 'a direct word');
    const [inChannel] = (
      await latest(t.as.othello, [
        ['channel', 'general'],
        ['topic', 'from a shell'],
      ])
    ).slice(-1);
    expect(inChannel).toMatchObject({
      sender_email: 'hamlet@example.com',
      content: 'sent by **zulip-send**',
      client: 'ZulipPython',
    });
    const [direct] = (await latest(t.as.othello, [['dm', 'hamlet@example.com']])).slice(-1);
    expect(direct).toMatchObject({ content: 'a direct word', type: 'private' });
  });

  /** Runs a bot of zulip_bots with its zuliprc, keeping what it prints. */
  function startBot(name: string, email: string, key: string) {
    const rc = path.join(dir, `${name}.zuliprc`);
    writeZuliprc(rc, email, key, t.server.url);
    const bot = spawn(PYTHON, ['-m', 'zulip_bots.run', name, '--config-file', rc], {
      env: { PATH: process.env.PATH, HOME: dir, PYTHONPATH: (bots as any).pythonPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    bot.stdout!.on('data', (d) => (log += d));
    bot.stderr!.on('data', (d) => (log += d));
    children.push(bot);
    return {
      log: () => log,
      listening: () =>
        waitFor(`${name} to listen`, () =>
          log.includes('starting message handling') ? true : undefined,
        ),
      async stop() {
        bot.kill('SIGINT');
        if (bot.exitCode === null) await new Promise((r) => bot.once('exit', r));
      },
    };
  }

  /** A bot of hamlet's, made through POST /bots and put in `general`, where it hears mentions. */
  async function makeBot(fullName: string, shortName: string) {
    const made = await t.as.hamlet.post('/bots', { full_name: fullName, short_name: shortName });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const email = `${shortName}-bot@parley.bots`;
    await t.as.hamlet.post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'general' }]),
      principals: JSON.stringify([email]),
    });
    return { email, key: made.body.api_key as string };
  }

  const fromBot = async (email: string, topic: string) =>
    (
      await latest(t.as.hamlet, [
        ['channel', 'general'],
        ['topic', topic],
      ])
    ).filter((m) => m.sender_email === email);

  /** Sends `content` until the bot has answered `answers` times (its queue may not exist yet). */
  async function askUntil(topic: string, content: string, email: string, answers: number) {
    return waitFor(`answer ${answers} in ${topic}`, async () => {
      if ((await fromBot(email, topic)).length < answers)
        await t.as.hamlet.post('/messages', { type: 'stream', to: 'general', topic, content });
      await new Promise((r) => setTimeout(r, 1500));
      const mine = await fromBot(email, topic);
      return mine.length >= answers ? mine : undefined;
    });
  }

  it.skipIf('reason' in bots)(
    'the incrementor bot counts mentions in one message, also across a restart of the server',
    async () => {
      const { email, key } = await makeBot('Counter', 'counter');
      const bot = startBot('incrementor', email, key);
      try {
        await bot.listening();
        const [first] = await askUntil('counting', '@**Counter** go', email, 1);
        const n = Number(first.content);
        const untilCount = (count: number) =>
          waitFor(`the count to reach ${count}`, async () => {
            const mine = await fromBot(email, 'counting');
            return mine.length === 1 && Number(mine[0].content) >= count ? mine[0] : undefined;
          });
        await t.as.hamlet.post('/messages', {
          type: 'stream',
          to: 'general',
          topic: 'counting',
          content: '@**Counter** again',
        });
        expect((await untilCount(n + 1)).id).toBe(first.id);
        // The bot stores the count after it edits its message (zulip_bots' use_storage writes on
        // leaving its block): wait for the write before pulling the server away.
        const asBot = new TestClient(t.server.url, email, key);
        const count = await waitFor('the count in storage', async () => {
          const now = await asBot.get('/bot_storage', { keys: JSON.stringify(['number']) });
          const stored = Number(now.body.storage?.number);
          return stored >= n + 1 ? stored : undefined;
        });
        // The server restarts under the running bot: it finds its queue gone, registers anew, and
        // the count goes on in the same message.
        await t.restart({ samePort: true });
        // (The first request may meet a connection the old server closed: ask again.)
        const stored = await waitFor('the storage after the restart', () =>
          new TestClient(t.server.url, email, key).get('/bot_storage').catch(() => undefined),
        );
        expect(JSON.parse(stored.body.storage.number)).toBe(count);
        expect(JSON.parse(stored.body.storage.message_id)).toBe(first.id);
        await waitFor('the count after the restart', async () => {
          const [mine] = await fromBot(email, 'counting');
          if (Number(mine.content) >= count + 1) return mine;
          await t.as.hamlet.post('/messages', {
            type: 'stream',
            to: 'general',
            topic: 'counting',
            content: '@**Counter** after the restart',
          });
          await new Promise((r) => setTimeout(r, 1500));
          return undefined;
        });
        expect(await fromBot(email, 'counting')).toHaveLength(1);
        expect(bot.log()).not.toMatch(/StateHandlerError|Traceback/);
      } finally {
        await bot.stop();
      }
    },
    180_000,
  );

  it.skipIf('reason' in bots)(
    'the incident bot numbers its tickets from bot storage, across restarts of the bot and the server',
    async () => {
      const { email, key } = await makeBot('Incidents', 'incidents');
      let bot = startBot('incident', email, key);
      await bot.listening();
      const replies = await askUntil('outage', '@**Incidents** new the lights are out', email, 1);
      const ticket = (text: string) => Number(/TICKET(\d{4})/.exec(text)?.[1]);
      const firstTicket = ticket(replies[0].content);
      expect(firstTicket).toBeGreaterThanOrEqual(1);
      await bot.stop();
      await t.restart();
      bot = startBot('incident', email, key);
      try {
        await bot.listening();
        const before = (await fromBot(email, 'outage')).length;
        const later = await askUntil(
          'outage',
          '@**Incidents** new the lights are out again',
          email,
          before + 1,
        );
        expect(ticket(later.at(-1)!.content)).toBe(ticket(later.at(-2)!.content) + 1);
        expect(bot.log()).not.toMatch(/StateHandlerError|Traceback/);
      } finally {
        await bot.stop();
      }
    },
    180_000,
  );

  it.skipIf('reason' in botserver)(
    'zulip-botserver runs a bot behind an outgoing-webhook bot: the encrypt bot answers a mention',
    async () => {
      const port = await freePort();
      const made = await t.as.hamlet.post('/bots', {
        full_name: 'Cipher',
        short_name: 'cipher',
        bot_type: 3,
        payload_url: JSON.stringify(`http://127.0.0.1:${port}/`),
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const email = 'cipher-bot@parley.bots';
      // The bot's owner reads the service's token from realm_bots, as the web app shows it.
      const register = await t.as.hamlet.post('/register', { fetch_event_types: '["realm_bot"]' });
      const [service] = (register.body.realm_bots as any[]).find(
        (b) => b.user_id === made.body.user_id,
      ).services;
      const rc = path.join(dir, 'botserverrc');
      fs.writeFileSync(
        rc,
        `[encrypt]\nemail=${email}\nkey=${made.body.api_key}\nsite=${t.server.url}\ntoken=${service.token}\n`,
      );
      const server = spawn(
        PYTHON,
        [
          '-m',
          'zulip_botserver.server',
          '--config-file',
          rc,
          '--hostname',
          '127.0.0.1',
          '--port',
          String(port),
        ],
        {
          env: { PATH: process.env.PATH, HOME: dir, PYTHONPATH: (botserver as any).pythonPath },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let log = '';
      server.stdout!.on('data', (d) => (log += d));
      server.stderr!.on('data', (d) => (log += d));
      children.push(server);
      try {
        await waitFor('the botserver to listen', () =>
          log.includes('Running on') ? true : undefined,
        );
        await t.as.othello.post('/messages', {
          type: 'stream',
          to: 'general',
          topic: 'secrets',
          content: '@**Cipher** Hello, World',
        });
        const [answer] = await waitFor('the encrypted answer', async () => {
          const mine = await fromBot(email, 'secrets');
          return mine.length ? mine : undefined;
        });
        expect(answer.content).toBe('Encrypted/Decrypted text: Uryyb, Jbeyq');
        expect(log).not.toMatch(/Traceback|Unauthorized|BadRequest/);
      } finally {
        server.kill('SIGINT');
        if (server.exitCode === null) await new Promise((r) => server.once('exit', r));
      }
    },
    120_000,
  );

  it.skipIf('reason' in terminal)(
    'zulip-terminal starts, shows the channels, sends, receives live and logs no traceback',
    async () => {
      const home = fs.mkdtempSync(path.join(dir, 'zt-'));
      const rc = path.join(home, 'zuliprc');
      writeZuliprc(rc, 'hamlet@example.com', t.as.hamlet.apiKey!, t.server.url);
      const socket = `parley-zt-${process.pid}`;
      const tm = (...args: string[]) => run('tmux', ['-L', socket, ...args], { timeout: 20_000 });
      const screen = async () => (await tm('capture-pane', '-p', '-t', 'zt')).stdout;
      const keys = (...k: string[]) => tm('send-keys', '-t', 'zt', ...k);
      const type = (text: string) => tm('send-keys', '-t', 'zt', '-l', text);
      const command = [
        `cd ${home}`,
        `exec env HOME=${home} PYTHONPATH=${(terminal as any).pythonPath} ${PYTHON} -m zulipterminal.cli.run --config-file ${rc}`,
      ].join(' && ');
      // With nothing unread the client opens at the newest message, where live ones arrive.
      expect((await t.as.hamlet.post('/mark_all_as_read')).status).toBe(200);
      await tm('new-session', '-d', '-s', 'zt', '-x', '160', '-y', '45', command);
      try {
        const started = await waitFor('the channel list', async () => {
          const s = await screen();
          return /# general/.test(s) && s.includes('King Hamlet') ? s : undefined;
        });
        for (const channel of ['announce', 'engineering', 'general'])
          expect(started).toMatch(new RegExp(`[#P⊚] ${channel}`));

        // c: a new message to a channel; Tab moves from channel to topic to content; Ctrl+D sends.
        await keys('c');
        await waitFor('the compose box', async () =>
          (await screen()).includes('Help(?)') ? true : undefined,
        );
        await type('general');
        await keys('Tab');
        await type('terminal');
        await keys('Tab');
        await type('hello from zulip-terminal');
        await keys('C-d');
        const sent = await waitFor('the message from zulip-terminal', async () => {
          const [m] = (
            await latest(t.as.othello, [
              ['channel', 'general'],
              ['topic', 'terminal'],
            ])
          ).filter((m) => m.content === 'hello from zulip-terminal');
          return m;
        });
        expect(sent).toMatchObject({ sender_email: 'hamlet@example.com', client: 'ZulipTerminal' });

        await t.as.othello.post('/messages', {
          type: 'stream',
          to: 'general',
          topic: 'terminal',
          content: 'a live reply from othello',
        });
        // Escape closes the compose box (alone: an Escape followed at once by a key is Meta+key).
        await waitFor('the compose box to close', async () => {
          await keys('Escape');
          await new Promise((r) => setTimeout(r, 700));
          return /# general {3,}▶ terminal/.test(await screen()) ? undefined : true;
        });
        // The channel's unread count rises, and G (to the last message) shows it.
        await waitFor('the unread count of general', async () =>
          /# general +1 /.test(await screen()) ? true : undefined,
        );
        await waitFor('the live message on screen', async () => {
          await keys('G');
          await new Promise((r) => setTimeout(r, 300));
          return (await screen()).includes('a live reply from othello') ? true : undefined;
        });
        expect(fs.existsSync(path.join(home, 'zulip-terminal-tracebacks.log'))).toBe(false);
      } catch (error) {
        throw new Error(`${String(error)}; the terminal showed:\n${await screen()}`);
      } finally {
        await tm('kill-server').catch(() => undefined);
      }
      const log = path.join(home, 'zulip-terminal-tracebacks.log');
      expect(fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '').toBe('');
    },
    150_000,
  );
});
