import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runDueWebhookJobs } from '../actions/outgoing-webhooks.js';
import { postWebhook } from '../lib/webhook-http.js';
import { TestClient } from './client.js';
import type { ServerWorld } from './fixtures.js';
import { expectError } from './people.js';

/**
 * Outgoing-webhook bots against a bot server of the test's own, run by bots.test.ts on its
 * server. The bot server answers each request with what `reply` says for the request's text.
 */

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Reply = { status?: number; body: string; delayMs?: number };

function botServer() {
  const received: Received[] = [];
  let reply: (text: string) => Reply = () => ({ body: '{"content": "pong"}' });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, body });
      const text = req.headers['content-type']?.startsWith('application/json')
        ? (JSON.parse(body).data as string)
        : (new URLSearchParams(body).get('text') ?? '');
      const answer = reply(text);
      setTimeout(() => {
        res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json' });
        res.end(answer.body);
      }, answer.delayMs ?? 0);
    });
  });
  return {
    received,
    server,
    set reply(fn: (text: string) => Reply) {
      reply = fn;
    },
    get url() {
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/bot`;
    },
  };
}

export function outgoingWebhookCases(t: ServerWorld) {
  describe('outgoing-webhook bots', () => {
    const remote = botServer();
    beforeAll(() => new Promise<void>((resolve) => remote.server.listen(0, '127.0.0.1', resolve)));
    afterAll(() => new Promise<void>((resolve) => remote.server.close(() => resolve())));

    /** the newest messages of a narrow, as hamlet reads them */
    const latest = async (narrow: unknown[], reader = t.as.hamlet) =>
      (
        await reader.get('/messages', {
          anchor: 'newest',
          num_before: 10,
          num_after: 0,
          apply_markdown: false,
          narrow: JSON.stringify(narrow),
        })
      ).body.messages as { sender_id: number; content: string; client: string }[];
    /** waits for a message from `senderId` with `content` in the narrow */
    const answered = (
      narrow: unknown[],
      senderId: number,
      content: string | RegExp,
      reader = t.as.hamlet,
    ) =>
      vi.waitFor(
        async () => {
          const found = (await latest(narrow, reader)).find(
            (m) =>
              m.sender_id === senderId &&
              (typeof content === 'string' ? m.content === content : content.test(m.content)),
          );
          expect(found, JSON.stringify(await latest(narrow, reader))).toBeDefined();
          return found!;
        },
        { timeout: 15_000, interval: 100 },
      );

    let seq = 0;
    const makeBot = async (interfaceType = 1) => {
      seq += 1;
      const r = await t.as.hamlet.post('/bots', {
        full_name: `Echo Bot ${seq}`,
        short_name: `echo${seq}`,
        bot_type: 3,
        payload_url: JSON.stringify(remote.url),
        interface_type: interfaceType,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return {
        id: r.body.user_id as number,
        name: `Echo Bot ${seq}`,
        email: `echo${seq}-bot@parley.bots`,
      };
    };

    it('is created with its service, which its owner sees and changes; bad input is refused', async () => {
      const q = await t.queues(['realm_bot'], ['hamlet', 'iago', 'othello']);
      const bot = await makeBot();
      const added = (await q.events('hamlet')).find((e) => e.type === 'realm_bot');
      expect(added).toMatchObject({
        op: 'add',
        bot: { user_id: bot.id, bot_type: 3, services: [{ base_url: remote.url, interface: 1 }] },
      });
      const token = (added!.bot as any).services[0].token as string;
      expect(token).toMatch(/^\w{16,}$/);
      const register = await t.as.iago.post('/register', { fetch_event_types: '["realm_bot"]' });
      const seen = (register.body.realm_bots as any[]).find((b) => b.user_id === bot.id);
      expect(seen.services).toEqual([{ base_url: remote.url, interface: 1, token }]);
      // Others' register has no such bot, and no token.
      const othello = await t.as.othello.post('/register', { fetch_event_types: '["realm_bot"]' });
      expect(JSON.stringify(othello.body.realm_bots)).not.toContain(token);

      const moved = `${remote.url}/v2`;
      const patched = await t.as.hamlet.patch(`/bots/${bot.id}`, {
        service_payload_url: JSON.stringify(moved),
        service_interface: 2,
      });
      expect(patched.body).toMatchObject({ service_payload_url: moved, service_interface: 2 });
      const updated = (await q.events('iago')).find(
        (e) => e.type === 'realm_bot' && e.op === 'update',
      );
      expect(updated?.bot).toEqual({
        user_id: bot.id,
        services: [{ base_url: moved, interface: 2, token }],
      });
      expect((await q.events('othello')).some((e) => e.type === 'realm_bot')).toBe(false);

      expectError(
        await t.as.hamlet.post('/bots', {
          full_name: 'No URL Bot',
          short_name: 'nourl',
          bot_type: 3,
          payload_url: JSON.stringify('not a url'),
        }),
        'BAD_REQUEST',
        'payload_url is not a URL',
      );
      expectError(
        await t.as.hamlet.post('/bots', {
          full_name: 'Raw URL Bot',
          short_name: 'rawurl',
          bot_type: 3,
          payload_url: remote.url,
        }),
        'BAD_REQUEST',
      );
      expectError(
        await t.as.hamlet.post('/bots', {
          full_name: 'Odd Bot',
          short_name: 'odd',
          bot_type: 3,
          payload_url: JSON.stringify(remote.url),
          interface_type: 7,
        }),
        'BAD_REQUEST',
        'Invalid interface type',
      );
      expectError(
        await t.as.hamlet.post('/bots', { full_name: 'Emb Bot', short_name: 'emb', bot_type: 4 }),
        'BAD_REQUEST',
        'Embedded bots are not enabled.',
      );
      expectError(
        await t.as.othello.patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify(moved) }),
        'BAD_REQUEST',
        'Insufficient permission',
      );
    });

    it('a mention in a channel is POSTed to the service, and its answer is posted there as the bot', async () => {
      const bot = await makeBot();
      remote.reply = (text) => ({ body: JSON.stringify({ content: `echo: ${text}` }) });
      const before = remote.received.length;
      const content = `@**${bot.name}** what is **2+2**?`;
      const sent = await t.as.hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'webhooks',
        content,
      });
      const narrow = [
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: 'webhooks' },
      ];
      const reply = await answered(narrow, bot.id, `echo: ${content}`);
      expect(reply.client).toBe('OutgoingWebhookResponse');

      const request = remote.received[before]!;
      expect(request.headers['user-agent']).toMatch(/^ZulipOutgoingWebhook\//);
      const payload = JSON.parse(request.body);
      expect(payload).toMatchObject({
        data: content,
        bot_email: bot.email,
        bot_full_name: bot.name,
        trigger: 'mention',
        message: {
          id: sent.body.id,
          content,
          type: 'stream',
          display_recipient: 'general',
          subject: 'webhooks',
          sender_email: 'hamlet@example.com',
        },
      });
      expect(payload.token).toMatch(/^\w{16,}$/);
      expect(payload.message.rendered_content).toContain('<strong>2+2</strong>');

      // The bot's own answer, though it names the bot, triggers nothing more, and neither does a
      // message without a mention.
      await t.as.hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'webhooks',
        content: 'no mention',
      });
      await runDueWebhookJobs(t.server.ctx);
      expect(remote.received.length).toBe(before + 1);
    });

    it('a direct message is answered in the same conversation; a request to a bot from a bot is not sent', async () => {
      const bot = await makeBot();
      remote.reply = () => ({ body: JSON.stringify({ response_string: 'Got it, thanks.' }) });
      const before = remote.received.length;
      await t.as.othello.post('/messages', {
        type: 'direct',
        to: JSON.stringify([bot.id, t.id.hamlet]),
        content: 'ping in a group',
      });
      const narrow = [{ operator: 'dm', operand: [bot.id, t.id.hamlet, t.id.othello] }];
      await answered(narrow, bot.id, 'Got it, thanks.', t.as.othello);
      const payload = JSON.parse(remote.received[before]!.body);
      expect(payload.trigger).toBe('private_message');
      expect(payload.message.type).toBe('private');
      expect(
        (payload.message.display_recipient as any[])
          .map((r) => r.id)
          .sort((a: number, b: number) => a - b),
      ).toEqual([bot.id, t.id.hamlet, t.id.othello].sort((a, b) => a - b));

      // A bot messaging the webhook bot triggers nothing (no loops between bots).
      const made = await t.as.hamlet.post('/bots', {
        full_name: 'Chatty Bot',
        short_name: 'chatty',
      });
      const chatty = new TestClient(t.server.url, 'chatty-bot@parley.bots', made.body.api_key);
      await chatty.post('/messages', {
        type: 'direct',
        to: JSON.stringify([bot.id]),
        content: 'hi',
      });
      await runDueWebhookJobs(t.server.ctx);
      expect(remote.received.length).toBe(before + 1);
    });

    it('failures are told in the conversation and, with details, to the bot owner; no answer asked, none posted', async () => {
      const bot = await makeBot();
      const topic = 'webhook failures';
      const narrow = [
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: topic },
      ];
      const ownerDm = [{ operator: 'dm', operand: [bot.id] }];
      const send = (content: string) =>
        t.as.othello.post('/messages', { type: 'stream', to: 'general', topic, content });

      remote.reply = () => ({ status: 500, body: 'kaput' });
      await send(`@**${bot.name}** one`);
      await answered(narrow, bot.id, 'Failure! Third party responded with 500');
      const notice = await answered(ownerDm, bot.id, /status code \*500\*/);
      expect(notice.content).toMatch(
        /^\[A message\]\(http.*\/near\/\d+\) to your bot @_\*\*Echo Bot/,
      );
      expect(notice.content).toContain('kaput');

      remote.reply = () => ({ body: 'not json' });
      await send(`@**${bot.name}** two`);
      await answered(narrow, bot.id, 'Failure! Invalid JSON in response');

      remote.reply = () => ({ body: '[1, 2]' });
      await send(`@**${bot.name}** three`);
      await answered(narrow, bot.id, 'Failure! Invalid response format');

      // No answer wanted: nothing is posted (the next answer comes right after the last failure).
      remote.reply = (text) =>
        text.endsWith('quiet')
          ? { body: JSON.stringify({ response_not_required: true }) }
          : { body: JSON.stringify({ content: 'spoken' }) };
      await send(`@**${bot.name}** quiet`);
      await send(`@**${bot.name}** loud`);
      await answered(narrow, bot.id, 'spoken');
      const all = await latest(narrow);
      const quiet = all.findIndex((m) => m.content === `@**${bot.name}** quiet`);
      const after = all.slice(quiet + 1).filter((m) => m.sender_id === bot.id);
      expect(after.map((m) => m.content)).toEqual(['spoken']);
    });

    it('the Slack interface sends a form and posts its text; it refuses direct messages', async () => {
      const bot = await makeBot(2);
      remote.reply = (text) => ({ body: JSON.stringify({ text: `slack says ${text.length}` }) });
      const before = remote.received.length;
      const content = `@**${bot.name}** hello`;
      await t.as.hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'slack',
        content,
      });
      const narrow = [
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: 'slack' },
      ];
      await answered(narrow, bot.id, `slack says ${content.length}`);
      const request = remote.received[before]!;
      expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
      const form = new URLSearchParams(request.body);
      expect(Object.fromEntries(form)).toMatchObject({
        text: content,
        channel_name: 'general',
        channel_id: `C${t.stream.general}`,
        user_id: `U${t.id.hamlet}`,
        trigger_word: 'mention',
        service_id: String(bot.id),
      });

      await t.as.hamlet.post('/messages', {
        type: 'direct',
        to: JSON.stringify([bot.id]),
        content: 'dm',
      });
      await answered(
        [{ operator: 'dm', operand: [bot.id] }],
        bot.id,
        "Failure! Slack outgoing webhooks don't support direct messages.",
      );
      expect(remote.received.length).toBe(before + 1);
    });

    it('a bot server that is down is tried again, and the job outlives a restart of the server', async () => {
      const bot = await makeBot();
      const down = http.createServer();
      await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
      const downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}/`;
      await new Promise<void>((resolve) => down.close(() => resolve()));
      await t.as.hamlet.patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify(downUrl) });
      const topic = 'down';
      await t.as.hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic,
        content: `@**${bot.name}** are you there`,
      });
      const jobs = () =>
        t.server.ctx.db
          .selectFrom('outgoing_webhook_jobs')
          .select(['attempts', 'bot_id'])
          .where('bot_id', '=', bot.id)
          .execute();
      await vi.waitFor(async () => expect((await jobs())[0]?.attempts).toBe(1), {
        timeout: 15_000,
        interval: 100,
      });

      // The server restarts; the job is still there, and goes to the service once it is back.
      await t.restart();
      expect(await jobs()).toHaveLength(1);
      await t.as.hamlet.patch(`/bots/${bot.id}`, {
        service_payload_url: JSON.stringify(remote.url),
      });
      remote.reply = () => ({ body: JSON.stringify({ content: 'back again' }) });
      // Its next try is due a few seconds on: the test moves the clock instead of waiting.
      await runDueWebhookJobs(t.server.ctx, Math.floor(Date.now() / 1000) + 60);
      const narrow = [
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: topic },
      ];
      await answered(narrow, bot.id, 'back again');
      expect(await jobs()).toEqual([]);

      // Down for good: after the first try and three more, "Bot is unavailable".
      await t.as.hamlet.patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify(downUrl) });
      await t.as.hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic,
        content: `@**${bot.name}** again`,
      });
      await vi.waitFor(async () => expect((await jobs())[0]?.attempts).toBe(1), {
        timeout: 15_000,
        interval: 100,
      });
      for (let i = 1; i <= 3; i++)
        await runDueWebhookJobs(t.server.ctx, Math.floor(Date.now() / 1000) + 60 * (i + 1) * 60);
      await answered(narrow, bot.id, 'Failure! Bot is unavailable');
      await answered(
        [{ operator: 'dm', operand: [bot.id] }],
        bot.id,
        /A connection error occurred\. Is my bot server down\?/,
      );
      expect(await jobs()).toEqual([]);
    });
  });
}

/** The guard on where requests go, without a server: private addresses unless allowed. */
export function webhookAddressCases() {
  describe('where outgoing webhooks may go', () => {
    const server = http.createServer((_req, res) => res.end('{}'));
    let port = 0;
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const post = (url: string, allow: string[]) =>
      postWebhook({
        url,
        body: '{}',
        contentType: 'application/json',
        userAgent: 'test',
        timeoutMs: 5000,
        allow,
      });

    it('refuses loopback, by address or by name, unless the operator allows it', async () => {
      expect(await post(`http://127.0.0.1:${port}/`, [])).toEqual({ kind: 'blocked' });
      expect(await post(`http://localhost:${port}/`, [])).toEqual({ kind: 'blocked' });
      expect(await post(`http://[::ffff:127.0.0.1]:${port}/`, [])).toEqual({ kind: 'blocked' });
      expect(await post('http://169.254.169.254/latest/meta-data', [])).toEqual({
        kind: 'blocked',
      });
      expect(await post('http://10.1.2.3/', [])).toEqual({ kind: 'blocked' });
      expect(await post(`http://127.0.0.1:${port}/`, ['loopback'])).toEqual({
        kind: 'response',
        status: 200,
        body: '{}',
      });
      expect(await post(`http://localhost:${port}/`, ['127.0.0.1'])).toMatchObject({ status: 200 });
      expect((await post('ftp://example.com/', ['loopback'])).kind).toBe('exception');
      expect((await post('', ['loopback'])).kind).toBe('exception');
    });
  });
}
