import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD } from '../app.js';
import { acceptedEncodings, CONTENT_SECURITY_POLICY } from '../http/static.js';
import { useClientBuild } from './fixtures.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { TestClient } from './client.js';
import { runManage } from '../manage.js';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** the bytes as they came over the wire, still compressed if they were */
  body: Buffer;
}

/** A request without fetch's own Accept-Encoding and decoding, to see what the server sends. */
function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: opts.method ?? 'GET', headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

function decode(r: RawResponse): string {
  const encoding = r.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(r.body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(r.body).toString('utf8');
  return r.body.toString('utf8');
}

describe('acceptedEncodings', () => {
  it('reads names and weights, with q=0 excluding and * standing for the rest', () => {
    const a = acceptedEncodings('gzip, deflate, br;q=0.5');
    expect([a('br'), a('gzip'), a('zstd')]).toEqual([true, true, false]);
    const b = acceptedEncodings('br;q=0, *');
    expect([b('br'), b('gzip')]).toEqual([false, true]);
    const c = acceptedEncodings(' GZIP ; q=0.001 , identity');
    expect([c('gzip'), c('br')]).toEqual([true, false]);
    expect(acceptedEncodings(undefined)('gzip')).toBe(false);
    expect(acceptedEncodings('*;q=0')('br')).toBe(false);
  });
});

describe('the web client files and compressed API answers', () => {
  let server: TestServer;
  let hamlet: TestClient;
  const script = `console.log(${JSON.stringify('Parley '.repeat(2000))});\n`;
  const html = `<!doctype html><title>Parley</title><script src="/assets/app-Ab12Cd34.js"></script>${'<!-- padding -->'.repeat(100)}`;
  // A small build as Vite leaves it: hashed files under assets/, with .br and .gz copies.
  const build = useClientBuild(
    {
      'index.html': html,
      'assets/app-Ab12Cd34.js': script,
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    },
    ['index.html', 'assets/app-Ab12Cd34.js'],
  );

  beforeAll(async () => {
    server = await startTestServer({ config: { clientDir: build.dir } });
    hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
  });
  afterAll(() => server?.close());

  it('sends the brotli copy when accepted, else the gzip one, else the file itself', async () => {
    const url = `${server.url}/assets/app-Ab12Cd34.js`;
    const br = await raw(url, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(script.length / 10);
    expect(decode(br)).toBe(script);

    const gz = await raw(url, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode(gz)).toBe(script);

    const refusesBrotli = await raw(url, { headers: { 'Accept-Encoding': 'br;q=0, gzip' } });
    expect(refusesBrotli.headers['content-encoding']).toBe('gzip');
    // Weights are preferences: brotli only when it is liked at least as well as gzip.
    const prefersGzip = await raw(url, { headers: { 'Accept-Encoding': 'gzip, br;q=0.5' } });
    expect(prefersGzip.headers['content-encoding']).toBe('gzip');
    const refusesBoth = await raw(url, { headers: { 'Accept-Encoding': 'br;q=0, gzip;q=0' } });
    expect(refusesBoth.headers['content-encoding']).toBeUndefined();

    const plain = await raw(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.body.toString('utf8')).toBe(script);
    expect(Number(plain.headers['content-length'])).toBe(script.length);

    for (const r of [br, gz, refusesBoth, plain]) {
      expect(r.headers['vary']).toMatch(/^accept-encoding$/i);
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    }
  });

  it('has index.html checked at every load, for its own path and for client routes', async () => {
    for (const p of ['/', '/narrow/channel/1-general', '/index.html']) {
      const r = await raw(server.url + p, { headers: { 'Accept-Encoding': 'br' } });
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.headers['content-encoding']).toBe('br');
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['vary']).toMatch(/^accept-encoding$/i);
      expect(decode(r)).toBe(html);
      // the security headers are those of every page
      expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
    // A file without copies is sent as it is (still varying: a copy was looked for).
    const icon = await raw(`${server.url}/favicon.svg`, { headers: { 'Accept-Encoding': 'br' } });
    expect(icon.status).toBe(200);
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers a conditional request for an unchanged file with 304, each copy with its own tag', async () => {
    const url = `${server.url}/assets/app-Ab12Cd34.js`;
    const first = await raw(url, { headers: { 'Accept-Encoding': 'br' } });
    const etag = first.headers['etag']!;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(first.headers['last-modified']).toBeDefined();
    const again = await raw(url, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['etag']).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(again.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    // The gzip copy is another representation: the brotli copy's tag does not stand for it.
    const gz = await raw(url, { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag } });
    expect(gz.status).toBe(200);
    expect(gz.headers['etag']).not.toBe(etag);
    const since = await raw(url, {
      headers: { 'Accept-Encoding': 'br', 'If-Modified-Since': first.headers['last-modified']! },
    });
    expect(since.status).toBe(304);

    // index.html, revalidated at every load, costs a 304 when it has not changed.
    const page = await raw(`${server.url}/inbox`, { headers: { 'Accept-Encoding': 'gzip' } });
    const revalidated = await raw(`${server.url}/inbox`, {
      headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': page.headers['etag']! },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers['cache-control']).toBe('no-cache');
    expect(revalidated.headers['x-frame-options']).toBe('DENY');
  });

  it('answers a range of a file with 206 and those bytes, and an impossible one with 416', async () => {
    const url = `${server.url}/assets/app-Ab12Cd34.js`;
    const part = await raw(url, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${script.length}`);
    expect(part.headers['accept-ranges']).toBe('bytes');
    expect(Number(part.headers['content-length'])).toBe(100);
    expect(part.body.toString('utf8')).toBe(script.slice(100, 200));
    expect(part.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);

    const head = await raw(url, { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } });
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect(head.body.length).toBe(0);

    const tail = await raw(url, { headers: { Range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(tail.body.toString('utf8')).toBe(script.slice(-10));

    // A resumed download whose file changed meanwhile gets the whole new file.
    const stale = await raw(url, { headers: { Range: 'bytes=100-', 'If-Range': 'W/"0-0"' } });
    expect(stale.status).toBe(200);
    expect(stale.body.toString('utf8')).toBe(script);

    const beyond = await raw(url, { headers: { Range: `bytes=${script.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${script.length}`);
  });

  it('answers a missing hashed file with 404 rather than a page kept for a year', async () => {
    const r = await raw(`${server.url}/assets/app-Old00000.js`);
    expect(r.status).toBe(404);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.body.toString('utf8')).not.toContain('<script');
  });

  it('compresses a large API answer when asked, and only then', async () => {
    const auth = hamlet.headers();
    const register = (encoding?: string) =>
      raw(`${server.url}/api/v1/register`, {
        method: 'POST',
        headers: { ...auth, ...(encoding ? { 'Accept-Encoding': encoding } : {}) },
      });
    const plain = await register();
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_THRESHOLD);
    expect(JSON.parse(plain.body.toString('utf8')).result).toBe('success');

    for (const encoding of ['br', 'gzip']) {
      const r = await register(`${encoding}, identity`);
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBe(encoding);
      expect(r.headers['vary']).toMatch(/accept-encoding/i);
      expect(r.body.length).toBeLessThan(plain.body.length / 2);
      const body = JSON.parse(decode(r));
      expect(body.result).toBe('success');
      expect(body.queue_id).toEqual(expect.any(String));
    }

    // a small answer is not worth compressing
    const small = await raw(`${server.url}/api/v1/server_settings`, {
      headers: { 'Accept-Encoding': 'br, gzip' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8')).result).toBe('success');
  });

  it('answers a long-poll directly with the headers of any API answer, and compresses a large one', async () => {
    const auth = hamlet.headers();
    const queue = (await hamlet.post('/register', { event_types: ['message'] })).body;
    const poll = (last: number, encoding = 'br, gzip') =>
      raw(
        `${server.url}/api/v1/events?${new URLSearchParams({ queue_id: queue.queue_id, last_event_id: String(last) })}`,
        { headers: { ...auth, 'Accept-Encoding': encoding } },
      );
    // A poll parked before the message goes out, answered when it does.
    const parked = poll(queue.last_event_id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sent = await hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'direct',
      content: 'one event',
    });
    const answered = await parked;
    expect(answered.status).toBe(200);
    const body = JSON.parse(answered.body.toString('utf8'));
    expect(body).toMatchObject({ result: 'success', msg: '', queue_id: queue.queue_id });
    expect(body.events.map((e: any) => e.message.id)).toEqual([sent.body.id]);
    expect(answered.headers['content-length']).toBe(String(answered.body.length));
    expect(answered.headers['content-encoding']).toBeUndefined();
    // The same headers as an answer through Fastify's hooks, but for length and date.
    const usual = await raw(`${server.url}/api/v1/users/me`, { headers: auth });
    const names = (h: http.IncomingHttpHeaders) =>
      Object.keys(h)
        .filter((n) => !['content-length', 'date'].includes(n))
        .sort();
    expect(names(answered.headers)).toEqual(names(usual.headers));
    for (const name of ['content-type', 'content-security-policy', 'x-frame-options'])
      expect(answered.headers[name]).toBe(usual.headers[name]);
    expect(answered.headers['x-ratelimit-limit']).toBe(usual.headers['x-ratelimit-limit']);

    // Enough events for an answer over the threshold: compressed as any large answer.
    for (let i = 0; i < 12; i++)
      await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'direct',
        content: `a longer message ${i} `.repeat(60),
      });
    const large = await poll(body.events[0].id, 'gzip');
    expect(large.headers['content-encoding']).toBe('gzip');
    const all = JSON.parse(decode(large));
    expect(all.events).toHaveLength(12);
    expect(zlib.gunzipSync(large.body).length).toBeGreaterThan(COMPRESS_THRESHOLD);
    expect(large.headers['x-frame-options']).toBe('DENY');
  });

  it('compresses every API answer at gzip level 1 and brotli quality 1, /register in pieces kept compressed', async () => {
    const auth = hamlet.headers();
    const register = await raw(`${server.url}/api/v1/register`, {
      method: 'POST',
      headers: { ...auth, 'Accept-Encoding': 'gzip' },
    });
    expect(register.headers['content-encoding']).toBe('gzip');
    const registerText = decode(register);
    // Pieces compressed apart at level 1 (the people kept compressed between answers): about
    // the size gzip -1 gives the whole, well over what the usual level gives.
    const level1 = zlib.gzipSync(registerText, { level: 1 }).length;
    expect(register.body.length).toBeLessThan(level1 * 1.1);
    expect(register.body.length).toBeGreaterThan(zlib.gzipSync(registerText).length);
    // br is compressed whole, at quality 1.
    const br = await raw(`${server.url}/api/v1/register`, {
      method: 'POST',
      headers: { ...auth, 'Accept-Encoding': 'br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    const brText = decode(br);
    const quality = (text: string, q: number) =>
      zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q } });
    expect(br.body.equals(quality(brText, 1))).toBe(true);

    const messages = await raw(
      `${server.url}/api/v1/messages?anchor=newest&num_before=300&num_after=0`,
      { headers: { ...auth, 'Accept-Encoding': 'gzip' } },
    );
    expect(messages.headers['content-encoding']).toBe('gzip');
    const messagesText = decode(messages);
    expect(JSON.parse(messagesText).messages.length).toBeGreaterThan(50);
    expect(messages.body.equals(zlib.gzipSync(messagesText, { level: 1 }))).toBe(true);
    const messagesBr = await raw(
      `${server.url}/api/v1/messages?anchor=newest&num_before=300&num_after=0`,
      { headers: { ...auth, 'Accept-Encoding': 'br' } },
    );
    expect(messagesBr.headers['content-encoding']).toBe('br');
    const messagesBrText = decode(messagesBr);
    expect(messagesBr.body.equals(quality(messagesBrText, 1))).toBe(true);
  });

  it('sends an uploaded file as stored, with its length, whatever the client accepts', async () => {
    const data = JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => ({ i })) });
    const form = new FormData();
    form.append('file', new File([data], 'rows.json', { type: 'application/json' }));
    const auth = hamlet.headers();
    const up = await fetch(`${server.url}/api/v1/user_uploads`, {
      method: 'POST',
      body: form,
      headers: auth,
    });
    const { url } = (await up.json()) as { url: string };
    const r = await raw(new URL(url, server.url).toString(), {
      headers: { ...auth, 'Accept-Encoding': 'br, gzip' },
    });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(Number(r.headers['content-length'])).toBe(data.length);
    expect(r.body.toString('utf8')).toBe(data);
  });
});

/** Above a megabyte, /register goes out piece by piece (http/route.ts); it must read the same. */
describe('a /register of several megabytes', () => {
  let server: TestServer;
  let auth: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer();
    const quiet = console.log;
    console.log = () => {};
    try {
      const args = ['populate', '--users', '3000', '--channels', '3', '--messages', '50'];
      expect(await runManage(args, server.ctx.config)).toBe(0);
    } finally {
      console.log = quiet;
    }
    server = await server.restart();
    const hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    auth = hamlet.headers();
  }, 180_000);
  afterAll(() => server?.close());

  it('is whole and of its stated length, plain and compressed', async () => {
    const register = (encoding: string) =>
      raw(`${server.url}/api/v1/register`, {
        method: 'POST',
        headers: { ...auth, 'Accept-Encoding': encoding },
      });
    const plain = await register('identity');
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1 << 20);
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    const body = JSON.parse(plain.body.toString('utf8'));
    expect(body.realm_users.length).toBeGreaterThan(3000);
    for (const encoding of ['gzip', 'br']) {
      const r = await register(encoding);
      expect(r.headers['content-encoding']).toBe(encoding);
      // gzip is assembled from pieces of known length; brotli is streamed as it is made.
      if (encoding === 'gzip') expect(Number(r.headers['content-length'])).toBe(r.body.length);
      else expect(r.headers['content-length']).toBeUndefined();
      const again = JSON.parse(decode(r));
      expect(again.realm_users).toEqual(body.realm_users);
      expect(again.unread_msgs).toEqual(body.unread_msgs);
      expect(Object.keys(again)).toEqual(Object.keys(body));
    }
  });

  it('gives a person whose address others do not see that address in their own copy, gzip too', async () => {
    const hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    // Administrators only: members see null, and Hamlet himself his address.
    expect((await hamlet.patch('/settings', { email_address_visibility: 3 })).status).toBe(200);
    const register = async (client: TestClient, encoding: string) => {
      const r = await raw(`${server.url}/api/v1/register`, {
        method: 'POST',
        headers: {
          ...client.headers(),
          'Accept-Encoding': encoding,
        },
      });
      expect(r.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      return JSON.parse(decode(r)).realm_users as {
        user_id: number;
        delivery_email: string | null;
      }[];
    };
    const othello = await TestClient.login(server.url, 'othello@example.com', DEMO_PASSWORD);
    const own = await register(hamlet, 'gzip');
    expect(own).toEqual(await register(hamlet, 'identity'));
    const others = await register(othello, 'gzip');
    expect(others).toEqual(await register(othello, 'identity'));
    const hamletId = (await hamlet.get('/users/me')).body.user_id;
    expect(own.find((u) => u.user_id === hamletId)?.delivery_email).toBe('hamlet@example.com');
    expect(others.find((u) => u.user_id === hamletId)?.delivery_email).toBeNull();
    // Only Hamlet's own entry differs between the two copies.
    const differing = own.filter((u, i) => JSON.stringify(u) !== JSON.stringify(others[i]));
    expect(differing.map((u) => u.user_id)).toEqual([hamletId]);
  });
});
