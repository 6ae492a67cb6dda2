import { afterEach, expect, it } from 'vitest';
import type { TestClient } from './client.js';
import { describeServer } from './fixtures.js';
import { VISITOR_STREAM_PATH, VisitorStream } from './visitor-stream.js';

/*
 * The `web_public_events` extension: visitors (no account, no queue) follow the web-public
 * channels live over Server-Sent Events, and nothing else ever reaches them.
 */

let seq = 0;
const unique = (prefix: string) => `${prefix} ${++seq} ${Date.now().toString(36)}`;

/** Resolves with whether `promise` settled within `ms`. */
const within = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

describeServer(
  'visitors following web-public channels live',
  { db: 'both', people: ['desdemona', 'iago', 'hamlet'] },
  (w) => {
    const { desdemona, iago, hamlet } = w.as;
    const streams: VisitorStream[] = [];
    afterEach(() => {
      for (const s of streams.splice(0)) s.close();
    });

    const follow = async () => {
      const s = await VisitorStream.connect(w.server.url);
      streams.push(s);
      return s;
    };
    const send = async (c: TestClient, to: number, content: string, topic = 'live') => {
      const r = await c.post('/messages', { type: 'stream', to: String(to), topic, content });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.id as number;
    };
    /** A new channel of the owner's: web-public, public or private. */
    const channel = async (kind: 'web-public' | 'public' | 'private') => {
      const name = unique(kind).replace(/ /g, '-');
      const r = await desdemona.post('/users/me/subscriptions', {
        subscriptions: [{ name }],
        is_web_public: kind === 'web-public',
        invite_only: kind === 'private',
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (await desdemona.get('/get_stream_id', { stream: name })).body.stream_id as number;
    };
    const noNotices = {
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    };
    /** Sends a marker to `welcome` and waits for it: everything published before has been judged. */
    const settle = async (visitor: VisitorStream) => {
      const marker = await send(iago, w.stream.welcome, unique('marker'), 'markers');
      await visitor.waitFor((e) => e.type === 'message' && e.message.id === marker);
    };

    it('is announced in /server_settings, and answers JSON when not asked for a stream', async () => {
      const settings = await fetch(`${w.server.url}/api/v1/server_settings`);
      expect((await settings.json()).parley_extensions).toEqual(['mail_log', 'web_public_events']);
      const probe = await fetch(`${w.server.url}/api/v1${VISITOR_STREAM_PATH}`);
      expect(await probe.json()).toEqual({ result: 'success', msg: '', heartbeat_seconds: 25 });
    });

    it('opens as a stream no proxy buffers, a heartbeat first', async () => {
      const visitor = await follow();
      const headers = visitor.response.headers;
      expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(headers.get('cache-control')).toBe('no-cache, no-transform');
      expect(headers.get('x-accel-buffering')).toBe('no');
      expect(headers.get('content-encoding')).toBeNull();
      expect(visitor.events[0]).toEqual({ id: expect.any(Number), type: 'heartbeat' });
    });

    it('sends a message of a web-public channel as it is sent', async () => {
      const visitor = await follow();
      const content = unique('Hello, visitors');
      const id = await send(iago, w.stream.welcome, content);
      const event = await visitor.waitFor((e) => e.type === 'message' && e.message.id === id);
      expect(event.message).toMatchObject({
        stream_id: w.stream.welcome,
        display_recipient: 'welcome',
        subject: 'live',
        content: `<p>${content}</p>`,
        content_type: 'text/html',
        sender_id: w.id.iago,
      });
      expect(event.message.avatar_url).toEqual(expect.any(String));
      expect(event.flags).toEqual(['read']);
    });

    it('never sends a message of a public, private or direct conversation', async () => {
      const visitor = await follow();
      const hideout = await channel('private');
      const secrets = [unique('members only'), unique('hideout only'), unique('between us')];
      await send(iago, w.stream.general, secrets[0]);
      await send(desdemona, hideout, secrets[1]);
      await iago.post('/messages', { type: 'direct', to: [w.id.hamlet], content: secrets[2] });
      await settle(visitor);
      const seen = JSON.stringify(visitor.events);
      for (const secret of secrets) expect(seen).not.toContain(secret);
      const channels = visitor.news.filter((e) => e.type === 'message');
      expect(channels.map((e) => e.message.stream_id)).not.toContain(w.stream.general);
      expect(channels.map((e) => e.message.stream_id)).not.toContain(hideout);
      expect(seen).not.toContain(`"stream_id":${hideout}`);
    });

    it('stops at once when the channel stops being web-public, and says it left', async () => {
      const room = await channel('web-public');
      const visitor = await follow();
      const before = await send(desdemona, room, unique('while open'));
      await visitor.waitFor((e) => e.type === 'message' && e.message.id === before);
      const closing = await desdemona.patch(`/streams/${room}`, { is_web_public: false });
      expect(closing.status, JSON.stringify(closing.body)).toBe(200);
      const after = unique('after closing');
      const afterId = await send(desdemona, room, after);
      await hamlet.post(`/messages/${before}/reactions`, { emoji_name: 'octopus' });
      await desdemona.patch(`/messages/${before}`, { content: unique('edited after closing') });
      await settle(visitor);
      const left = visitor.events.findIndex((e) => e.type === 'stream' && e.op === 'delete');
      expect(visitor.events[left]).toEqual({
        id: expect.any(Number),
        type: 'stream',
        op: 'delete',
        streams: [{ stream_id: room }],
        stream_ids: [room],
      });
      const later = visitor.events.slice(left + 1);
      expect(later.filter((e) => e.stream_id === room || e.message?.stream_id === room)).toEqual(
        [],
      );
      expect(JSON.stringify(visitor.events)).not.toContain(after);
      expect(JSON.stringify(visitor.events)).not.toContain(`"message_id":${before}`);
      expect(JSON.stringify(visitor.events)).not.toContain(`"id":${afterId},`);
    });

    it('welcomes a channel that became web-public, then passes its changes', async () => {
      const room = await channel('public');
      const visitor = await follow();
      const before = unique('before it opened');
      await send(desdemona, room, before);
      await desdemona.patch(`/streams/${room}`, { is_web_public: true });
      const created = await visitor.waitFor((e) => e.type === 'stream' && e.op === 'create');
      expect(created.streams).toEqual([
        expect.objectContaining({ stream_id: room, is_web_public: true, invite_only: false }),
      ]);
      const description = unique('A room for everyone');
      await desdemona.patch(`/streams/${room}`, { description });
      const changed = await visitor.waitFor(
        (e) => e.type === 'stream' && e.op === 'update' && e.property === 'description',
      );
      expect(changed).toMatchObject({ stream_id: room, value: description });
      expect(JSON.stringify(visitor.events)).not.toContain(before);
    });

    it('carries edits, topic moves, reactions, widgets and deletions, each with its channel', async () => {
      const visitor = await follow();
      const welcome = w.stream.welcome;
      const topic = unique('changes');
      const text = await send(iago, welcome, 'First draft', topic);
      const poll = await send(iago, welcome, '/poll Lunch?\nSoup\nSalad', topic);
      await visitor.waitFor((e) => e.type === 'message' && e.message.id === poll);

      await iago.patch(`/messages/${text}`, { content: 'Second draft' });
      const edit = await visitor.waitFor(
        (e) => e.type === 'update_message' && e.message_id === text,
      );
      expect(edit).toMatchObject({
        stream_id: welcome,
        rendered_content: '<p>Second draft</p>',
        message_ids: [text],
      });

      await hamlet.post(`/messages/${text}/reactions`, { emoji_name: 'octopus' });
      expect(await visitor.waitFor((e) => e.type === 'reaction')).toMatchObject({
        op: 'add',
        message_id: text,
        stream_id: welcome,
        emoji_name: 'octopus',
        user_id: w.id.hamlet,
      });

      await hamlet.post('/submessage', {
        message_id: poll,
        msg_type: 'widget',
        content: JSON.stringify({ type: 'vote', key: 'canned,1', vote: 1 }),
      });
      expect(await visitor.waitFor((e) => e.type === 'submessage')).toMatchObject({
        message_id: poll,
        stream_id: welcome,
        sender_id: w.id.hamlet,
        msg_type: 'widget',
      });

      const renamed = unique('renamed');
      await iago.patch(`/messages/${text}`, {
        topic: renamed,
        propagate_mode: 'change_all',
        ...noNotices,
      });
      expect(
        await visitor.waitFor((e) => e.type === 'update_message' && e.subject === renamed),
      ).toMatchObject({ stream_id: welcome, orig_subject: topic, message_ids: [text, poll] });

      await iago.delete(`/messages/${text}`);
      expect(await visitor.waitFor((e) => e.type === 'delete_message')).toEqual({
        id: expect.any(Number),
        type: 'delete_message',
        message_type: 'stream',
        message_ids: [text],
        stream_id: welcome,
        topic: renamed,
      });
    });

    it('deletes a message moved out of its view, and shows nothing of where it went', async () => {
      const hideout = await channel('private');
      const visitor = await follow();
      const id = await send(desdemona, w.stream.welcome, unique('moving out'), 'move out');
      await visitor.waitFor((e) => e.type === 'message' && e.message.id === id);
      const secretTopic = unique('secret plans');
      const moved = await desdemona.patch(`/messages/${id}`, {
        stream_id: hideout,
        topic: secretTopic,
        propagate_mode: 'change_one',
        ...noNotices,
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const secretEdit = unique('now that nobody is looking');
      await desdemona.patch(`/messages/${id}`, { content: secretEdit });
      await settle(visitor);
      const gone = visitor.news.filter((e) => e.message_id === id || e.message_ids?.includes(id));
      expect(gone).toEqual([
        {
          id: expect.any(Number),
          type: 'delete_message',
          message_type: 'stream',
          message_ids: [id],
          stream_id: w.stream.welcome,
          topic: 'move out',
        },
      ]);
      const seen = JSON.stringify(visitor.events);
      expect(seen).not.toContain(secretTopic);
      expect(seen).not.toContain(secretEdit);
      expect(seen).not.toContain(`:${hideout}`);
    });

    it('brings a message moved in without a trace of where it was', async () => {
      const hideout = await channel('private');
      const secretTopic = unique('secret origin');
      const id = await send(desdemona, hideout, unique('out in the open soon'), secretTopic);
      const visitor = await follow();
      await desdemona.patch(`/messages/${id}`, {
        stream_id: w.stream.welcome,
        topic: 'arrivals',
        propagate_mode: 'change_one',
        ...noNotices,
      });
      const arrived = await visitor.waitFor(
        (e) => e.type === 'update_message' && e.message_id === id,
      );
      expect(arrived).toEqual({
        id: expect.any(Number),
        type: 'update_message',
        user_id: w.id.desdemona,
        edit_timestamp: expect.any(Number),
        message_id: id,
        message_ids: [id],
        rendering_only: false,
        new_stream_id: w.stream.welcome,
        subject: 'arrivals',
        propagate_mode: 'change_one',
      });
      expect(JSON.stringify(visitor.events)).not.toContain(secretTopic);
    });

    it('ends when the organization turns spectator access off, and refuses visitors until it is back', async () => {
      const visitor = await follow();
      const secret = unique('after the doors closed');
      try {
        const off = await desdemona.patch('/realm', { enable_spectator_access: false });
        expect(off.status, JSON.stringify(off.body)).toBe(200);
        expect(await within(visitor.ended, 10_000)).toBe(true);
        expect(visitor.events.at(-1)).toEqual({
          id: expect.any(Number),
          type: 'realm',
          op: 'update',
          property: 'enable_spectator_access',
          value: false,
        });
        await send(iago, w.stream.welcome, secret);
        expect(JSON.stringify(visitor.events)).not.toContain(secret);
        const refused = await VisitorStream.open(w.server.url);
        expect(refused).toMatchObject({
          status: 401,
          body: { result: 'error', code: 'UNAUTHORIZED' },
        });
      } finally {
        await desdemona.patch('/realm', { enable_spectator_access: true });
      }
      const again = await follow();
      const id = await send(iago, w.stream.welcome, unique('open again'));
      await again.waitFor((e) => e.type === 'message' && e.message.id === id);
    });
  },
);

describeServer(
  'visitors beyond the limit',
  { db: 'sqlite', people: [], config: { webPublicEventsMax: 1, webPublicHeartbeatMs: 200 } },
  (w) => {
    it('refuses a visitor past the limit with an envelope, and frees the place of one who left', async () => {
      const first = await VisitorStream.connect(w.server.url);
      expect(w.server.ctx.visitors!.size).toBe(1);
      const metrics = await (await fetch(`${w.server.url}/metrics`)).text();
      expect(metrics).toMatch(/^parley_visitor_streams 1$/m);
      const refused = await VisitorStream.open(w.server.url);
      expect(refused).toMatchObject({
        status: 503,
        body: { result: 'error', code: 'TOO_MANY_VISITORS', 'retry-after': 30 },
      });
      expect((refused as { headers: Headers }).headers.get('retry-after')).toBe('30');
      first.close();
      await expect.poll(() => w.server.ctx.visitors!.size).toBe(0);
      const second = await VisitorStream.connect(w.server.url);
      second.close();
      await expect.poll(() => w.server.ctx.visitors!.size).toBe(0);
    });

    it('sends heartbeats while nothing happens', async () => {
      const visitor = await VisitorStream.connect(w.server.url);
      try {
        await visitor.waitFor((e) => e.type === 'heartbeat' && e !== visitor.events[0], 5000);
        expect(visitor.news).toEqual([]);
      } finally {
        visitor.close();
      }
    });
  },
);

describeServer(
  'visitors where the extension is switched off',
  { db: 'sqlite', people: [], config: { webPublicEvents: false } },
  (w) => {
    it('is not announced, and the route refuses', async () => {
      const settings = await (await fetch(`${w.server.url}/api/v1/server_settings`)).json();
      expect(settings.parley_extensions).toEqual(['mail_log']);
      expect(w.server.ctx.visitors).toBeUndefined();
      const off = {
        status: 404,
        body: {
          result: 'error',
          code: 'NOT_FOUND',
          msg: 'Live events for visitors (the web_public_events extension) are turned off on this server',
        },
      };
      expect(await VisitorStream.open(w.server.url)).toMatchObject(off);
      const probe = await fetch(`${w.server.url}/api/v1${VISITOR_STREAM_PATH}`);
      expect({ status: probe.status, body: await probe.json() }).toMatchObject(off);
    });
  },
);
