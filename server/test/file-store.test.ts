import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileStoreKind } from '../config.js';
import { CHUNK_BYTES, DatabaseFileStore } from '../db/file-store.js';
import { databaseKeys } from '../db/server-keys.js';
import type { StoredFile } from '../domain/file-store.js';
import { KEY_BYTES, SERVER_KEY_NAMES, readKeyFile } from '../domain/server-keys.js';
import { byteRanges } from '../http/stored-file.js';
import type { TestClient } from './client.js';
import { PNG } from './endpoints.js';
import { databases, useServer, type Database, type ServerWorld } from './fixtures.js';

/**
 * The file stores (domain/file-store.ts): the database store on its own (writing, reading by
 * range, replacing, removing, taking over a data directory's files at start), and both stores
 * answering downloads alike, down to the 404 of a file that has gone.
 */

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-file-store-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A temporary file holding `data`, as the multipart reader leaves a received one. */
function received(data: Buffer | string): string {
  const file = path.join(scratch, crypto.randomBytes(8).toString('hex'));
  fs.writeFileSync(file, data);
  return file;
}

async function contents(file: StoredFile, start?: number, end?: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of file.open(start, end)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function upload(w: ServerWorld, as: TestClient, name: string, data: Buffer | string) {
  const r = await as.post('/user_uploads', {
    file: new File([typeof data === 'string' ? data : new Uint8Array(data)], name),
  });
  expect(r.status).toBe(200);
  return { url: r.body.url as string, key: `uploads/${(r.body.url as string).slice(14)}` };
}

const download = (w: ServerWorld, url: string, as: TestClient | null, headers = {}) =>
  fetch(new URL(url, w.server.url), {
    method: 'GET',
    headers: { ...(as ? as.headers() : {}), ...headers },
  });

const stores: [Database, FileStoreKind][] = [
  ['sqlite', 'disk'],
  ['sqlite', 'database'],
  ...databases('both')
    .filter((db) => db === 'postgres')
    .map((db): [Database, FileStoreKind] => [db, 'database']),
];

describe.each(stores)('downloads on %s from the %s store', (db, fileStore) => {
  const w = useServer({ db, people: ['hamlet'], config: { fileStore } });
  const { hamlet } = w.as;

  it('answers a file that has gone from the store with the same 404 envelope', async () => {
    expect(w.server.ctx.files.kind).toBe(fileStore);
    const { url, key } = await upload(w, hamlet, 'gone.txt', 'here for a moment');
    expect((await download(w, url, hamlet)).status).toBe(200);
    await w.server.ctx.files.remove(key);
    const res = await download(w, url, hamlet);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      result: 'error',
      msg: 'File not found',
      code: 'BAD_REQUEST',
    });
  });

  it('answers several ranges, suffixes, preconditions and HEAD alike', async () => {
    const data = crypto.randomBytes(3000);
    const { url } = await upload(w, hamlet, 'ranges.bin', data);
    const get = (headers: Record<string, string>) => download(w, url, hamlet, headers);
    const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());

    const joined = await get({ Range: 'bytes=0-1, 2-3' });
    expect([joined.status, joined.headers.get('content-range')]).toEqual([206, 'bytes 0-3/3000']);
    expect(await bytes(joined)).toEqual(data.subarray(0, 4));
    const apart = await get({ Range: 'bytes=0-1,10-20' });
    expect(apart.status).toBe(200);
    expect(await bytes(apart)).toEqual(data);
    const suffix = await get({ Range: 'bytes=-10' });
    expect([suffix.status, suffix.headers.get('content-range')]).toEqual([
      206,
      'bytes 2990-2999/3000',
    ]);
    expect(await bytes(suffix)).toEqual(data.subarray(2990));

    const etag = (await get({})).headers.get('etag')!;
    const refused = await get({ 'If-Match': '"someone-else"' });
    expect([refused.status, await refused.text()]).toEqual([412, '']);
    expect((await get({ 'If-Match': etag })).status).toBe(200);
    const past = new Date(Date.now() - 86_400_000).toUTCString();
    expect((await get({ 'If-Unmodified-Since': past })).status).toBe(412);
    expect((await get({ 'Cache-Control': 'max-age=0', 'If-None-Match': '*' })).status).toBe(304);
    expect((await get({ 'Cache-Control': 'no-cache', 'If-None-Match': etag })).status).toBe(200);

    const head = await fetch(new URL(url, w.server.url), {
      method: 'HEAD',
      headers: hamlet.headers(),
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('3000');
    expect(await head.text()).toBe('');
  });

  it('serves a custom emoji image, whole and by range', async () => {
    const added = await hamlet.post('/realm/emoji/stored_alike', {
      filename: new File([new Uint8Array(PNG)], 'emoji.png', { type: 'image/png' }),
    });
    expect(added.status).toBe(200);
    const emoji = Object.values((await hamlet.get('/realm/emoji')).body.emoji as object).find(
      (e: { name: string }) => e.name === 'stored_alike',
    ) as { source_url: string };
    const whole = await download(w, emoji.source_url, null);
    expect([whole.status, whole.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(whole.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(Buffer.from(await whole.arrayBuffer()).equals(PNG)).toBe(true);
    const part = await download(w, emoji.source_url, null, { Range: 'bytes=1-3' });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('PNG');
    expect(
      (await download(w, emoji.source_url.replace(/\d+\.png$/, '999999.png'), null)).status,
    ).toBe(404);
  });
});

describe.each(databases('both'))('the database file store on %s', (db) => {
  const w = useServer({ db, people: ['hamlet'], config: { fileStore: 'database' } });
  const { hamlet } = w.as;
  const store = () => w.server.ctx.files as DatabaseFileStore;
  const chunkRows = async () =>
    (await w.server.ctx.db.selectFrom('stored_file_chunks').select('file_id').execute()).length;

  it('writes a file in chunks, reads it whole and by any range, replaces and removes it', async () => {
    const key = 'uploads/1/aa/written-directly/sample.bin';
    const data = crypto.randomBytes(2 * CHUNK_BYTES + 1234);
    const before = await chunkRows();
    await store().put(key, received(data));
    expect(await chunkRows()).toBe(before + 3);
    const file = (await store().get(key))!;
    expect(file.size).toBe(data.length);
    expect(file.path).toBeUndefined();
    expect(Math.abs(file.modified.getTime() - Date.now())).toBeLessThan(5000);
    expect((await contents(file)).equals(data)).toBe(true);
    // Across the boundary of two chunks; inside the last; one byte.
    const ranges: [number, number][] = [
      [CHUNK_BYTES - 10, CHUNK_BYTES + 9],
      [2 * CHUNK_BYTES + 5, data.length - 1],
      [7, 7],
    ];
    for (const [start, end] of ranges)
      expect((await contents(file, start, end)).equals(data.subarray(start, end + 1))).toBe(true);

    // Replaced: the new bytes, the old chunks gone; a reader of the old file gets an error, not them.
    await store().put(key, received('shorter now'));
    expect(await chunkRows()).toBe(before + 1);
    await expect(contents(file)).rejects.toThrow(/missing/);
    expect((await contents((await store().get(key))!)).toString()).toBe('shorter now');

    await store().remove(key);
    expect(await store().get(key)).toBeNull();
    expect(await chunkRows()).toBe(before);
    await store().remove(key); // removing what is not there is no error
  });

  it('keeps an empty file, finds the first of several keys, and refuses keys that leave the store', async () => {
    await store().put('avatars/1/users/77.gif', received(''));
    const empty = (await store().get('avatars/1/users/77.gif'))!;
    expect(empty.size).toBe(0);
    expect((await contents(empty)).length).toBe(0);
    await store().put('avatars/1/users/77.jpg', received('jpeg'));
    const found = await store().find(['avatars/1/users/77.png', 'avatars/1/users/77.jpg']);
    expect(found?.key).toBe('avatars/1/users/77.jpg');
    expect(await store().find(['avatars/1/users/78.png'])).toBeNull();
    expect(await store().get('uploads/../secrets/upload-url.key')).toBeNull();
    await expect(store().put('uploads/../escape', received('x'))).rejects.toThrow(/key/);
  });

  it('writes no upload into the data directory', async () => {
    const { url } = await upload(w, hamlet, 'nowhere-on-disk.txt', 'in the database only');
    const onDisk = path.join(w.server.dataDir, 'uploads', url.slice('/user_uploads/'.length));
    expect(fs.existsSync(onDisk)).toBe(false);
    expect((await download(w, url, hamlet)).status).toBe(200);
    expect(fs.readdirSync(path.join(w.server.dataDir, 'uploads'))).toEqual(['.incoming']);
  });

  it('moves into the database at start the files the data directory kept, and serves them', async () => {
    const { ctx, dataDir } = w.server;
    const realmId = (await ctx.db.selectFrom('realms').select('id').executeTakeFirstOrThrow()).id;
    // An upload as the disk store left it: its row, and its bytes under uploads/.
    const pathId = `${realmId}/ab/${'k'.repeat(24)}/from-disk.txt`;
    const onDisk = (key: string) => path.join(dataDir, key);
    const write = (key: string, data: Buffer | string) => {
      fs.mkdirSync(path.dirname(onDisk(key)), { recursive: true });
      fs.writeFileSync(onDisk(key), data);
    };
    write(`uploads/${pathId}`, 'kept on disk before');
    await ctx.db
      .insertInto('attachments')
      .values({
        realm_id: realmId,
        owner_id: w.id.hamlet,
        path_id: pathId,
        file_name: 'from-disk.txt',
        size: 19,
        content_type: 'text/plain',
        create_time: Math.floor(Date.now() / 1000),
        message_id_floor: 0,
      })
      .execute();
    const avatar = `avatars/${realmId}/users/${w.id.hamlet}.png`;
    write(avatar, PNG);
    // A key the database holds already keeps the database's file (a move cut short, resumed).
    const emoji = `avatars/${realmId}/emoji/images/4242.png`;
    await store().put(emoji, received('the database copy'));
    write(emoji, 'an older copy');
    write('uploads/.incoming/still-arriving', 'partial');

    await w.restart();

    const res = await download(w, `/user_uploads/${pathId}`, hamlet);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('kept on disk before');
    const image = await download(w, `/avatar/${w.id.hamlet}`, hamlet);
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await contents((await w.server.ctx.files.get(emoji))!)).toString()).toBe(
      'the database copy',
    );
    for (const key of [`uploads/${pathId}`, avatar, emoji])
      expect(fs.existsSync(onDisk(key)), key).toBe(false);
    expect(fs.existsSync(onDisk('uploads/.incoming/still-arriving'))).toBe(true);
  });
});

describe.each(databases('both'))('the installation keys in the database on %s', (db) => {
  const w = useServer({ db, demo: false });

  it('keeps the first offer of each key, and every later reader gets that one', async () => {
    const { ctx } = w.server;
    await ctx.db.deleteFrom('server_keys').execute();
    const fromDisk = Buffer.alloc(KEY_BYTES, 7);
    const first = await databaseKeys(ctx.db, (name) =>
      name === 'avatar-path.key' ? fromDisk : null,
    );
    expect(first.key('avatar-path.key').equals(fromDisk)).toBe(true);
    expect(first.key('upload-url.key').length).toBe(KEY_BYTES);
    expect(first.key('upload-url.key').equals(fromDisk)).toBe(false);
    const second = await databaseKeys(ctx.db, () => Buffer.alloc(KEY_BYTES, 9));
    for (const name of SERVER_KEY_NAMES)
      expect(second.key(name).equals(first.key(name))).toBe(true);
    const rows = await ctx.db.selectFrom('server_keys').select('name').execute();
    expect(rows.map((r) => r.name).sort()).toEqual([...SERVER_KEY_NAMES].sort());
  });

  it('offers the key a data directory holds, and none for a file that holds no key', () => {
    const dir = fs.mkdtempSync(path.join(scratch, 'data-'));
    fs.mkdirSync(path.join(dir, 'secrets'));
    const key = crypto.randomBytes(KEY_BYTES);
    fs.writeFileSync(path.join(dir, 'secrets', 'avatar-path.key'), key.toString('hex') + '\n');
    fs.writeFileSync(path.join(dir, 'secrets', 'upload-url.key'), 'not a key');
    expect(readKeyFile(dir, 'avatar-path.key')?.equals(key)).toBe(true);
    expect(readKeyFile(dir, 'upload-url.key')).toBeNull();
    expect(readKeyFile(scratch, 'avatar-path.key')).toBeNull();
  });
});

describe('byte ranges', () => {
  it('reads ranges as @fastify/send does: capped, merged, suffixes, and none when unsatisfiable', () => {
    expect(byteRanges(100, 'bytes=0-9')).toEqual([[0, 9]]);
    expect(byteRanges(100, 'bytes=90-200')).toEqual([[90, 99]]);
    expect(byteRanges(100, 'bytes=-5')).toEqual([[95, 99]]);
    expect(byteRanges(100, 'bytes=50-')).toEqual([[50, 99]]);
    expect(byteRanges(100, 'bytes=5-9,0-4,20-30')).toEqual([
      [0, 9],
      [20, 30],
    ]);
    expect(byteRanges(100, 'bytes=100-')).toEqual([]);
    expect(byteRanges(100, 'bytes=-200')).toEqual([]);
    expect(byteRanges(100, 'bytes=9-2')).toEqual([]);
    expect(byteRanges(100, 'bytes=abc')).toEqual([]);
  });
});
