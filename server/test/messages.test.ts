import { beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { databases, useServer, type DemoName } from './fixtures.js';

/** GET /messages: anchors, windows, every narrow operator, access rules and per-user flags. */

const NEWEST = 10_000_000_000_000_000;
type Narrow = unknown[];

describe.each(databases('both'))('GET /messages on %s', (db) => {
  const w = useServer({ db });
  const c = w.as;
  const id = w.id as Record<DemoName | 'anchors', number>;
  /** ten messages in the stream "anchors": topic "one" for a[0..4], "two" for a[5..9] */
  const a: number[] = [];
  let gap: number;
  let dm: number;
  let groupDm: number;

  const fetch = async (who: TestClient, params: Record<string, unknown>) => {
    const r = await who.get('/messages', params);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const window = (
    anchor: unknown,
    before: number,
    after: number,
    extra: Record<string, unknown> = {},
    who = c.othello,
  ) =>
    fetch(who, {
      anchor,
      num_before: before,
      num_after: after,
      narrow: [['channel', 'anchors']],
      ...extra,
    });
  const ids = async (who: TestClient, narrow: Narrow) =>
    ((await fetch(who, { anchor: 'newest', num_before: 1000, narrow })).messages as any[]).map(
      (m) => m.id as number,
    );
  const messages = async (who: TestClient, narrow: Narrow) =>
    (await fetch(who, { anchor: 'newest', num_before: 1000, narrow })).messages as any[];
  const send = async (who: TestClient, params: Record<string, unknown>) => {
    const r = await who.post('/messages', params);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id as number;
  };

  beforeAll(async () => {
    await c.hamlet.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'anchors' }],
      principals: [id.hamlet, id.othello],
    });
    id.anchors = (await c.hamlet.get('/get_stream_id', { stream: 'anchors' })).body.stream_id;
    for (let i = 0; i < 10; i++) {
      if (i === 5)
        gap = await send(c.hamlet, {
          type: 'stream',
          to: 'general',
          topic: 'gap',
          content: 'between',
        });
      const content =
        i === 7
          ? 'a trip to Zanzibar'
          : i === 9
            ? 'over to you @**Othello, the Moor of Venice**'
            : `number ${i}`;
      a.push(
        await send(c.hamlet, {
          type: 'stream',
          to: id.anchors,
          topic: i < 5 ? 'one' : 'two',
          content,
        }),
      );
    }
    await c.othello.post('/messages/flags', { messages: a.slice(0, 4), op: 'add', flag: 'read' });
    await c.hamlet.post('/messages/flags', { messages: [a[1]], op: 'add', flag: 'starred' });
    dm = await send(c.othello, { type: 'direct', to: [id.hamlet], content: 'just us' });
    groupDm = await send(c.hamlet, {
      type: 'direct',
      to: ['othello@example.com', 'cordelia@example.com'],
      content: 'all three',
    });
  });

  describe('anchors and windows', () => {
    it('reads backwards from the newest message', async () => {
      const r = await window('newest', 3, 0);
      expect(r.messages.map((m: any) => m.id)).toEqual(a.slice(7));
      expect(r).toMatchObject({
        anchor: NEWEST,
        found_anchor: false,
        found_oldest: false,
        found_newest: true,
        history_limited: false,
      });
    });

    it('reads forwards from the oldest message', async () => {
      const r = await window('oldest', 0, 3);
      expect(r.messages.map((m: any) => m.id)).toEqual(a.slice(0, 3));
      expect(r).toMatchObject({
        found_anchor: false,
        found_oldest: true,
        found_newest: false,
        history_limited: false,
      });
    });

    it('centres on a numeric anchor, with or without it', async () => {
      const r = await window(a[5], 2, 2);
      expect(r.messages.map((m: any) => m.id)).toEqual(a.slice(3, 8));
      expect(r).toMatchObject({
        anchor: a[5],
        found_anchor: true,
        found_oldest: false,
        found_newest: false,
      });
      const without = await window(a[5], 2, 2, { include_anchor: false });
      expect(without.messages.map((m: any) => m.id)).toEqual([a[3], a[4], a[6], a[7]]);
      expect(without.found_anchor).toBe(false);
    });

    it('places an anchor that is not in the narrow between its neighbours', async () => {
      const r = await window(gap, 1, 1);
      expect(r.messages.map((m: any) => m.id)).toEqual([a[4], a[5]]);
      expect(r).toMatchObject({ anchor: gap, found_anchor: false });
    });

    it('says exactly when the window reaches either end', async () => {
      expect(await window(a[2], 2, 0)).toMatchObject({
        found_oldest: true,
        found_newest: false,
        found_anchor: true,
      });
      expect((await window(a[2], 1, 0)).found_oldest).toBe(false);
      expect(await window(a[7], 0, 2)).toMatchObject({ found_newest: true, found_oldest: false });
      expect((await window(a[7], 0, 1)).found_newest).toBe(false);
      const all = await window(a[0], 0, 9);
      expect(all.messages).toHaveLength(10);
      expect(all).toMatchObject({ found_oldest: true, found_newest: true, found_anchor: true });
    });

    it('starts at the first unread message, or at the newest when all are read', async () => {
      const r = await window('first_unread', 1, 1);
      expect(r.messages.map((m: any) => m.id)).toEqual([a[3], a[4], a[5]]);
      expect(r).toMatchObject({ anchor: a[4], found_anchor: true });
      expect((await window('newest', 0, 0, { use_first_unread_anchor: true })).anchor).toBe(a[4]);
      const own = await window('first_unread', 2, 2, {}, c.hamlet);
      expect(own.messages.map((m: any) => m.id)).toEqual(a.slice(8));
      expect(own).toMatchObject({ anchor: NEWEST, found_newest: true });
    });

    it('accepts the "newest" number clients echo back, and refuses bad windows', async () => {
      const r = await window(String(NEWEST), 2, 5);
      expect(r.messages.map((m: any) => m.id)).toEqual(a.slice(8));
      expect(r).toMatchObject({ found_newest: true, found_anchor: false });
      for (const bad of [
        { anchor: 'latest' },
        { anchor: '1.5' },
        { num_before: -1 },
        { num_after: 5001 },
      ]) {
        const refused = await c.othello.get('/messages', {
          anchor: 'newest',
          narrow: [['channel', 'anchors']],
          ...bad,
        });
        expect(refused.status, JSON.stringify(bad)).toBe(400);
        expect(refused.body.code).toBe('BAD_REQUEST');
      }
    });
  });

  describe('narrow operators', () => {
    it('finds a stream by name and by id, in both narrow forms', async () => {
      for (const narrow of [
        [['stream', 'anchors']],
        [['channel', 'ANCHORS']],
        [['channel', String(id.anchors)]],
        [{ operator: 'channel', operand: id.anchors }],
        [{ operator: 'stream', operand: 'anchors' }],
      ])
        expect(await ids(c.hamlet, narrow), JSON.stringify(narrow)).toEqual(a);
    });

    it('narrows to a topic, and negates it', async () => {
      expect(
        await ids(c.hamlet, [
          ['channel', 'anchors'],
          ['topic', 'One'],
        ]),
      ).toEqual(a.slice(0, 5));
      expect(
        await ids(c.hamlet, [
          ['channel', 'anchors'],
          ['subject', 'two'],
        ]),
      ).toEqual(a.slice(5));
      expect(
        await ids(c.hamlet, [
          ['channel', 'anchors'],
          { operator: 'topic', operand: 'one', negated: true },
        ]),
      ).toEqual(a.slice(5));
      expect(
        await ids(c.hamlet, [
          ['channel', 'anchors'],
          ['-topic', 'two'],
        ]),
      ).toEqual(a.slice(0, 5));
    });

    it('narrows to direct-message conversations by ids and by emails', async () => {
      const one = await ids(c.hamlet, [['dm', [id.othello]]]);
      expect(one).toContain(dm);
      expect(one).not.toContain(groupDm);
      expect(await ids(c.hamlet, [['dm', 'othello@example.com']])).toEqual(one);
      expect(await ids(c.hamlet, [['pm-with', 'othello@example.com']])).toEqual(one);
      expect(await ids(c.hamlet, [['dm', [id.othello, id.cordelia]]])).toEqual([groupDm]);
      expect(await ids(c.hamlet, [['dm', 'cordelia@example.com,othello@example.com']])).toEqual([
        groupDm,
      ]);
      expect(await ids(c.cordelia, [['dm', [id.hamlet, id.othello]]])).toEqual([groupDm]);
      for (const m of await messages(c.hamlet, [['dm', [id.othello]]]))
        expect(m.display_recipient.map((u: any) => u.id).sort()).toEqual(
          [id.hamlet, id.othello].sort(),
        );
    });

    it('finds every conversation that includes someone, and all direct messages', async () => {
      const including = await messages(c.hamlet, [['dm-including', id.othello]]);
      expect(including.map((m) => m.id)).toEqual(expect.arrayContaining([dm, groupDm]));
      for (const m of including) {
        expect(m.type).toBe('private');
        expect(m.display_recipient.map((u: any) => u.id)).toContain(id.othello);
      }
      const dms = await ids(c.hamlet, [['is', 'dm']]);
      expect(dms).toEqual(expect.arrayContaining([dm, groupDm]));
      expect(dms).not.toContain(a[0]);
      expect(await ids(c.hamlet, [['is', 'private']])).toEqual(dms);
      expect(dms.length).toBeGreaterThan(including.length);
    });

    it('narrows by flags: starred, mentioned, unread', async () => {
      expect(
        await ids(c.hamlet, [
          ['is', 'starred'],
          ['channel', 'anchors'],
        ]),
      ).toEqual([a[1]]);
      expect(
        await ids(c.othello, [
          ['is', 'starred'],
          ['channel', 'anchors'],
        ]),
      ).toEqual([]);
      expect(
        await ids(c.othello, [
          ['channel', 'anchors'],
          ['is', 'mentioned'],
        ]),
      ).toEqual([a[9]]);
      expect(await ids(c.othello, [['is', 'mentioned']])).toContain(a[9]);
      expect(
        await ids(c.othello, [
          ['channel', 'anchors'],
          ['is', 'unread'],
        ]),
      ).toEqual(a.slice(4));
      expect(
        await ids(c.othello, [
          ['channel', 'anchors'],
          ['-is', 'unread'],
        ]),
      ).toEqual(a.slice(0, 4));
    });

    it('narrows by sender, id and search words', async () => {
      expect(
        await ids(c.hamlet, [
          ['channel', 'anchors'],
          ['sender', 'hamlet@example.com'],
        ]),
      ).toEqual(a);
      expect(
        await ids(c.hamlet, [
          ['sender', id.othello],
          ['is', 'dm'],
        ]),
      ).toContain(dm);
      expect(
        await ids(c.hamlet, [['channel', 'anchors'], { operator: 'sender', operand: id.othello }]),
      ).toEqual([]);
      expect(await ids(c.hamlet, [['id', String(a[3])]])).toEqual([a[3]]);
      expect(
        await ids(c.hamlet, [
          ['channel', 'anchors'],
          ['search', 'zanzibar'],
        ]),
      ).toEqual([a[7]]);
      expect(
        await ids(c.hamlet, [
          ['channel', 'anchors'],
          ['search', 'trip ZANZIBAR'],
        ]),
      ).toEqual([a[7]]);
      expect(await ids(c.hamlet, [['search', 'zanzibar nonsenseword']])).toEqual([]);
      // LIKE wildcards in a search are plain characters, on every database.
      const snake = (
        await c.hamlet.post('/messages', {
          type: 'stream',
          to: 'general',
          topic: 'wildcards',
          content: 'rename snake_case 100%',
        })
      ).body.id;
      const other = (
        await c.hamlet.post('/messages', {
          type: 'stream',
          to: 'general',
          topic: 'wildcards',
          content: 'rename snakeXcase 1000',
        })
      ).body.id;
      expect(
        await ids(c.hamlet, [
          ['topic', 'wildcards'],
          ['search', 'snake_case'],
        ]),
      ).toEqual([snake]);
      expect(
        await ids(c.hamlet, [
          ['topic', 'wildcards'],
          ['search', '100%'],
        ]),
      ).toEqual([snake]);
      expect(
        await ids(c.hamlet, [
          ['topic', 'wildcards'],
          ['search', 'rename'],
        ]),
      ).toEqual([snake, other]);
    });

    it('refuses unknown operators and operands without failing', async () => {
      for (const narrow of [
        [['colour', 'red']],
        [['is', 'purple']],
        [['dm', 'nobody@example.com']],
        [['channel', 'atlantis']],
        [['id', 'x']],
        'channel:general',
        [[1, 2]],
      ]) {
        const r = await c.hamlet.get('/messages', { anchor: 'newest', num_before: 1, narrow });
        expect(r.status, JSON.stringify(narrow)).toBe(400);
        expect(r.body.result).toBe('error');
      }
    });
  });

  describe('access and flags', () => {
    it("shows a public stream's history to members who never subscribed, as read and historical", async () => {
      const seen = await messages(c.cordelia, [['channel', 'anchors']]);
      expect(seen.map((m) => m.id)).toEqual(a);
      for (const m of seen) expect(m.flags).toEqual(expect.arrayContaining(['read', 'historical']));
    });

    it("keeps each user's flags their own", async () => {
      const mine = await messages(c.othello, [['channel', 'anchors']]);
      expect(mine[0].flags).toContain('read');
      expect(mine[5].flags).not.toContain('read');
      expect(mine[1].flags).not.toContain('starred');
      expect(mine[9].flags).toContain('mentioned');
      expect(mine[0].flags).not.toContain('historical');
      const his = await messages(c.hamlet, [['channel', 'anchors']]);
      expect(his[1].flags).toEqual(expect.arrayContaining(['read', 'starred']));
      expect(his[9].flags).not.toContain('mentioned');
    });

    it("opens a private stream's shared history to a new subscriber only", async () => {
      // Outside the channel, the narrow finds only what one received: nothing here.
      expect(await ids(c.othello, [['channel', 'design']])).toEqual([]);
      const before = await ids(c.hamlet, [['channel', 'design']]);
      expect(
        (
          await c.iago.post('/users/me/subscriptions', {
            subscriptions: [{ name: 'design' }],
            principals: [id.othello],
          })
        ).status,
      ).toBe(200);
      const after = await messages(c.othello, [['channel', 'design']]);
      expect(after.map((m) => m.id)).toEqual(before);
      expect(after[0].flags).toContain('historical');
    });

    it("shows only received messages when a private stream's history is not shared", async () => {
      const created = await c.hamlet.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'vault' }],
        invite_only: true,
        history_public_to_subscribers: false,
      });
      expect(created.status).toBe(200);
      const first = await send(c.hamlet, {
        type: 'stream',
        to: 'vault',
        topic: 'secrets',
        content: 'before othello',
      });
      await c.hamlet.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'vault' }],
        principals: [id.othello],
      });
      const second = await send(c.hamlet, {
        type: 'stream',
        to: 'vault',
        topic: 'secrets',
        content: 'after othello',
      });
      expect(await ids(c.hamlet, [['channel', 'vault']])).toEqual([first, second]);
      expect(await ids(c.othello, [['channel', 'vault']])).toEqual([second]);
      expect((await c.othello.get(`/messages/${first}`)).body.code).toBe('BAD_REQUEST');
      expect((await c.othello.get(`/messages/${second}`)).body.message.content).toBe(
        '<p>after othello</p>',
      );
      // An administrator sees that the stream exists, not what was said in it.
      expect(await ids(c.iago, [['channel', 'vault']])).toEqual([]);
      expect(await ids(c.cordelia, [['channel', 'vault']])).toEqual([]);
      expect(await ids(c.cordelia, [['search', 'othello']])).not.toContain(first);
    });

    it('limits guests to the streams they are in', async () => {
      expect(await ids(c.polonius, [['channel', 'engineering']])).toEqual([]);
      expect(await ids(c.polonius, [['channel', 'anchors']])).toEqual([]);
      const general = await messages(c.polonius, [['channel', 'general']]);
      expect(general.length).toBeGreaterThan(0);
      const everything = await messages(c.polonius, []);
      expect(
        everything.every(
          (m) => m.type === 'private' || ['general', 'welcome'].includes(m.display_recipient),
        ),
      ).toBe(true);
      expect(everything.map((m) => m.id)).not.toContain(a[0]);
      expect((await c.polonius.get(`/messages/${a[0]}`)).status).toBe(400);
    });

    it('gives markdown or raw content as asked', async () => {
      const [html] = await messages(c.hamlet, [['id', String(a[7])]]);
      expect(html).toMatchObject({
        content: '<p>a trip to Zanzibar</p>',
        content_type: 'text/html',
      });
      const raw = await fetch(c.hamlet, {
        anchor: a[7],
        num_before: 0,
        num_after: 0,
        apply_markdown: false,
      });
      expect(raw.messages[0]).toMatchObject({
        content: 'a trip to Zanzibar',
        content_type: 'text/x-markdown',
        subject: 'two',
        stream_id: id.anchors,
      });
    });
  });
});
