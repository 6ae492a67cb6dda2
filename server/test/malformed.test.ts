import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownRoutes } from '../http/route.js';
import { resetRateLimits } from '../http/rate-limit.js';
import { DATABASES, startTestServer, type TestServer } from './harness.js';
import { fetchResult, TestClient, type ApiResult } from './client.js';
import { prepare, STEPS, type Step, type Vars, type Who } from './endpoints.js';
import { fillPath, type Method } from './openapi.js';

/**
 * The "no 5xx" sweep: every registered endpoint gets missing, mistyped, broken, huge, negative
 * and unknown values, wrong methods, wrong credentials and wrong bodies. Every answer must be the
 * JSON envelope: `success` with 2xx, or `error` with a 4xx, a `msg` and possibly a `code`.
 */

const HUGE = '99999999999999999999';
/** A safe integer that does not fit the 32-bit id columns (PostgreSQL refuses it even in comparisons). */
const WIDE = '2147483648';
const COMMON = ['', 'a\u0000b', '[1,'];

/** Raw values that are wrong for a parameter whose valid example is `value`. */
function variants(value: unknown): string[] {
  if (typeof value === 'number')
    return [...COMMON, 'abc', '1.5', '-1', '999999', HUGE, WIDE, '[1]'];
  if (typeof value === 'boolean') return [...COMMON, 'maybe', '{}'];
  if (typeof value === 'string') return [...COMMON, 'x'.repeat(100_000), '\ud800', HUGE];
  return [
    ...COMMON,
    '{}',
    '"x"',
    '1',
    '[null]',
    '[[1]]',
    '[-1]',
    '[999999]',
    `[${HUGE}]`,
    `[${WIDE}]`,
    ...deepVariants(value),
  ];
}

const LEAVES: unknown[] = [null, 'x', -1, [], {}, 'a\u0000b', 2147483648];

/** The JSON example with one leaf replaced by a wrong value, or one key left out (a sample of them). */
function deepVariants(value: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown, replace: (x: unknown) => unknown, remove?: () => unknown) => {
    if (remove) out.push(JSON.stringify(remove()));
    for (const leaf of LEAVES) out.push(JSON.stringify(replace(leaf)).replace('2147483648', HUGE));
    if (Array.isArray(node) && node.length) {
      walk(node[0], (x) => replace([x, ...node.slice(1)]));
    } else if (node && typeof node === 'object') {
      for (const key of Object.keys(node).slice(0, 4)) {
        const rest = () => Object.fromEntries(Object.entries(node).filter(([k]) => k !== key));
        walk(
          (node as any)[key],
          (x) => replace({ ...node, [key]: x }),
          () => replace(rest()),
        );
      }
    }
  };
  if (Array.isArray(value) || (value && typeof value === 'object')) walk(value, (x) => x);
  return [...new Set(out)].slice(0, 24);
}

const PATH_VARIANTS = [
  '0',
  '-1',
  '999999',
  HUGE,
  WIDE,
  'abc',
  '%00',
  'a%2Fb',
  '%E2%9C%94',
  '%zz',
  'x'.repeat(300),
];
const METHODS: Method[] = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'];

interface Route {
  method: Method;
  pattern: RegExp;
  /** the path under /api/v1 with {param} placeholders */
  template: string;
}

/** The registered routes, from the patterns the route layer records: '^\/api\/v1\/x\/[^\/]+\/?$'. */
function registeredRoutes(): Route[] {
  const byKey = new Map<string, Route>();
  for (const r of knownRoutes) {
    const template = r.pattern.source
      .replace(/^\^\\\/api\\\/v1/, '')
      .replace(/\\\/\?\$$/, '')
      .replace(/\[\^\\?\/\]\+/g, '{param}')
      .replace(/\\\//g, '/');
    byKey.set(`${r.method} ${template}`, { method: r.method, pattern: r.pattern, template });
  }
  return [...byKey.values()];
}

const stepTemplate = (s: Step) => s.path.replace(/\{\w+\}/g, '{param}');

describe.each(DATABASES)('no request makes the server fail, on %s', (db) => {
  let server: TestServer;
  let clients: Record<Who, TestClient>;
  let v: Vars;
  let routes: Route[];
  /** the first valid step of every route: who calls it, with which path and parameters */
  const valid = new Map<string, Step>();

  beforeAll(async () => {
    // The sweep spends the login budget (10 a minute) of the database before.
    resetRateLimits();
    server = await startTestServer({ db });
    ({ clients, v } = await prepare(server));
    // Build live objects to point at (messages, drafts, invites...), keeping them: no DELETE.
    for (const step of STEPS) {
      if (step.status) continue;
      const key = `${step.method} ${stepTemplate(step)}`;
      if (!valid.has(key)) valid.set(key, step);
      if (step.method === 'DELETE') continue;
      const r = await clients[step.as ?? 'hamlet'].request(
        step.method,
        fillPath(step.path, step.pathValues?.(v)),
        step.params?.(v) ?? {},
      );
      if (r.status === 200) step.then?.(r.body, v);
    }
    routes = registeredRoutes();
  });
  afterAll(() => server?.close());

  const clientFor = (route: Route) =>
    clients[valid.get(`${route.method} ${route.template}`)?.as ?? 'hamlet'];
  const urlFor = (route: Route) => {
    const step = valid.get(`${route.method} ${route.template}`);
    return step
      ? fillPath(step.path, step.pathValues?.(v))
      : route.template.replace(/\{param\}/g, '1');
  };

  /** What is wrong with an answer, if anything. */
  function problems(label: string, r: ApiResult): string[] {
    const out: string[] = [];
    const b = r.body;
    if (r.status >= 500) out.push(`${label}: ${r.status} ${JSON.stringify(b).slice(0, 200)}`);
    else if (!String(r.headers.get('content-type')).startsWith('application/json'))
      out.push(`${label}: not JSON (${r.headers.get('content-type')})`);
    else if (r.status < 300 && b?.result !== 'success')
      out.push(`${label}: ${r.status} without success`);
    else if (
      r.status >= 300 &&
      (r.status >= 500 ||
        r.status < 400 ||
        b?.result !== 'error' ||
        typeof b.msg !== 'string' ||
        (b.code !== undefined && typeof b.code !== 'string'))
    )
      out.push(`${label}: ${r.status} ${JSON.stringify(b).slice(0, 200)}`);
    else if (
      b?.code === 'REQUEST_VARIABLE_MISSING' &&
      (typeof b.var_name !== 'string' || !b.var_name)
    )
      out.push(`${label}: no var_name`);
    return out;
  }

  /** Runs the requests a few at a time and gathers every problem. */
  async function sweep(requests: [string, () => Promise<ApiResult>][]): Promise<string[]> {
    const found: string[] = [];
    for (let i = 0; i < requests.length; i += 12) {
      const batch = requests.slice(i, i + 12);
      const results = await Promise.all(
        batch.map(async ([label, send]) => {
          try {
            return problems(label, await send());
          } catch (err) {
            return [`${label}: ${String(err)}`];
          }
        }),
      );
      found.push(...results.flat());
    }
    return found;
  }

  /** A request with a hand-made body; as `as` (hamlet by default), or with the `auth` header given. */
  const raw =
    (
      method: string,
      url: string,
      init: {
        headers?: Record<string, string>;
        body?: string | FormData;
        as?: TestClient;
        auth?: string | null;
      } = {},
    ) =>
    async (): Promise<ApiResult> => {
      const as = init.auth === undefined ? (init.as ?? clients.hamlet) : null;
      const headers: Record<string, string> = { ...init.headers };
      if (as)
        headers.Authorization =
          'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64');
      if (init.auth) headers.Authorization = init.auth;
      return fetchResult(`${server.url}/api/v1${url}`, { method, headers, body: init.body });
    };

  it('covers every registered route with a valid call to start from', () => {
    const missing = routes
      .filter((r) => !valid.has(`${r.method} ${r.template}`))
      .map((r) => `${r.method} ${r.template}`);
    expect(missing).toEqual([]);
  });

  it('answers every route called without any parameter, naming a missing one', async () => {
    const found = await sweep(
      routes.map((route) => [
        `${route.method} ${route.template}`,
        () => clientFor(route).request(route.method, urlFor(route)),
      ]),
    );
    expect(found).toEqual([]);
    const r = await clients.hamlet.post('/messages', {});
    expect(r.body).toMatchObject({
      result: 'error',
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'type',
    });
    expect(
      (await clients.anon.post('/fetch_api_key', { username: 'hamlet@example.com' })).body,
    ).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'password' });
    expect((await clients.hamlet.delete('/users/me/subscriptions', {})).body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'subscriptions',
    });
  });

  it('answers wrong types, broken JSON, huge, negative and unknown numbers and null bytes in every parameter', async () => {
    const requests: [string, () => Promise<ApiResult>][] = [];
    for (const [key, step] of valid) {
      const params = step.params?.(v) ?? {};
      const url = fillPath(step.path, step.pathValues?.(v));
      for (const [name, example] of Object.entries(params)) {
        for (const bad of variants(example)) {
          requests.push([
            `${key} ${name}=${JSON.stringify(bad).slice(0, 60)}`,
            () =>
              clients[step.as ?? 'hamlet'].request(step.method, url, { ...params, [name]: bad }),
          ]);
        }
      }
    }
    expect(requests.length).toBeGreaterThan(800);
    expect(await sweep(requests)).toEqual([]);
    // Over eight hundred requests: on a busy two-core machine the sweep alone may pass 30 s.
  }, 120_000);

  it('answers broken JSON in a list parameter with BAD_REQUEST naming it', async () => {
    const r = await clients.hamlet.get('/messages', { anchor: 'newest', narrow: '[1,' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(r.body.msg).toContain('narrow');
    const objects = await clients.hamlet.post('/users/me/subscriptions', {
      subscriptions: '{"name": "x"}',
    });
    expect(objects.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    const ints = await clients.hamlet.post('/messages/flags', {
      messages: `[${HUGE}]`,
      op: 'add',
      flag: 'read',
    });
    expect(ints.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('answers unknown, negative, huge and non-numeric ids in every path', async () => {
    const requests: [string, () => Promise<ApiResult>][] = [];
    for (const route of routes.filter((r) => r.template.includes('{param}'))) {
      const step = valid.get(`${route.method} ${route.template}`);
      for (const bad of PATH_VARIANTS) {
        const url = route.template.replace(/\{param\}/g, bad);
        requests.push([
          `${route.method} ${url}`,
          () => clientFor(route).request(route.method, url, step?.params?.(v) ?? {}),
        ]);
      }
    }
    expect(await sweep(requests)).toEqual([]);
    const unknown = await clients.hamlet.get('/messages/999999');
    expect(unknown).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST' } });
  });

  it('refuses other methods with 405 naming the allowed ones (or 404 when another route owns the path)', async () => {
    const paths = new Map<string, Set<string>>();
    for (const r of routes)
      paths.set(r.template, (paths.get(r.template) ?? new Set()).add(r.method));
    const requests: [string, () => Promise<ApiResult>][] = [];
    for (const [template, allowed] of paths) {
      const url = template.replace(/\{param\}/g, '1');
      for (const method of METHODS.filter((m) => !allowed.has(m))) {
        // Another route may own the path (GET /messages/flags is GET /messages/{id}): any 4xx then.
        const owned = routes.some((r) => r.method === method && r.pattern.test(`/api/v1${url}`));
        requests.push([
          `${method} ${template}`,
          async () => {
            const r = await clients.hamlet.request(method, url);
            const allow = String(r.headers.get('allow')).split(', ');
            if (!owned && (r.status !== 405 || [...allowed].some((m) => !allow.includes(m))))
              return { ...r, status: 500 };
            return r;
          },
        ]);
      }
    }
    expect(requests.length).toBeGreaterThan(100);
    expect(await sweep(requests)).toEqual([]);
  });

  it('refuses missing, malformed and wrong credentials', async () => {
    // Open to anyone, credentials unread: the server's settings, logging in, and the visitors'
    // stream of web-public events (a Parley extension).
    const open = new Set([
      'GET /server_settings',
      'POST /fetch_api_key',
      'GET /parley/web_public_events',
    ]);
    const requests: [string, () => Promise<ApiResult>][] = [];
    const wrongKey = new TestClient(server.url, 'hamlet@example.com', 'x'.repeat(32));
    const nobody = new TestClient(server.url, 'nobody@example.com', 'x'.repeat(32));
    const nul = new TestClient(server.url, 'hamlet\u0000@example.com', 'x'.repeat(32));
    for (const route of routes) {
      const key = `${route.method} ${route.template}`;
      const url = urlFor(route);
      const expectCode = (code: string | null, send: () => Promise<ApiResult>) => async () => {
        const r = await send();
        if (open.has(key)) return r;
        return r.status === 401 && (code === null || r.body.code === code)
          ? r
          : { ...r, status: 500 };
      };
      requests.push([
        `${key} wrong key`,
        expectCode('INVALID_API_KEY', () => wrongKey.request(route.method, url)),
      ]);
      requests.push([
        `${key} unknown user`,
        expectCode('INVALID_API_KEY', () => nobody.request(route.method, url)),
      ]);
      requests.push([
        `${key} NUL in the email`,
        expectCode('INVALID_API_KEY', () => nul.request(route.method, url)),
      ]);
      for (const header of ['Basic ' + Buffer.from('no-colon').toString('base64'), 'Bearer abc'])
        requests.push([
          `${key} ${header}`,
          expectCode(null, raw(route.method, url, { auth: header })),
        ]);
      requests.push([`${key} no auth`, raw(route.method, url, { auth: null })]);
    }
    expect(await sweep(requests)).toEqual([]);
    const none = await clients.anon.get('/users/me');
    expect(none).toMatchObject({ status: 401, body: { result: 'error' } });
  });

  it('answers empty bodies, wrong content types and garbage bodies', async () => {
    const bodies: [string, Record<string, string>, string | undefined][] = [
      ['empty', {}, undefined],
      [
        'bad escapes',
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        'to=%E0%A4%A&content=%%%',
      ],
      ['text/plain', { 'Content-Type': 'text/plain' }, 'content=hello&type=stream'],
      ['json garbage', { 'Content-Type': 'application/json' }, '{"content": '],
      ['json list', { 'Content-Type': 'application/json' }, '[1, 2]'],
      [
        'json nulls',
        { 'Content-Type': 'application/json' },
        '{"content": null, "to": [null], "type": {}, "x": "\\u0000"}',
      ],
      [
        'multipart garbage',
        { 'Content-Type': 'multipart/form-data; boundary=zz' },
        '--zz\r\nContent-Disposition: form-data\r\n\r\nx',
      ],
      ['octet stream', { 'Content-Type': 'application/octet-stream' }, '\u0000\u0001\u0002'],
    ];
    const requests: [string, () => Promise<ApiResult>][] = [];
    for (const route of routes.filter((r) => r.method !== 'GET'))
      for (const [name, headers, body] of bodies)
        requests.push([
          `${route.method} ${route.template} ${name}`,
          raw(route.method, urlFor(route), { headers, body, as: clientFor(route) }),
        ]);
    expect(await sweep(requests)).toEqual([]);
  });

  it('refuses a 30 MB body in every encoding with 413', async () => {
    const big = 'x'.repeat(30 * 1024 * 1024);
    const form = new FormData();
    form.set('type', 'stream');
    form.set('to', 'general');
    form.set('topic', 'big');
    form.set('content', big);
    const cases: [string, Record<string, string>, string | FormData][] = [
      [
        'form',
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        `type=stream&to=general&topic=big&content=${big}`,
      ],
      [
        'json',
        { 'Content-Type': 'application/json' },
        JSON.stringify({ type: 'stream', to: 'general', topic: 'big', content: big }),
      ],
      ['text', { 'Content-Type': 'text/plain' }, big],
      ['multipart', {}, form],
    ];
    for (const [i, [name, headers, body]] of cases.entries()) {
      const url = i % 2 ? '/fetch_api_key' : '/messages';
      const r = await raw('POST', url, { headers, body })();
      expect(r.status, `${name} ${url}`).toBe(413);
      expect(r.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    }
  });

  it('names unknown streams with STREAM_DOES_NOT_EXIST and refuses unknown principals', async () => {
    const send = await clients.hamlet.post('/messages', {
      type: 'stream',
      to: 'nowhere',
      topic: 't',
      content: 'x',
    });
    expect(send.body).toMatchObject({
      result: 'error',
      code: 'STREAM_DOES_NOT_EXIST',
      stream: 'nowhere',
    });
    const byId = await clients.hamlet.post('/messages', {
      type: 'stream',
      to: 999999,
      topic: 't',
      content: 'x',
    });
    expect(byId.body).toMatchObject({
      result: 'error',
      code: 'STREAM_DOES_NOT_EXIST',
      stream_id: 999999,
      msg: "Channel with ID '999999' does not exist",
    });
    const nul = await clients.hamlet.post('/messages', {
      type: 'stream',
      to: 'no\u0000where',
      topic: 't',
      content: 'x',
    });
    expect(nul).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST' } });
    const leave = await clients.hamlet.delete('/users/me/subscriptions', {
      subscriptions: ['general', 'atlantis'],
    });
    expect(leave.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'atlantis' });
    const ghost = await clients.iago.delete('/users/me/subscriptions', {
      subscriptions: ['general'],
      principals: [999999],
    });
    expect(ghost).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
  });

  it('still serves ordinary requests after the sweep', async () => {
    const sent = await clients.hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'after the storm',
      content: 'still here',
    });
    expect(sent.status).toBe(200);
    const fetched = await clients.othello.get(`/messages/${sent.body.id}`);
    expect(fetched.body.message.content).toContain('still here');
  });
});
