import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ROUTES } from '../http/client-routes.js';
import { CONTENT_SECURITY_POLICY } from '../http/static.js';
import {
  narrowToUrl,
  narrowUrlAt,
  NOTHING_PUBLIC_URL,
  parsePlaceUrl,
  pathFromZulipHash,
  viewToUrl,
  VIEWS,
  VIEWS_WITH_PATH,
  type Narrow,
} from '../../src/narrow/index.js';
import { useClientBuild } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';

/**
 * The addresses of the web app against the server's list of them (http/client-routes.ts): the
 * app's page at every address the client's router knows, a 404 everywhere else outside the API.
 */

/** The client's router: the places `parsePlaceUrl` knows, and the two pages AppShell adds. */
function clientKnows(url: string): boolean {
  const pathname = url.split('?')[0]!;
  const bare = pathname.replace(/\/+$/, '') || '/';
  return bare === '/' || bare === NOTHING_PUBLIC_URL || parsePlaceUrl(pathname) !== null;
}

/** A narrow of every kind; a kind added to the client must be added here to compile. */
const NARROWS: { [K in Narrow['kind']]: Extract<Narrow, { kind: K }> } = {
  feed: { kind: 'feed' },
  stream: { kind: 'stream', streamId: 1 },
  topic: { kind: 'topic', streamId: 1, topic: 'café ☕ 1.2/3' },
  dm: { kind: 'dm', userIds: [11, 12] },
  starred: { kind: 'starred' },
  mentions: { kind: 'mentions' },
  search: { kind: 'search', query: 'budget "q3"' },
  filter: {
    kind: 'filter',
    terms: [
      { operator: 'sender', operand: '12', negated: false },
      { operator: 'has', operand: 'link', negated: true },
    ],
  },
};

/** Every kind of address the client writes into its location bar and its links. */
function clientUrls(): string[] {
  const narrows = Object.values(NARROWS).flatMap((n) => [
    narrowToUrl(n, 'general'),
    narrowUrlAt(n, { messageId: 42, follow: false }, 'general'),
    narrowUrlAt(n, { messageId: 42, follow: true }, 'general'),
  ]);
  // The reference app's topic of no name ("general chat") leaves an empty segment.
  const unnamed = { kind: 'topic', streamId: 1, topic: '' } as const;
  const urls = [
    '/',
    NOTHING_PUBLIC_URL,
    ...VIEWS.map((v) => viewToUrl(v)),
    ...VIEWS_WITH_PATH.flatMap((v) => [viewToUrl(v, ['notifications']), viewToUrl(v, [5, 'x y'])]),
    ...narrows,
    narrowUrlAt(unnamed, { messageId: 42, follow: false }),
    pathFromZulipHash('#narrow/channel/1-general/topic/lunch')!,
    '/inbox?from=notification',
  ];
  return [...urls, ...urls.filter((u) => u !== '/' && !u.includes('?')).map((u) => `${u}/`)];
}

/** First segments to sweep: the server's, the client's, and names either might grow. */
const SEGMENTS = [
  ...new Set([
    ...CLIENT_ROUTES.map((r) => r.split('/')[1]!),
    ...VIEWS,
    'feed',
    'narrow',
    'login',
    'logout',
    'register',
    'healthz',
    'status',
    'static',
    'assets',
    'help',
    'search',
    'starred',
    'mentions',
    'home',
    'inboxes',
    'settingsx',
    'nothing',
    'index.htm',
    'wp-login.php',
  ]),
].filter(Boolean);
const SUFFIXES = ['', '/', '/x', '/5/subscribers', '/channel/1-general', '/channel/1-general/x'];

describe('the web app at its own addresses, and a 404 elsewhere', () => {
  const html =
    '<!doctype html><title>Parley</title><script src="/assets/app-Ab12Cd34.js"></script>';
  const build = useClientBuild({
    'index.html': html,
    'assets/app-Ab12Cd34.js': 'console.log(1);\n',
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  });
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ demo: false, config: { clientDir: build.dir } });
  });
  afterAll(() => server?.close());

  /** The path as written, without fetch's resolving of `..` and `.`. */
  const get = (p: string, init: { method?: string } = {}) =>
    new Promise<Response>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const options = { hostname, port, path: p, method: init.method ?? 'GET' };
      const req = http.request(options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') headers.set(name, value);
          const body = res.statusCode === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status: res.statusCode, headers }));
        });
      });
      req.on('error', reject);
      req.end();
    });

  it('names in its list only addresses the client knows', () => {
    const stale = CLIENT_ROUTES.filter((r) => !clientKnows(r.replace('/*', '/channel/1-general')));
    expect(stale).toEqual([]);
  });

  it('answers every address the client writes with the app, revalidated at each load', async () => {
    for (const url of clientUrls()) {
      const r = await get(url);
      expect(r.status, url).toBe(200);
      expect(r.headers.get('cache-control'), url).toBe('no-cache');
      expect(r.headers.get('content-security-policy'), url).toBe(CONTENT_SECURITY_POLICY);
      expect(await r.text(), url).toBe(html);
    }
  });

  it('agrees with the client on every address of a sweep: the app where it knows one, else 404', async () => {
    const disagree: string[] = [];
    for (const segment of SEGMENTS)
      for (const suffix of SUFFIXES) {
        const url = `/${segment}${suffix}`;
        const r = await get(url);
        const app = r.status === 200 && (await r.text()) === html;
        // A narrow the client cannot read still loads the app, which says so in its own view.
        const lenient = url.startsWith('/narrow/');
        if (clientKnows(url) ? !app : app && !lenient) disagree.push(`${url}: ${r.status}`);
        if (!app) expect(r.status, url).toBe(404);
      }
    expect(disagree).toEqual([]);
  });

  it('answers an unknown path with a small page and 404, whatever the method', async () => {
    const odd = ['//inbox', '/assets/../index.html', '/./favicon.svg', '/.env'];
    for (const url of [
      '/healthz',
      '/wp-login.php',
      '/inbox/extra',
      '/narrow',
      '/a/b?x=1',
      ...odd,
    ]) {
      const r = await get(url);
      expect(r.status, url).toBe(404);
      expect(r.headers.get('content-type'), url).toBe('text/html; charset=utf-8');
      expect(r.headers.get('cache-control'), url).toBe('no-cache');
      expect(r.headers.get('content-security-policy'), url).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers.get('x-frame-options'), url).toBe('DENY');
      const body = await r.text();
      expect(body, url).toContain('Page not found');
      expect(body, url).not.toContain('<script');
      const head = await get(url, { method: 'HEAD' });
      expect(head.status, url).toBe(404);
    }
    // Whatever answers /health (a route of its own), it is not the app's page.
    expect(await (await get('/health')).text()).not.toBe(html);
    // Other methods and the API keep the JSON envelope.
    const post = await get('/inbox/extra', { method: 'POST' });
    expect(post.status).toBe(404);
    expect(await post.json()).toMatchObject({ result: 'error', code: 'NOT_FOUND' });
    for (const url of ['/api/v1/no_such_endpoint', '/api/v1/x/../users']) {
      const api = await get(url);
      expect(api.status, url).toBe(404);
      expect(await api.json(), url).toMatchObject({ result: 'error', code: 'NOT_FOUND' });
    }
    // Doubled slashes in an API path are merged, as the reference's nginx does.
    const merged = await get('/api/v1//users/me');
    const plain = await get('/api/v1/users/me');
    expect(merged.status).toBe(plain.status);
    expect(await merged.json()).toEqual(await plain.json());
    const wrongMethod = await get('/api/v1/fetch_api_key');
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    // A file of the build is served as itself, a missing hashed file is a 404.
    expect((await get('/favicon.svg')).status).toBe(200);
    const gone = await get('/assets/app-Old00000.js');
    expect(gone.status).toBe(404);
    expect(await gone.text()).not.toBe(html);
  });

  it('says the client has not been built at its addresses, and still 404 elsewhere', async () => {
    const index = path.join(build.dir, 'index.html');
    fs.renameSync(index, `${index}.away`);
    try {
      for (const url of ['/', '/inbox', '/narrow/channel/1-general']) {
        const r = await get(url);
        expect(r.status, url).toBe(503);
        expect(await r.text(), url).toContain('npm run build');
      }
      expect((await get('/nowhere')).status).toBe(404);
    } finally {
      fs.renameSync(`${index}.away`, index);
    }
  });
});
