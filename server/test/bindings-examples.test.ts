import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { TestClient } from './client.js';
import { RecordingProxy, type Exchange } from './recording-proxy.js';
import {
  OpenApiSpec,
  skipTestWithoutSpec,
  specAvailable,
  repoRoot,
  type Method,
} from './openapi.js';
import { ALLOW } from './openapi-allow.js';
import { missingPythonModules, PYTHON, zulipSource } from './zulip-sources.js';

/**
 * The documented examples of the official bindings, run unchanged against our server: the
 * `examples/` folder zulip-js ships in its npm package, and the scripts in the Python bindings'
 * `zulip/examples`. A recording proxy sits between them and the server, so the test sees every
 * request an example makes and every answer it gets.
 *
 * The real service cannot be reached from here, so "the same results as against the real service"
 * is checked the way Zulip's own documentation states those results: each example's run is set up
 * as the examples assume (the user Cordelia with her zuliprc, the streams they name), and then
 *  - every request must go to an endpoint the upstream API documents, and every answer must match
 *    the upstream schema of that endpoint and status;
 *  - the outcome of every call (success, or the error code, or 404/405 for endpoints upstream no
 *    longer has) must be the one upstream's documented behaviour gives for that request. Several
 *    examples are out of date (they call the pointer endpoint removed in Zulip 3.0, or forget an
 *    `await`), and those calls must fail exactly as they would on Zulip.
 * Not run: zulip-js's interactive_call_endpoint.js (reads a terminal), queue_helper.js (a fixed
 * /path/to/your/zuliprc) and typing-notifications/ (loops forever without output to check); the
 * Python welcome-message (it reads `sender_short_name`, which the reference server dropped too).
 * The JavaScript half always runs (zulip-js is a dev dependency). The Python half needs the
 * bindings' source (PARLEY_PYTHON_ZULIP, or as zulip-sources.ts finds it) and Debian's python3-requests,
 * and steps aside, saying so, without them.
 */

const run = promisify(execFile);
const spec = specAvailable ? OpenApiSpec.load() : null;
if (!spec)
  console.warn(
    'bindings examples: the upstream OpenAPI file is absent; tests that schema-check answers are reported skipped',
  );

type Outcome = 'success' | number | string;
/** [method, path pattern, outcome] for each call an example makes, in order. */
type Expected = [Method, RegExp, Outcome][];

const outcomeOf = (e: Exchange): Outcome =>
  e.status === 200 && e.body?.result === 'success'
    ? 'success'
    : e.status === 404 || e.status === 405
      ? e.status
      : (e.body?.code ?? e.status);

/** The upstream path template a concrete request path falls under, if upstream documents it. */
function templateFor(method: Method, concrete: string): string | undefined {
  if (!spec) return undefined;
  const candidates = Object.keys(spec.doc.paths).filter((t) => spec.operation(method, t));
  const matches = candidates.filter((t) =>
    new RegExp('^' + t.replace(/\{[^}]+\}/g, '[^/]+') + '$').test(concrete),
  );
  // the most specific template wins: /users/me over /users/{user_id}
  return matches.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

/**
 * Errors of an error answer. Upstream lists an endpoint's error answers as `oneOf` examples that
 * are not mutually exclusive (a generic coded error matches several), so an answer is right when it
 * matches at least one of them; without a documented answer, it must be a generic coded error.
 */
function errorSchemaErrors(
  method: Method,
  template: string,
  status: number,
  body: unknown,
): string[] {
  const schema = spec!.deref(spec!.responseSchema(method, template, status));
  if (!schema) return spec!.validateComponent('CodedError', body);
  const branches: any[] = schema.oneOf ?? [schema];
  const names = branches
    .flatMap((b) => (b.allOf ?? [b]).map((x: { $ref?: string }) => x.$ref?.split('/').pop()))
    .filter(Boolean) as string[];
  if (names.length === 0) return spec!.validateResponse(method, template, status, body) ?? [];
  const results = names.map((name) => spec!.validateComponent(name, body));
  return results.some((r) => r.length === 0)
    ? []
    : [`matches none of ${names.join(', ')}: ${results.flat().join('; ')}`];
}

/** Schema errors of each recorded answer (404/405 for undocumented endpoints are checked by outcome only). */
function schemaErrors(exchanges: Exchange[]): string[] {
  if (!spec) {
    skipTestWithoutSpec('the recorded answers against their upstream schemas');
    return [];
  }
  const errors: string[] = [];
  for (const e of exchanges) {
    const method = e.method as Method;
    const template = templateFor(method, e.path);
    if (!template) {
      if (e.status !== 404 && e.status !== 405)
        errors.push(`${e.method} ${e.path}: not an upstream endpoint, answered ${e.status}`);
      continue;
    }
    const found =
      e.status >= 400
        ? errorSchemaErrors(method, template, e.status, e.body)
        : spec.validateResponse(
            method,
            template,
            e.status,
            e.body,
            Object.keys(ALLOW[`${method} ${template}`] ?? {}),
          );
    for (const message of found ?? []) errors.push(`${e.method} ${e.path} ${e.status}: ${message}`);
  }
  return errors;
}

/** What the proxy recorded since the last call, schema-checked, without the bindings' GET /server_settings. */
function recordedFrom(proxy: RecordingProxy): Exchange[] {
  const all = proxy.take();
  expect(schemaErrors(all).join('\n')).toBe('');
  return all.filter((e) => e.path !== '/server_settings');
}

function expectCalls(exchanges: Exchange[], expected: Expected) {
  const calls = exchanges;
  const seen = calls.map((e) => `${e.method} ${e.path} -> ${outcomeOf(e)}`);
  expect(seen.length, seen.join('\n')).toBe(expected.length);
  expected.forEach(([method, pattern, outcome], i) => {
    const e = calls[i]!;
    expect(`${e.method} ${e.path}`, seen.join('\n')).toMatch(
      new RegExp(`^${method} ${pattern.source}$`),
    );
    expect(outcomeOf(e), `${seen[i]}: ${JSON.stringify(e.body).slice(0, 300)}`).toBe(outcome);
  });
}

describe('documented examples of the official bindings, against our server', () => {
  let server: TestServer;
  let proxy: RecordingProxy;
  let cordelia: TestClient;
  let hamlet: TestClient;
  let iago: TestClient;
  const streamIds: Record<string, number> = {};
  const recorded = () => recordedFrom(proxy);

  beforeAll(async () => {
    server = await startTestServer({ db: 'sqlite' });
    proxy = await new RecordingProxy(server.url).start();
    cordelia = await TestClient.login(server.url, 'cordelia@example.com', DEMO_PASSWORD);
    hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    iago = await TestClient.login(server.url, 'iago@example.com', DEMO_PASSWORD);
    // The streams the examples name, with Cordelia subscribed, as in Zulip's development server.
    const names = ['test-bot', 'bot testing', 'Verona', 'Denmark'];
    const created = await cordelia.post('/users/me/subscriptions', {
      subscriptions: names.map((name) => ({ name })),
    });
    expect(created.body.result).toBe('success');
    for (const name of names)
      streamIds[name] = (await cordelia.get('/get_stream_id', { stream: name })).body.stream_id;
    proxy.take();
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  describe('zulip-js examples/ (from its npm package)', () => {
    let dir: string;
    const env = () => ({
      ...process.env,
      ZULIP_USERNAME: cordelia.email,
      ZULIP_API_KEY: cordelia.apiKey,
      ZULIP_PASSWORD: DEMO_PASSWORD,
      ZULIP_REALM: proxy.url,
      ZULIP_TEST_USERNAME: 'hamlet@example.com',
    });

    beforeAll(() => {
      // The examples require('../lib') and read ./zuliprc: copy them beside a link to the package's
      // lib/ and write the zuliprc they expect, pointing at our server.
      const pkg = path.join(repoRoot, 'node_modules/zulip-js');
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-zulip-js-'));
      fs.cpSync(path.join(pkg, 'examples'), path.join(dir, 'examples'), { recursive: true });
      fs.symlinkSync(path.join(pkg, 'lib'), path.join(dir, 'lib'));
      fs.writeFileSync(
        path.join(dir, 'examples/zuliprc'),
        `[api]\nemail=${cordelia.email}\nkey=${cordelia.apiKey}\nsite=${proxy.url}\n`,
      );
    });
    afterAll(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

    async function example(file: string, extraEnv: Record<string, string> = {}) {
      proxy.take();
      const out = await run(process.execPath, [path.join(dir, 'examples', file)], {
        env: { ...env(), ...extraEnv },
        timeout: 30_000,
      });
      return { stdout: out.stdout, exchanges: recorded() };
    }

    it('server.js, accounts.js and init.js: server settings, password login, zuliprc and key', async () => {
      expectCalls((await example('server.js')).exchanges, []);
      const accounts = await example('accounts.js');
      expectCalls(accounts.exchanges, [
        ['POST', /\/fetch_api_key/, 'success'],
        ['POST', /\/fetch_api_key/, 'success'],
      ]);
      expect(accounts.exchanges.at(-1)!.body.api_key).toBe(cordelia.apiKey);
      const init = await example('init.js');
      expectCalls(init.exchanges, [
        ['GET', /\/users\/me\/subscriptions/, 'success'],
        ['GET', /\/users\/me\/subscriptions/, 'success'],
      ]);
      expect(init.exchanges[0]!.body.subscriptions.map((s: { name: string }) => s.name)).toEqual(
        expect.arrayContaining(['Verona', 'test-bot']),
      );
    });

    it("messages.js: send, edit, fetch around it, flags, history; the removed pointer endpoint and others' messages refused", async () => {
      const { exchanges } = await example('messages.js');
      expectCalls(exchanges, [
        ['POST', /\/messages/, 'success'],
        ['PATCH', /\/messages\/\d+/, 'success'],
        ['GET', /\/messages/, 'success'],
        ['GET', /\/messages/, 'success'],
        ['GET', /\/users\/me\/pointer/, 404], // removed in Zulip 3.0
        ['GET', /\/messages/, 'BAD_REQUEST'], // anchor=undefined, because the pointer is gone
        ['POST', /\/messages\/flags/, 'success'],
        ['POST', /\/messages\/flags/, 'success'],
        ['GET', /\/messages\/1/, 'success'],
        ['GET', /\/messages\/2\/history/, 'success'],
        ['DELETE', /\/messages\/1\/reactions/, 'BAD_REQUEST'], // neither emoji_name nor emoji_code
        ['DELETE', /\/messages\/1/, 'BAD_REQUEST'], // not Cordelia's message
      ]);
      const sent = exchanges[0]!.body.id;
      const stored = await cordelia.get(`/messages/${sent}`);
      expect(stored.body).toMatchObject({
        raw_content: 'New content',
        message: { subject: 'Testing zulip-js', display_recipient: 'test-bot' },
      });
      expect(exchanges[2]!.body.messages.map((m: { id: number }) => m.id)).toContain(sent);
    });

    it('private-messages.js, call_endpoint.js, reactions.js: direct messages, a raw call, a reaction added and removed', async () => {
      const pm = await example('private-messages.js');
      // The example sends without awaiting and fetches twice at once: the send's answer waits for
      // its sync to disk, so on a busy machine it may come back after one or both fetches. The
      // send is put first; whether the second fetch could see the message depends on that order.
      const sendAt = pm.exchanges.slice(0, 3).findIndex((e) => e.method === 'POST');
      const sentBeforeFetch = sendAt >= 0 && sendAt < 2;
      if (sendAt > 0) pm.exchanges.unshift(...pm.exchanges.splice(sendAt, 1));
      expectCalls(pm.exchanges, [
        ['POST', /\/messages/, 'success'],
        ['GET', /\/messages/, 'BAD_REQUEST'], // `res` is a promise in the example: anchor=undefined
        ['GET', /\/messages/, 'success'],
        ['GET', /\/users\/me\/pointer/, 404],
        ['GET', /\/messages/, 'BAD_REQUEST'],
      ]);
      const dm = pm.exchanges[0]!.body.id;
      if (sentBeforeFetch)
        expect(pm.exchanges[2]!.body.messages.map((m: { id: number }) => m.id)).toContain(dm);
      expect((await hamlet.get(`/messages/${dm}`)).body.message).toMatchObject({
        type: 'private',
        sender_email: 'cordelia@example.com',
      });

      const call = await example('call_endpoint.js');
      expectCalls(call.exchanges, [['POST', /\/messages/, 'success']]);
      expect(
        (await cordelia.get(`/messages/${call.exchanges[0]!.body.id}`)).body.message
          .display_recipient,
      ).toBe('bot testing');

      const reactions = await example('reactions.js');
      expectCalls(reactions.exchanges, [
        ['POST', /\/messages\/1\/reactions/, 'success'],
        ['DELETE', /\/messages\/1\/reactions/, 'success'],
      ]);
      const me = (await cordelia.get('/users/me')).body.user_id;
      expect(
        (await cordelia.get('/messages/1')).body.message.reactions.filter(
          (r: { user_id: number }) => r.user_id === me,
        ),
      ).toEqual([]);
    });

    it('streams.js, subscriptions.js, users.js, filters.js, emojis.js: lists, joining, leaving, refusals', async () => {
      const streams = await example('streams.js');
      expectCalls(streams.exchanges, [
        ['GET', /\/streams/, 'success'],
        ['GET', /\/users\/me\/subscriptions/, 'success'],
        ['GET', /\/users\/me\/15\/topics/, 'BAD_REQUEST'], // no stream 15 here
      ]);
      const subs = await example('subscriptions.js');
      expectCalls(subs.exchanges, [['POST', /\/users\/me\/subscriptions/, 'success']]);
      expect(subs.exchanges[0]!.body.subscribed).toEqual({ 'cordelia@example.com': ['off topic'] });
      const users = await example('users.js');
      expectCalls(users.exchanges, [
        ['GET', /\/users/, 'success'],
        ['POST', /\/users/, 'UNAUTHORIZED_PRINCIPAL'], // Cordelia may not create users (not an administrator)
        ['GET', /\/users\/me/, 'success'],
        ['DELETE', /\/users\/me\/subscriptions/, 'success'],
        ['GET', /\/users\/me\/pointer/, 404],
        ['POST', /\/users\/me\/pointer/, 404],
        ['GET', /\/users\/me\/alert_words/, 'success'],
      ]);
      expect(users.exchanges[3]!.body).toMatchObject({ removed: ['Verona'], not_removed: [] });
      // GET /realm/filters was replaced by GET /realm/linkifiers in Zulip 4.0.
      expectCalls((await example('filters.js')).exchanges, [['GET', /\/realm\/filters/, 405]]);
      const emojis = await example('emojis.js');
      expectCalls(emojis.exchanges, [['GET', /\/realm\/emoji/, 'success']]);
      expect(typeof emojis.exchanges[0]!.body.emoji).toBe('object');
    });

    it('queues.js and events.js: a queue registered, an unknown one refused, events read from a queue', async () => {
      const queues = await example('queues.js');
      expectCalls(queues.exchanges, [
        ['POST', /\/register/, 'success'],
        ['DELETE', /\/events/, 'BAD_EVENT_QUEUE_ID'],
      ]);
      const q = await cordelia.post('/register', { event_types: ['message'] });
      const sent = await hamlet.post('/messages', {
        type: 'stream',
        to: 'Denmark',
        topic: 'events',
        content: 'for the queue',
      });
      const events = await example('events.js', { ZULIP_QUEUE_ID: q.body.queue_id });
      expectCalls(events.exchanges, [['GET', /\/events/, 'success']]);
      expect(
        events.exchanges[0]!.body.events.map((e: { message?: { id: number } }) => e.message?.id),
      ).toContain(sent.body.id);
    });
  });

  const source = zulipSource('bindings');
  const pyDir =
    process.env.PARLEY_PYTHON_ZULIP || ('dir' in source ? path.join(source.dir, 'zulip') : '');
  const pyReason = (() => {
    if (!pyDir || !fs.existsSync(path.join(pyDir, 'zulip/examples')))
      return `the Python bindings' source is not at ${pyDir || '(none)'} (set PARLEY_PYTHON_ZULIP${'reason' in source ? `; ${source.reason}` : ''})`;
    return missingPythonModules(['zulip'], [pyDir]);
  })();
  if (pyReason) console.warn(`bindings examples: Python examples step aside: ${pyReason}`);

  describe.skipIf(!!pyReason)('python-zulip-api zulip/examples', () => {
    const credentials = (c: TestClient) => [
      '--site',
      proxy.url,
      '--user',
      c.email!,
      '--api-key',
      c.apiKey!,
    ];
    async function example(c: TestClient, script: string, ...args: string[]) {
      proxy.take();
      const out = await run(
        PYTHON,
        [path.join(pyDir, 'zulip/examples', script), ...credentials(c), ...args],
        {
          env: { ...process.env, PYTHONPATH: pyDir },
          cwd: os.tmpdir(), // get-history writes history.json where it runs
          timeout: 30_000,
        },
      );
      return { stdout: out.stdout, exchanges: recorded() };
    }

    it('send-message, get-history, get-messages, get-raw-message, message-history, edit-message, delete-message', async () => {
      const stream = await example(
        cordelia,
        'send-message',
        '--type=stream',
        'Denmark',
        '--subject=python',
        '--message=from the **bindings**',
      );
      expectCalls(stream.exchanges, [['POST', /\/messages/, 'success']]);
      const id = stream.exchanges[0]!.body.id;
      const dm = await example(
        cordelia,
        'send-message',
        'hamlet@example.com',
        'othello@example.com',
      );
      expectCalls(dm.exchanges, [['POST', /\/messages/, 'success']]);
      expect(
        (await hamlet.get(`/messages/${dm.exchanges[0]!.body.id}`)).body.message.display_recipient,
      ).toHaveLength(3);

      const history = await example(
        cordelia,
        'get-history',
        '--stream',
        'Denmark',
        '--topic',
        'python',
      );
      expectCalls(history.exchanges, [['GET', /\/messages/, 'success']]);
      expect(history.exchanges[0]!.body.messages.map((m: { id: number }) => m.id)).toEqual([id]);
      const around = await example(
        cordelia,
        'get-messages',
        '--anchor',
        String(id),
        '--num-before=1',
        '--num-after=1',
        '--narrow=[{"operator":"stream","operand":"Denmark"}]',
      );
      expectCalls(around.exchanges, [['GET', /\/messages/, 'success']]);
      expect(around.exchanges[0]!.body).toMatchObject({ found_anchor: true, anchor: id });

      expectCalls((await example(cordelia, 'get-raw-message', String(id))).exchanges, [
        ['GET', new RegExp(`/messages/${id}`), 'success'],
      ]);
      expectCalls(
        (
          await example(
            cordelia,
            'edit-message',
            '--message-id',
            String(id),
            '--content',
            'edited by python',
          )
        ).exchanges,
        [['PATCH', new RegExp(`/messages/${id}`), 'success']],
      );
      const edits = await example(cordelia, 'message-history', String(id));
      expectCalls(edits.exchanges, [['GET', new RegExp(`/messages/${id}/history`), 'success']]);
      expect(
        edits.exchanges[0]!.body.message_history.map((h: { content: string }) => h.content),
      ).toEqual(['from the **bindings**', 'edited by python']);
      // Someone else's message may not be deleted; one's own may, as the organization allows members.
      expectCalls((await example(cordelia, 'delete-message', '1')).exchanges, [
        ['DELETE', /\/messages\/1/, 'BAD_REQUEST'],
      ]);
      expectCalls((await example(cordelia, 'delete-message', String(id))).exchanges, [
        ['DELETE', new RegExp(`/messages/${id}`), 'success'],
      ]);
      expect((await cordelia.get(`/messages/${id}`)).body.code).toBe('BAD_REQUEST');
    });

    it('streams and subscriptions: get-public-streams, get-subscriptions, get-stream-topics, subscribe, unsubscribe, mute-topic', async () => {
      const streams = await example(cordelia, 'get-public-streams');
      expectCalls(streams.exchanges, [['GET', /\/streams/, 'success']]);
      expect(streams.exchanges[0]!.body.streams.map((s: { name: string }) => s.name)).toEqual(
        expect.arrayContaining(['general', 'Denmark']),
      );
      expectCalls((await example(cordelia, 'get-subscriptions')).exchanges, [
        ['GET', /\/users\/me\/subscriptions/, 'success'],
      ]);
      await cordelia.post('/messages', {
        type: 'stream',
        to: 'Denmark',
        topic: 'herring',
        content: 'x',
      });
      const topics = await example(
        cordelia,
        'get-stream-topics',
        '--stream-id',
        String(streamIds.Denmark),
      );
      expectCalls(topics.exchanges, [['GET', /\/users\/me\/\d+\/topics/, 'success']]);
      expect(topics.exchanges[0]!.body.topics[0].name).toBe('herring');

      const joined = await example(
        cordelia,
        'subscribe',
        '--streams',
        'engineering new-from-python',
      );
      expectCalls(joined.exchanges, [['POST', /\/users\/me\/subscriptions/, 'success']]);
      const { subscribed, already_subscribed } = joined.exchanges[0]!.body;
      expect(subscribed['cordelia@example.com']).toContain('new-from-python');
      expect(
        [
          ...(subscribed['cordelia@example.com'] ?? []),
          ...(already_subscribed['cordelia@example.com'] ?? []),
        ].sort(),
      ).toEqual(['engineering', 'new-from-python']);
      const left = await example(
        cordelia,
        'unsubscribe',
        '--streams',
        'new-from-python nowhere-at-all',
      );
      expectCalls(left.exchanges, [
        ['DELETE', /\/users\/me\/subscriptions/, 'STREAM_DOES_NOT_EXIST'],
      ]);
      expect(left.exchanges[0]!.body.stream).toBe('nowhere-at-all');

      expectCalls((await example(cordelia, 'mute-topic', 'mute', 'Denmark', 'herring')).exchanges, [
        ['PATCH', /\/users\/me\/subscriptions\/muted_topics/, 'success'],
      ]);
      const herring = async () =>
        (
          (await cordelia.post('/register', { fetch_event_types: ['user_topic'] })).body
            .user_topics as { stream_id: number; topic_name: string; visibility_policy: number }[]
        )
          .filter((t) => t.stream_id === streamIds.Denmark && t.topic_name === 'herring')
          .map((t) => t.visibility_policy);
      expect(await herring()).toEqual([1]);
      expectCalls(
        (await example(cordelia, 'mute-topic', 'unmute', 'Denmark', 'herring')).exchanges,
        [['PATCH', /\/users\/me\/subscriptions\/muted_topics/, 'success']],
      );
      expect(await herring()).toEqual([]);
    });

    it('administration: edit-stream, delete-stream, create-user, as a member and as an administrator', async () => {
      const id = streamIds['bot testing'];
      expectCalls(
        (
          await example(
            cordelia,
            'edit-stream',
            '--stream-id',
            String(id),
            '--description',
            'for bots',
          )
        ).exchanges,
        [['PATCH', new RegExp(`/streams/${id}`), 'UNAUTHORIZED_PRINCIPAL']],
      );
      expectCalls(
        (
          await example(
            iago,
            'edit-stream',
            '--stream-id',
            String(id),
            '--description',
            'for bots',
            '--new-name',
            'bots',
          )
        ).exchanges,
        [['PATCH', new RegExp(`/streams/${id}`), 'success']],
      );
      const edited = (await iago.get(`/streams/${id}`)).body.stream;
      // The example still JSON-quotes new_name and description, which Zulip stopped decoding at feature
      // level 64: the real service stores the quotes too.
      expect(edited).toMatchObject({
        name: '"bots"',
        description: '"for bots"',
        invite_only: false,
        history_public_to_subscribers: true,
      });

      expectCalls(
        (
          await example(
            cordelia,
            'create-user',
            '--new-email',
            'newbie@example.com',
            '--new-password',
            'temp-pass-1',
            '--new-full-name',
            'New User',
            '--new-short-name',
            'newbie',
          )
        ).exchanges,
        [['POST', /\/users/, 'UNAUTHORIZED_PRINCIPAL']],
      );
      expectCalls((await example(iago, 'delete-stream', String(id))).exchanges, [
        ['DELETE', new RegExp(`/streams/${id}`), 'success'],
      ]);
      expect((await cordelia.get('/get_stream_id', { stream: '"bots"' })).body.code).toBe(
        'BAD_REQUEST',
      );
    });

    it('people: list-users, get-user-presence, alert-words, update-message-flags, realm-emoji, upload-file', async () => {
      const users = await example(cordelia, 'list-users');
      expectCalls(users.exchanges, [['GET', /\/users/, 'success']]);
      expect(users.stdout).toContain('King Hamlet hamlet@example.com');
      expectCalls(
        (await example(cordelia, 'get-user-presence', '--email', 'hamlet@example.com')).exchanges,
        [['GET', /\/users\/hamlet@example.com\/presence/, 'BAD_REQUEST']],
      ); // no presence yet
      await hamlet.post('/users/me/presence', { status: 'active' });
      const presence = await example(
        cordelia,
        'get-user-presence',
        '--email',
        'hamlet@example.com',
      );
      expectCalls(presence.exchanges, [
        ['GET', /\/users\/hamlet@example.com\/presence/, 'success'],
      ]);
      expect(presence.exchanges[0]!.body.presence.aggregated.status).toBe('active');

      const added = await example(cordelia, 'alert-words', 'add', 'herring');
      expectCalls(added.exchanges, [['POST', /\/users\/me\/alert_words/, 'success']]);
      expectCalls((await example(cordelia, 'alert-words', 'get')).exchanges, [
        ['GET', /\/users\/me\/alert_words/, 'success'],
      ]);
      const removed = await example(cordelia, 'alert-words', 'remove', 'herring');
      expectCalls(removed.exchanges, [['DELETE', /\/users\/me\/alert_words/, 'success']]);
      expect([
        added.exchanges[0]!.body.alert_words,
        removed.exchanges[0]!.body.alert_words,
      ]).toEqual([['herring'], []]);

      const mine = (
        await cordelia.post('/messages', {
          type: 'stream',
          to: 'Denmark',
          topic: 'flags',
          content: 'star me',
        })
      ).body.id;
      const flagged = await example(
        cordelia,
        'update-message-flags',
        'add',
        'starred',
        String(mine),
      );
      expectCalls(flagged.exchanges, [['POST', /\/messages\/flags/, 'success']]);
      expect((await cordelia.get(`/messages/${mine}`)).body.message.flags).toContain('starred');
      expectCalls(
        (await example(cordelia, 'update-message-flags', 'add', 'mentioned', String(mine)))
          .exchanges,
        [['POST', /\/messages\/flags/, 'BAD_REQUEST']],
      );

      const emoji = await example(cordelia, 'realm-emoji');
      expectCalls(emoji.exchanges, [['GET', /\/realm\/emoji/, 'success']]);

      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-upload-')), 'notes.txt');
      fs.writeFileSync(file, 'uploaded by the python bindings\n');
      const upload = await example(cordelia, 'upload-file', '--file-path', file);
      expectCalls(upload.exchanges, [['POST', /\/user_uploads/, 'success']]);
      const url = upload.exchanges[0]!.body.url as string;
      const fetched = await fetch(new URL(url, server.url), {
        headers: {
          Authorization:
            'Basic ' + Buffer.from(`${cordelia.email}:${cordelia.apiKey}`).toString('base64'),
        },
      });
      expect(await fetched.text()).toBe('uploaded by the python bindings\n');
    });

    it('print-messages and print-events: a long-poll loop that prints what another user sends', async () => {
      for (const script of ['print-messages', 'print-events']) {
        proxy.take();
        const child = spawn(
          PYTHON,
          [path.join(pyDir, 'zulip/examples', script), ...credentials(cordelia)],
          { env: { ...process.env, PYTHONPATH: pyDir } },
        );
        let stdout = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        try {
          const deadline = Date.now() + 15_000;
          while (!proxy.exchanges.some((e) => e.path === '/register') && Date.now() < deadline)
            await new Promise((r) => setTimeout(r, 50));
          const marker = `seen by ${script} ${Date.now()}`;
          // print-events listens to the stream Denmark only; a message elsewhere must not show.
          await hamlet.post('/messages', {
            type: 'stream',
            to: 'general',
            topic: 'elsewhere',
            content: `not ${marker}`,
          });
          await hamlet.post('/messages', {
            type: 'stream',
            to: 'Denmark',
            topic: 'loop',
            content: marker,
          });
          while (!stdout.includes(marker) && Date.now() < deadline)
            await new Promise((r) => setTimeout(r, 50));
          expect(stdout).toContain(marker);
          if (script === 'print-events') expect(stdout).not.toContain(`not ${marker}`);
        } finally {
          child.kill();
        }
        const register = proxy.exchanges.find((e) => e.path === '/register')!;
        expect(register.body.result).toBe('success');
        expect(schemaErrors(proxy.take().filter((e) => e.status !== 0))).toEqual([]);
      }
    });
  });
});
