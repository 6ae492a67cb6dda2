import { beforeAll, describe, expect, it } from 'vitest';
import { deliverDueScheduledMessages } from '../actions/scheduler.js';
import { migrations } from '../db/migrations.js';
import { DEMO_PASSWORD } from './harness.js';
import { TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';

/**
 * Who may read an upload, as the reference server decides it: its owner, and whoever can read a
 * message that claims it. A message claims a linked upload only when its sender could already
 * read it, so learning a file's URL gives nothing.
 */
describe.each(databases('both'))('upload claims on %s', (db) => {
  const w = useServer({ db });
  let spectator: TestClient;
  let hamlet: TestClient; // in design
  let cordelia: TestClient; // in design
  let othello: TestClient; // not in design
  let polonius: TestClient; // a guest, not in design
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    spectator = new TestClient(w.server.url);
    [hamlet, cordelia, othello, polonius] = await Promise.all(
      ['hamlet', 'cordelia', 'othello', 'polonius'].map((n) =>
        TestClient.login(w.server.url, `${n}@example.com`, DEMO_PASSWORD),
      ),
    );
    for (const [name, c] of Object.entries({ hamlet, cordelia, othello, polonius }))
      ids[name] = (await c.get('/users/me')).body.user_id;
  });

  const upload = async (as: TestClient, name: string, data: string): Promise<string> => {
    const r = await as.post('/user_uploads', {
      file: new File([data], name, { type: 'text/plain' }),
    });
    expect(r.status).toBe(200);
    return r.body.url;
  };
  /** The status of a download at the site root, with the client's credentials (none: a spectator). */
  const fetchStatus = async (url: string, as: TestClient) => {
    const headers: Record<string, string> = as.email
      ? { Authorization: 'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64') }
      : {};
    const res = await fetch(new URL(url, w.server.url), { headers });
    return {
      status: res.status,
      body: res.headers.get('content-type')?.startsWith('application/json')
        ? await res.json()
        : await res.text(),
    };
  };
  const status = async (url: string, as: TestClient) => (await fetchStatus(url, as)).status;
  const dm = async (from: TestClient, to: number[], content: string) => {
    const r = await from.post('/messages', { type: 'direct', to, content });
    expect(r.status).toBe(200);
    return r.body.id as number;
  };
  const post = async (from: TestClient, stream: string, content: string) => {
    const r = await from.post('/messages', { type: 'stream', to: stream, topic: 'files', content });
    expect(r.status).toBe(200);
    return r.body.id as number;
  };
  const claimsOf = async (messageId: number) =>
    (
      await w.server.ctx.db
        .selectFrom('attachment_claims' as any)
        .select('attachment_id' as any)
        .where('message_id', '=', messageId)
        .execute()
    ).length;

  it('gives nothing to a member who learns the URL of a file in a private channel', async () => {
    const url = await upload(cordelia, 'roadmap.txt', 'design secrets');
    await post(cordelia, 'design', `The plan: [roadmap.txt](${url})`);
    expect(await status(url, hamlet)).toBe(200);

    // Othello learns the URL and sends it to himself: the message goes out, the file stays closed.
    await dm(othello, [ids.othello!], `mine now? [roadmap.txt](${url})`);
    const denied = await fetchStatus(url, othello);
    expect(denied).toEqual({
      status: 403,
      body: expect.objectContaining({
        result: 'error',
        msg: 'You are not authorized to view this file.',
      }),
    });
    const [, , realmId, ...rest] = url.split('/');
    expect((await othello.get(`/user_uploads/${realmId}/${rest.join('/')}`)).status).toBe(403);

    // Posting it in the web-public channel opens it to no one either.
    await post(othello, 'welcome', `Free file: [roadmap.txt](${url})`);
    expect(await status(url, spectator)).toBe(403);
    expect(await status(url, othello)).toBe(403);
    expect(await status(url, polonius)).toBe(403);
    // Subscribers of design still read it.
    expect(await status(url, hamlet)).toBe(200);
  });

  it('lets those who can read a file share it on, and only them', async () => {
    const url = await upload(cordelia, 'mockup.txt', 'sidebar v2');
    expect(await status(url, cordelia)).toBe(200); // the owner, before any message
    expect(await status(url, hamlet)).toBe(403);
    await post(cordelia, 'design', `[mockup](${url})`);
    expect(await status(url, hamlet)).toBe(200);
    expect(await status(url, othello)).toBe(403);

    // Hamlet re-shares it with Othello, who then reads it (also through a temporary URL) and may pass it on.
    await dm(hamlet, [ids.othello!], `Have a look: [mockup](${url})`);
    expect(await status(url, othello)).toBe(200);
    const [, , realmId, ...rest] = url.split('/');
    const temporary = await othello.get(`/user_uploads/${realmId}/${rest.join('/')}`);
    expect(temporary.status).toBe(200);
    expect(await status(temporary.body.url, spectator)).toBe(200);
    expect(await status(url, polonius)).toBe(403);
    await dm(othello, [ids.polonius!], `[mockup](${url})`);
    expect(await status(url, polonius)).toBe(200);
  });

  it('claims an absolute or percent-encoded link as well as a relative one', async () => {
    const url = await upload(hamlet, 'résumé.txt', 'curriculum');
    await dm(hamlet, [ids.othello!], `${new URL(encodeURI(url), w.server.url).href}`);
    expect(await status(encodeURI(url), othello)).toBe(200);
    // Text that merely mentions the path, in code, is no link and claims nothing.
    const other = await upload(hamlet, 'code.txt', 'source');
    const id = await dm(hamlet, [ids.cordelia!], `\`${other}\``);
    expect(await claimsOf(id)).toBe(0);
    expect(await status(other, cordelia)).toBe(403);
  });

  it('opens a file to spectators when a web-public channel message claims it', async () => {
    const url = await upload(hamlet, 'poster.txt', 'all welcome');
    expect(await status(url, spectator)).toBe(403);
    await post(hamlet, 'welcome', `[poster](${url})`);
    expect(await status(url, spectator)).toBe(200);
    expect(await status(url, polonius)).toBe(200);
  });

  it('recomputes claims when the content is edited', async () => {
    const url = await upload(hamlet, 'draft.txt', 'act one');
    const id = await dm(hamlet, [ids.othello!], `[draft](${url})`);
    expect(await status(url, othello)).toBe(200);
    expect((await hamlet.patch(`/messages/${id}`, { content: 'never mind' })).status).toBe(200);
    expect(await claimsOf(id)).toBe(0);
    expect(await status(url, othello)).toBe(403);
    expect(
      (await hamlet.patch(`/messages/${id}`, { content: `after all: [draft](${url})` })).status,
    ).toBe(200);
    expect(await status(url, othello)).toBe(200);

    // An edit that adds a link its sender may not read sends, but claims nothing.
    const secret = await upload(cordelia, 'secret.txt', 'design only');
    await post(cordelia, 'design', `[secret](${secret})`);
    const own = await dm(othello, [ids.polonius!], 'hello');
    expect(
      (await othello.patch(`/messages/${own}`, { content: `[secret](${secret})` })).status,
    ).toBe(200);
    expect(await claimsOf(own)).toBe(0);
    expect(await status(secret, polonius)).toBe(403);
    expect(await status(secret, othello)).toBe(403);
  });

  it('revokes access with the deletion of the claiming message', async () => {
    const url = await upload(hamlet, 'letter.txt', 'to Ophelia');
    const id = await dm(hamlet, [ids.othello!], `[letter](${url})`);
    expect(await status(url, othello)).toBe(200);
    expect((await hamlet.delete(`/messages/${id}`)).status).toBe(200);
    expect(await claimsOf(id)).toBe(0);
    expect(await status(url, othello)).toBe(403);
    expect(await status(url, hamlet)).toBe(200);
  });

  it('claims from scheduled messages when they are sent', async () => {
    const url = await upload(hamlet, 'later.txt', 'tomorrow');
    const at = Math.floor(Date.now() / 1000) + 3600;
    const r = await hamlet.post('/scheduled_messages', {
      type: 'direct',
      to: [ids.cordelia!],
      content: `[later](${url})`,
      scheduled_delivery_timestamp: at,
    });
    expect(r.status).toBe(200);
    expect(await status(url, cordelia)).toBe(403);
    expect(await deliverDueScheduledMessages(w.server.ctx, at)).toBe(1);
    expect(await status(url, cordelia)).toBe(200);
  });

  it('back-fills claims of existing messages from their senders who own the linked files', async () => {
    const mine = await upload(hamlet, 'old.txt', 'from before');
    const theirs = await upload(cordelia, 'borrowed.txt', 'not hamlet’s');
    const owned = await dm(hamlet, [ids.othello!], `[old](${mine})`);
    await post(cordelia, 'design', `[borrowed](${theirs})`);
    const reshared = await dm(hamlet, [ids.othello!], `[borrowed](${theirs})`);
    // As a database from before the claims: the table is made anew from the messages.
    await w.server.ctx.db.schema.dropTable('attachment_claims').execute();
    await migrations(db)['0006_attachment_claims']!.up(w.server.ctx.db);
    expect(await claimsOf(owned)).toBe(1);
    expect(await claimsOf(reshared)).toBe(0);
    expect(await status(mine, othello)).toBe(200);
    expect(await status(theirs, hamlet)).toBe(200);
  });
});
