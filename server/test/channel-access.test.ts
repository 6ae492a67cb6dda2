import { beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';

/**
 * Reaching a channel (canAccessStream): administrators read a private channel's settings and
 * members, not its content; narrows on a channel one cannot read keep what one received; web-public
 * channels for spectators; leaving and clearing topic policies need no access; guests and sending.
 * The authorization matrix asks every route once; this says the rest of each rule.
 */
describe.each(databases('both'))('channel access on %s', (db) => {
  const w = useServer({ db, people: ['iago', 'cordelia', 'othello', 'polonius'] });
  let anon: TestClient;
  const c = w.as;
  const stream = w.stream;
  /** a design message iago received before leaving, and one sent after */
  let kept: number;
  let missed: number;
  let welcomeMessage: number;

  const ids = async (who: TestClient, narrow: unknown[]) => {
    const r = await who.get('/messages', {
      anchor: 'newest',
      num_before: 1000,
      num_after: 0,
      narrow,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.messages as { id: number }[]).map((m) => m.id);
  };
  const send = async (who: TestClient, to: string, content: string) => {
    const r = await who.post('/messages', { type: 'stream', to, topic: 'access', content });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id as number;
  };

  beforeAll(async () => {
    anon = new TestClient(w.server.url);
    kept = await send(c.cordelia, 'design', 'before iago left');
    expect(
      (await c.iago.delete('/users/me/subscriptions', { subscriptions: ['design'] })).body.removed,
    ).toEqual(['design']);
    missed = await send(c.cordelia, 'design', 'after iago left');
    welcomeMessage = await send(c.cordelia, 'welcome', 'hello, visitors');
  });

  it("shows an administrator a private channel's settings and members, not its content", async () => {
    expect((await c.iago.get(`/streams/${stream.design}`)).body.stream.name).toBe('design');
    expect(
      (await c.iago.get(`/streams/${stream.design}/members`)).body.subscribers.length,
    ).toBeGreaterThan(0);
    const invalid = { code: 'BAD_REQUEST', msg: 'Invalid channel ID' };
    expect((await c.iago.get(`/users/me/${stream.design}/topics`)).body).toMatchObject(invalid);
    expect(
      (await c.iago.post('/mark_stream_as_read', { stream_id: stream.design })).body,
    ).toMatchObject(invalid);
    expect((await c.iago.get('/get_stream_id', { stream: 'design' })).body).toMatchObject({
      msg: "Invalid channel name 'design'",
    });
    // What they received while subscribed stays theirs; nothing sent since.
    expect(await ids(c.iago, [{ operator: 'channel', operand: 'design' }])).toEqual(
      expect.arrayContaining([kept]),
    );
    expect(await ids(c.iago, [{ operator: 'channel', operand: 'design' }])).not.toContain(missed);
    expect((await c.iago.get(`/messages/${kept}`)).body).toMatchObject({
      msg: 'Invalid message(s)',
    });
  });

  it('lets nobody bring people into a private channel they are not in, administrators neither', async () => {
    const othello = (await c.othello.get('/users/me')).body.user_id;
    const r = await c.iago.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'design' }],
      principals: [othello],
    });
    expect(r.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Unable to access channel (design).',
    });
    // Removing is administration: administrators may, from any channel.
    const ok = await c.cordelia.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'design' }],
      principals: [othello],
    });
    expect(ok.status).toBe(200);
    expect(
      (
        await c.iago.delete('/users/me/subscriptions', {
          subscriptions: ['design'],
          principals: [othello],
        })
      ).body.removed,
    ).toEqual(['design']);
  });

  it('lets someone who left a private channel clear a topic policy there, not set one', async () => {
    const policy = (visibility_policy: number) =>
      c.iago.post('/user_topics', { stream_id: stream.design, topic: 'access', visibility_policy });
    expect((await policy(1)).body).toMatchObject({ msg: 'Invalid channel ID' });
    expect((await policy(0)).status).toBe(200);
  });

  it('reads every web-public channel through channels:web-public, for spectators too', async () => {
    const narrow = [{ operator: 'channels', operand: 'web-public' }];
    for (const who of [anon, c.othello, c.polonius]) {
      const found = await ids(who, narrow);
      expect(found).toContain(welcomeMessage);
      expect(found).not.toContain(kept);
    }
    // A guest's channels:public holds only what they may read: web-public channels, here.
    expect(await ids(c.polonius, [{ operator: 'channels', operand: 'public' }])).not.toContain(
      kept,
    );
  });

  it('asks spectators to log in for anything but web-public channels', async () => {
    const get = (narrow: unknown[]) =>
      anon.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow });
    expect((await get([{ operator: 'channel', operand: 'design' }])).status).toBe(401);
    expect(
      (
        await get([
          { operator: 'channel', operand: 'welcome' },
          { operator: 'is', operand: 'starred' },
        ])
      ).status,
    ).toBe(401);
    expect((await get([])).status).toBe(401);
    const privateOne = await get([
      { operator: 'channels', operand: 'web-public' },
      { operator: 'channel', operand: 'design' },
    ]);
    expect(privateOne.body.code).toBe('BAD_NARROW');
    expect((await anon.get(`/messages/${kept}`)).body.code).toBe('UNAUTHORIZED');
    expect((await anon.get('/messages/999999')).body.code).toBe('UNAUTHORIZED');
    expect((await anon.get(`/messages/${welcomeMessage}`)).status).toBe(200);
  });

  it('lets guests post to web-public channels, not to other channels they are not in', async () => {
    const post = (to: string) =>
      c.polonius.post('/messages', { type: 'stream', to, topic: 'guests', content: 'hi' });
    expect((await post('engineering')).body).toMatchObject({
      msg: "Not authorized to send to channel 'engineering'",
    });
    expect((await post('design')).body).toMatchObject({
      msg: "Not authorized to send to channel 'design'",
    });
    // Out of welcome, so that only its being web-public lets the guest in.
    await c.polonius.delete('/users/me/subscriptions', { subscriptions: ['welcome'] });
    expect((await post('welcome')).status).toBe(200);
    expect((await post('atlantis')).body).toMatchObject({
      code: 'STREAM_DOES_NOT_EXIST',
      stream: 'atlantis',
    });
  });

  it('refuses guests any subscribing, even to channels they may read', async () => {
    const r = await c.polonius.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'welcome' }],
    });
    expect(r.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Not allowed for guest users' });
  });

  it('tells a member outside a private channel nothing about it when they try to change it', async () => {
    expect(
      (await c.othello.patch(`/streams/${stream.design}`, { description: 'mine now' })).body,
    ).toMatchObject({ msg: 'Invalid channel ID' });
    expect(
      (await c.othello.patch(`/streams/${stream.general}`, { description: 'mine now' })).body,
    ).toMatchObject({
      code: 'UNAUTHORIZED_PRINCIPAL',
      msg: 'Must be an organization administrator',
    });
  });
});
