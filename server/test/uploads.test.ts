import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sanitizeFilename } from '../actions/uploads.js';
import { type TestServer } from './harness.js';
import { TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';

const basic = (c: TestClient) =>
  'Basic ' + Buffer.from(`${c.email}:${c.apiKey}`).toString('base64');

interface Part {
  name: string;
  data: string | Buffer;
  type?: string;
}

/** POST /user_uploads as a client sends it: one multipart part per file. */
async function upload(
  server: TestServer,
  as: TestClient | null,
  ...parts: Part[]
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [i, p] of parts.entries())
    form.append(
      `file-${i}`,
      new File([typeof p.data === 'string' ? p.data : new Uint8Array(p.data)], p.name, {
        type: p.type ?? '',
      }),
    );
  const res = await fetch(`${server.url}/api/v1/user_uploads`, {
    method: 'POST',
    body: form,
    headers: as ? { Authorization: basic(as) } : {},
  });
  return { status: res.status, body: await res.json() };
}

/** GET a path at the site root (an upload, a temporary URL), with credentials or without. */
function download(
  server: TestServer,
  url: string,
  as?: TestClient | null,
  headers: Record<string, string> = {},
) {
  return fetch(new URL(url, server.url), {
    headers: { ...(as ? { Authorization: basic(as) } : {}), ...headers },
  });
}

describe('sanitizeFilename', () => {
  it('keeps one safe path component, as Zulip names uploads', () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('....etcpasswd');
    expect(sanitizeFilename('..')).toBe('uploaded-file');
    expect(sanitizeFilename('.')).toBe('uploaded-file');
    expect(sanitizeFilename('')).toBe('uploaded-file');
    expect(sanitizeFilename('a\u0000b/c\\d.txt')).toBe('abcd.txt');
    expect(sanitizeFilename('my  holiday -- photo.JPG')).toBe('my-holiday-photo.JPG');
    expect(sanitizeFilename('résumé "final" <v2>.pdf')).toBe('résumé-final-v2.pdf');
    expect(sanitizeFilename('ﬁle.txt')).toBe('file.txt'); // NFKC
    const long = sanitizeFilename('é'.repeat(300) + '.png');
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(255);
    expect(long.endsWith('.png')).toBe(true);
  });
});

describe.each(databases('both'))('file uploads on %s', (db) => {
  const w = useServer({ db, people: ['hamlet', 'othello', 'cordelia'] });
  const { hamlet, othello, cordelia } = w.as;
  let anon: TestClient;

  beforeAll(async () => {
    anon = new TestClient(w.server.url);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const incoming = () => {
    const dir = path.join(w.server.dataDir, 'uploads', '.incoming');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };

  /** What the file store holds for an upload (null: nothing), and whether it is on disk. */
  const kept = async (pathId: string) => {
    const file = await w.server.ctx.files.get(`uploads/${pathId}`);
    const onDisk = fs.existsSync(path.join(w.server.dataDir, 'uploads', pathId));
    if (!file) return { text: null, onDisk };
    const chunks: Buffer[] = [];
    for await (const chunk of file.open()) chunks.push(chunk as Buffer);
    return { text: Buffer.concat(chunks).toString('utf8'), onDisk };
  };
  // SQLite keeps files in the data directory, PostgreSQL in the database (PARLEY_FILE_STORE).
  const onDisk = db === 'sqlite';

  it('stores an upload with its owner, size and type, and lets the owner download it', async () => {
    const r = await upload(w.server, hamlet, {
      name: 'notes.txt',
      data: 'to be, or not to be\n',
      type: 'text/plain',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: 'success', filename: 'notes.txt' });
    expect(r.body.url).toBe(r.body.uri);
    const realmId = (
      await w.server.ctx.db.selectFrom('realms').select('id').executeTakeFirstOrThrow()
    ).id;
    expect(r.body.url).toMatch(
      new RegExp(`^/user_uploads/${realmId}/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/notes\\.txt$`),
    );

    const pathId = r.body.url.slice('/user_uploads/'.length);
    const row = await w.server.ctx.db
      .selectFrom('attachments')
      .selectAll()
      .where('path_id', '=', pathId)
      .executeTakeFirstOrThrow();
    const me = (await hamlet.get('/users/me')).body;
    expect(row).toMatchObject({
      owner_id: me.user_id,
      realm_id: realmId,
      size: 20,
      content_type: 'text/plain',
      file_name: 'notes.txt',
    });
    expect(Math.abs(row.create_time - Date.now() / 1000)).toBeLessThan(60);
    expect(await kept(pathId)).toEqual({ text: 'to be, or not to be\n', onDisk });

    const res = await download(w.server, r.body.url, hamlet);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('to be, or not to be\n');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="notes.txt"');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(incoming()).toEqual([]);
  });

  it('lists the own files with the messages linking them, and deletes one for its owner only', async () => {
    const r = await upload(w.server, hamlet, { name: 'ledger.txt', data: 'twelve bytes' });
    const pathId = r.body.url.slice('/user_uploads/'.length);
    const sent = await hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'files',
      content: `[ledger](${r.body.url})`,
    });
    const listed = await hamlet.get('/attachments');
    expect(listed.status).toBe(200);
    const mine = listed.body.attachments.find((a: any) => a.path_id === pathId);
    expect(mine).toMatchObject({ name: 'ledger.txt', size: 12 });
    expect(Math.abs(mine.create_time - Date.now())).toBeLessThan(60_000);
    expect(mine.messages).toEqual([{ id: sent.body.id, date_sent: expect.any(Number) }]);
    expect(Math.abs(mine.messages[0].date_sent - Date.now())).toBeLessThan(60_000);
    expect(listed.body.upload_space_used).toBeGreaterThanOrEqual(12);
    // Othello neither sees it among his files nor may delete it.
    const his = await othello.get('/attachments');
    expect(his.body.attachments.some((a: any) => a.id === mine.id)).toBe(false);
    const refused = await othello.delete(`/attachments/${mine.id}`);
    expect(refused.body).toMatchObject({ result: 'error', msg: 'Invalid attachment' });
    expect(await kept(pathId)).toEqual({ text: 'twelve bytes', onDisk });

    expect((await hamlet.delete(`/attachments/${mine.id}`)).status).toBe(200);
    expect(await kept(pathId)).toEqual({ text: null, onDisk: false });
    const after = await hamlet.get('/attachments');
    expect(after.body.attachments.some((a: any) => a.id === mine.id)).toBe(false);
    expect(after.body.upload_space_used).toBe(listed.body.upload_space_used - 12);
    expect((await download(w.server, r.body.url, hamlet)).status).toBe(404);
    expect((await hamlet.delete(`/attachments/${mine.id}`)).body.msg).toBe('Invalid attachment');
  });

  it('lets recipients of a message linking the file read it, and no one else', async () => {
    const { body } = await upload(w.server, hamlet, {
      name: 'plan.txt',
      data: 'the play is the thing',
    });
    expect((await download(w.server, body.url, othello)).status).toBe(403);
    const sent = await hamlet.post('/messages', {
      type: 'direct',
      to: [w.id.othello],
      content: `See [plan.txt](${body.url})`,
    });
    expect(sent.status).toBe(200);
    const read = await download(w.server, body.url, othello);
    expect(read.status).toBe(200);
    expect(await read.text()).toBe('the play is the thing');
    // Cordelia received nothing linking it; spectators neither.
    expect((await download(w.server, body.url, cordelia)).status).toBe(403);
    expect((await download(w.server, body.url)).status).toBe(403);
    // A message in a private stream: its subscribers (Cordelia) may read, Othello may not.
    const secret = await upload(w.server, hamlet, { name: 'mockup.txt', data: 'design only' });
    await hamlet.post('/messages', {
      type: 'stream',
      to: 'design',
      topic: 'files',
      content: `[mockup](${secret.body.url})`,
    });
    expect((await download(w.server, secret.body.url, cordelia)).status).toBe(200);
    expect((await download(w.server, secret.body.url, othello)).status).toBe(403);
    // Unknown files, wrong realms and wrong credentials.
    expect(
      (await download(w.server, body.url.replace('plan.txt', 'other.txt'), hamlet)).status,
    ).toBe(404);
    expect(
      (
        await download(
          w.server,
          body.url.replace(/^\/user_uploads\/\d+/, '/user_uploads/999'),
          hamlet,
        )
      ).status,
    ).toBe(404);
    const wrong = await fetch(new URL(body.url, w.server.url), {
      headers: {
        Authorization: 'Basic ' + Buffer.from('hamlet@example.com:nope').toString('base64'),
      },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ result: 'error', code: 'INVALID_API_KEY' });
  });

  it('lets spectators read files linked from web-public streams', async () => {
    const { body } = await upload(w.server, hamlet, {
      name: 'poster.txt',
      data: 'all are welcome',
    });
    expect((await download(w.server, body.url)).status).toBe(403);
    await hamlet.post('/messages', {
      type: 'stream',
      to: 'welcome',
      topic: 'files',
      content: `[poster](${body.url})`,
    });
    const res = await download(w.server, body.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('all are welcome');
  });

  it('gives a temporary URL that works without credentials, then expires', async () => {
    const { body } = await upload(w.server, hamlet, { name: 'draft.txt', data: 'first folio' });
    const [, , realmId, ...rest] = body.url.split('/');
    const apiPath = `/user_uploads/${realmId}/${rest.join('/')}`;
    const r = await hamlet.get(apiPath);
    expect(r.status).toBe(200);
    expect(r.body.url).toMatch(/^\/user_uploads\/temporary\/[^/]+\/draft\.txt$/);
    // With a doubled slash, as the Matrix bridge asks (the reference's nginx merges them).
    expect((await hamlet.get(`/${apiPath}`)).body.url).toMatch(/^\/user_uploads\/temporary\//);
    const res = await download(w.server, r.body.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('first folio');
    // Only for those who may read the file.
    expect((await othello.get(apiPath)).status).toBe(403);
    expect((await anon.get(apiPath)).status).toBe(401);
    // A changed token or name is refused.
    const forged = r.body.url.replace(
      /\/temporary\/(\d+)\./,
      (_: string, id: string) => `/temporary/${Number(id) + 1}.`,
    );
    expect((await download(w.server, forged)).status).toBe(400);
    const renamed = await download(w.server, r.body.url.replace(/draft\.txt$/, 'other.txt'));
    expect(await renamed.json()).toMatchObject({ result: 'error', msg: 'Invalid filename' });
    // A minute later it no longer works.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    const late = await download(w.server, r.body.url);
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ result: 'error', msg: 'Invalid token' });
  });

  it('answers ranges and conditional requests, with the headers of the file and its access checks', async () => {
    const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    const { body } = await upload(w.server, hamlet, { name: 'clip.mp4', data, type: 'video/mp4' });
    const own = (headers: Record<string, string>) => download(w.server, body.url, hamlet, headers);
    const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());

    // A video seeked to its middle, a download resumed from where it stopped.
    const middle = await own({ Range: 'bytes=1000-1999' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe('bytes 1000-1999/5000');
    expect(middle.headers.get('content-length')).toBe('1000');
    expect(await bytes(middle)).toEqual(data.subarray(1000, 2000));
    const rest = await own({ Range: 'bytes=4000-' });
    expect(rest.status).toBe(206);
    expect(await bytes(rest)).toEqual(data.subarray(4000));
    const whole = await own({});
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe('5000');
    expect(await bytes(whole)).toEqual(data);
    for (const r of [middle, rest, whole]) {
      expect(r.headers.get('content-type')).toBe('video/mp4');
      expect(r.headers.get('content-disposition')).toBe('inline; filename="clip.mp4"');
      expect(r.headers.get('content-security-policy')).toMatch(/^default-src 'none'.*sandbox$/);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('cache-control')).toBe('private, max-age=86400, immutable');
    }
    const beyond = await own({ Range: 'bytes=5000-' });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */5000');

    // A browser asking again whether its copy is current is told so without the bytes. (fetch
    // would add no-cache to a conditional request, which asks for the bytes whatever the tag.)
    const revalidate = { 'Cache-Control': 'max-age=0' };
    const etag = whole.headers.get('etag')!;
    const modified = whole.headers.get('last-modified')!;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(modified).toBeTruthy();
    const unchanged = await own({ ...revalidate, 'If-None-Match': etag });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    expect(unchanged.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect((await own({ ...revalidate, 'If-Modified-Since': modified })).status).toBe(304);
    // A resumed download whose copy is not this file gets the whole file.
    const stale = await own({ Range: 'bytes=4000-', 'If-Range': 'W/"1-1"' });
    expect(stale.status).toBe(200);
    expect(await bytes(stale)).toEqual(data);

    // Knowing the tag or asking for a range opens nothing: the access checks come first.
    const probes: Record<string, string>[] = [
      { ...revalidate, 'If-None-Match': etag },
      { Range: 'bytes=0-9' },
    ];
    for (const headers of probes) {
      expect((await download(w.server, body.url, othello, headers)).status).toBe(403);
      expect((await download(w.server, body.url, null, headers)).status).toBe(403);
    }

    // A temporary URL answers ranges as well.
    const [, , realmId, ...path] = body.url.split('/');
    const temporary = (await hamlet.get(`/user_uploads/${realmId}/${path.join('/')}`)).body.url;
    const part = await download(w.server, temporary, null, { Range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(await bytes(part)).toEqual(data.subarray(0, 10));
    expect(part.headers.get('content-disposition')).toBe('inline; filename="clip.mp4"');
  });

  it('refuses files over max_file_upload_size_mib with the upstream error, keeping nothing', async () => {
    const state = await hamlet.post('/register', { fetch_event_types: ['realm'] });
    expect(state.body.max_file_upload_size_mib).toBe(25);
    const limit = 25 * 1024 * 1024;
    const big = await upload(w.server, hamlet, { name: 'big.bin', data: Buffer.alloc(limit + 1) });
    expect(big.status).toBe(400);
    expect(big.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Uploaded file is larger than the allowed limit of 25 MiB',
    });
    const exact = await upload(w.server, hamlet, { name: 'exact.bin', data: Buffer.alloc(limit) });
    expect(exact.status).toBe(200);
    // Far beyond the limit the body is refused while it arrives.
    const huge = await upload(w.server, hamlet, {
      name: 'huge.bin',
      data: Buffer.alloc(2 * limit + 1024),
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    await new Promise((r) => setTimeout(r, 50));
    expect(incoming()).toEqual([]);
  });

  it('names files safely whatever the client calls them', async () => {
    const odd = await upload(w.server, hamlet, { name: '../../secrets/upload-url.key', data: 'x' });
    expect(odd.status).toBe(200);
    expect(odd.body.url.split('/').length).toBe(6);
    expect(odd.body.url).toMatch(/\/upload-url\.key$/);
    const dots = await upload(w.server, hamlet, { name: '..', data: 'y' });
    expect(dots.body.url).toMatch(/\/uploaded-file$/);
    const accents = await upload(w.server, hamlet, {
      name: 'résumé "final".txt',
      data: 'z',
      type: 'text/plain',
    });
    expect(accents.body).toMatchObject({ filename: 'résumé "final".txt' });
    expect(accents.body.url).toMatch(/\/résumé-final\.txt$/);
    const res = await download(w.server, encodeURI(accents.body.url), hamlet);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename*=utf-8''${encodeURIComponent('résumé-final.txt')}`,
    );
    // A path that climbs out of the uploads is no file, even unnormalised on the wire.
    const realmId = odd.body.url.split('/')[2];
    for (const p of [
      `/user_uploads/${realmId}/../../secrets/upload-url.key`,
      `/user_uploads/${realmId}/..%2F..%2Fparley.lock`,
      '/user_uploads/../secrets/upload-url.key',
    ]) {
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get(
            new URL(w.server.url),
            { path: p, headers: { Authorization: basic(hamlet) } },
            (r) => {
              r.resume();
              resolve(r.statusCode!);
            },
          )
          .on('error', reject);
      });
      expect(status, p).toBe(404);
    }
  });

  it('serves HTML and SVG as downloads under a sandbox, and never sniffs', async () => {
    const html = await upload(w.server, hamlet, {
      name: 'evil.html',
      data: '<script>alert(document.cookie)</script>',
      type: 'text/html',
    });
    const res = await download(w.server, html.body.url, hamlet);
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="evil.html"');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    const svg = await upload(w.server, hamlet, {
      name: 'logo.svg',
      data: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      type: 'image/svg+xml',
    });
    expect(
      (await download(w.server, svg.body.url, hamlet)).headers.get('content-disposition'),
    ).toMatch(/^attachment;/);
    // HTML that claims to be an image is served as the image it claims to be, which browsers won't run.
    const fake = await upload(w.server, hamlet, {
      name: 'cat.png',
      data: '<html><script>alert(1)</script></html>',
      type: 'image/png',
    });
    const shown = await download(w.server, fake.body.url, hamlet);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('takes files as the Python bindings send them: no part type, the path as the field name', async () => {
    const boundary = 'pyboundary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="/tmp/x/cat.png"; filename="cat.png"\r\n\r\n`,
      ),
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await fetch(`${w.server.url}/api/v1/user_uploads`, {
      method: 'POST',
      body,
      headers: {
        Authorization: basic(hamlet),
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    const r: any = await res.json();
    expect(r).toMatchObject({ result: 'success', filename: 'cat.png' });
    expect(r.ignored_parameters_unsupported).toBeUndefined();
    const row = await w.server.ctx.db
      .selectFrom('attachments')
      .select('content_type')
      .where('path_id', '=', r.url.slice(14))
      .executeTakeFirstOrThrow();
    expect(row.content_type).toBe('image/png');
  });

  it('wants exactly one file, and credentials', async () => {
    const none = await hamlet.post('/user_uploads', { note: 'no file' });
    expect(none.body).toMatchObject({ result: 'error', msg: 'You must specify a file to upload' });
    const two = await upload(
      w.server,
      hamlet,
      { name: 'a.txt', data: 'a' },
      { name: 'b.txt', data: 'b' },
    );
    expect(two.body).toMatchObject({
      result: 'error',
      msg: 'You may only upload one file at a time',
    });
    const anonymous = await upload(w.server, null, { name: 'a.txt', data: 'a' });
    expect(anonymous.status).toBe(401);
    const before = await w.server.ctx.db
      .selectFrom('attachments')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const wrongKey = await upload(
      w.server,
      new TestClient(w.server.url, 'hamlet@example.com', 'x'.repeat(32)),
      { name: 'a.txt', data: 'a' },
    );
    expect(wrongKey.status).toBe(401);
    const after = await w.server.ctx.db
      .selectFrom('attachments')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(incoming()).toEqual([]);
  });

  it('previews linked image uploads in messages, as Zulip renders them', async () => {
    const { body } = await upload(w.server, hamlet, {
      name: 'scene.png',
      data: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      type: 'image/png',
    });
    const sent = await hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'pictures',
      content: `Diffuse light: [scene.png](${body.url})`,
    });
    const message = (await othello.get(`/messages/${sent.body.id}`)).body.message;
    expect(message.content).toBe(
      `<p>Diffuse light: <a href="${body.url}">scene.png</a></p>\n` +
        `<div class="message_inline_image"><a href="${body.url}" title="scene.png"><img src="${body.url}"></a></div>`,
    );
    // Public-stream links make the file readable by the organization's members.
    expect((await download(w.server, body.url, cordelia)).status).toBe(200);
    // has:image finds it; a custom emoji or a plain link is not an image.
    const found = async (operand: string) =>
      (
        await othello.get('/messages', {
          anchor: 'newest',
          num_before: 50,
          num_after: 0,
          narrow: [
            { operator: 'topic', operand: 'pictures' },
            { operator: 'has', operand },
          ],
        })
      ).body.messages.map((m: { id: number }) => m.id);
    const plain = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'pictures',
        content: 'see https://example.com/x.png',
      })
    ).body.id;
    expect(await found('image')).toEqual([sent.body.id]);
    expect(await found('link')).toEqual([sent.body.id, plain]);
    expect(await found('attachment')).toEqual([sent.body.id]);
  });

  it('keeps files, their links and temporary URLs across a restart', async () => {
    const data = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));
    const { body } = await upload(w.server, hamlet, { name: 'keep.bin', data });
    await hamlet.post('/messages', {
      type: 'direct',
      to: [w.id.othello],
      content: `[keep](${body.url})`,
    });
    const [, , realmId, ...rest] = body.url.split('/');
    const temporary = (await othello.get(`/user_uploads/${realmId}/${rest.join('/')}`)).body.url;
    await w.restart();
    anon = new TestClient(w.server.url);
    const res = await download(w.server, body.url, othello);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect((await download(w.server, temporary)).status).toBe(200);
    expect((await download(w.server, body.url, cordelia)).status).toBe(403);
  });

  it('uploads 10 MiB in reasonable time', async () => {
    const data = Buffer.alloc(10 * 1024 * 1024, 7);
    const started = performance.now();
    const r = await upload(w.server, hamlet, { name: 'ten.bin', data });
    const uploadMs = performance.now() - started;
    expect(r.status).toBe(200);
    const fetched = performance.now();
    const res = await download(w.server, r.body.url, hamlet);
    expect((await res.arrayBuffer()).byteLength).toBe(data.length);
    const downloadMs = performance.now() - fetched;
    console.info(
      `[uploads] 10 MiB on ${db}: upload ${uploadMs.toFixed(0)} ms, download ${downloadMs.toFixed(0)} ms`,
    );
    expect(uploadMs).toBeLessThan(10_000);
  });
});
