import { beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';

describe.each(databases('both'))('server core on %s', (db) => {
  const w = useServer({ db, people: ['iago', 'hamlet', 'othello'] });
  const { hamlet, othello, iago } = w.as;
  let anon: TestClient;

  beforeAll(async () => {
    anon = new TestClient(w.server.url);
  });

  describe('authentication', () => {
    it('gives a 32-character API key for the right password only', async () => {
      expect(hamlet.apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
      const wrong = await anon.post('/fetch_api_key', {
        username: 'hamlet@example.com',
        password: 'nope',
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ result: 'error', code: 'AUTHENTICATION_FAILED' });
    });

    it('refuses a wrong key with INVALID_API_KEY and a missing one with 401', async () => {
      const bad = new TestClient(w.server.url, 'hamlet@example.com', 'x'.repeat(32));
      const r = await bad.get('/users/me');
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('INVALID_API_KEY');
      const none = await anon.get('/users/me');
      expect(none.status).toBe(401);
      expect(none.body.result).toBe('error');
    });

    it('serves server_settings without auth', async () => {
      const r = await anon.get('/server_settings');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        result: 'success',
        realm_name: 'Parley Demo',
        email_auth_enabled: true,
      });
      expect(typeof r.body.service_feature_level).toBe('number');
      for (const key of [
        'password',
        'dev',
        'email',
        'ldap',
        'remoteuser',
        'saml',
        'openid connect',
      ])
        expect(r.body.authentication_methods).toHaveProperty(key);
    });
  });

  describe('request conventions', () => {
    it('names a missing parameter', async () => {
      const r = await hamlet.post('/messages', { type: 'stream', to: 'general', topic: 'x' });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' });
    });

    it('reports broken JSON in a list parameter as BAD_REQUEST naming it', async () => {
      const r = await hamlet.post('/users/me/subscriptions', { subscriptions: '[{"name": ' });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('BAD_REQUEST');
      expect(r.body.msg).toContain('subscriptions');
    });

    it('lists unknown parameters in ignored_parameters_unsupported', async () => {
      const r = await hamlet.get('/users/me', { frobnicate: 'yes' });
      expect(r.status).toBe(200);
      expect(r.body.ignored_parameters_unsupported).toEqual(['frobnicate']);
    });

    it('accepts multipart bodies as official bindings send them', async () => {
      const form = new FormData();
      form.set('type', 'stream');
      form.set('to', 'general');
      form.set('topic', 'multipart');
      form.set('content', 'sent as multipart/form-data');
      const res = await fetch(`${w.server.url}/api/v1/messages`, {
        method: 'POST',
        headers: {
          Authorization:
            'Basic ' + Buffer.from(`${hamlet.email}:${hamlet.apiKey}`).toString('base64'),
        },
        body: form,
      });
      const body: any = await res.json();
      expect(res.status).toBe(200);
      expect(body.id).toBeGreaterThan(0);
    });

    it('answers unknown paths, wrong methods and huge bodies in the envelope', async () => {
      const missing = await hamlet.get('/no/such/endpoint');
      expect(missing.status).toBe(404);
      expect(missing.body.result).toBe('error');
      const wrongMethod = await hamlet.request('PUT', '/messages');
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.body.result).toBe('error');
      const huge = await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 't',
        content: 'x'.repeat(26 * 1024 * 1024),
      });
      expect(huge.status).toBe(413);
      expect(huge.body.result).toBe('error');
    });

    it('accepts the legacy subject and private aliases', async () => {
      const r = await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        subject: 'legacy',
        content: 'old style',
      });
      expect(r.status).toBe(200);
      const m = await hamlet.get(`/messages/${r.body.id}`);
      expect(m.body.message.subject).toBe('legacy');
      const dm = await hamlet.post('/messages', {
        type: 'private',
        to: ['othello@example.com'],
        content: 'hi',
      });
      expect(dm.status).toBe(200);
    });
  });

  describe('messages', () => {
    it('sends to a stream by name and by id and fetches them back', async () => {
      const streams = await hamlet.get('/streams');
      const general = streams.body.streams.find((s: any) => s.name === 'general');
      const a = await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'core test',
        content: 'by name **bold**',
      });
      const b = await hamlet.post('/messages', {
        type: 'stream',
        to: general.stream_id,
        topic: 'core test',
        content: 'by id',
      });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      const r = await othello.get('/messages', {
        anchor: 'newest',
        num_before: 10,
        num_after: 0,
        narrow: [
          { operator: 'channel', operand: general.stream_id },
          { operator: 'topic', operand: 'core test' },
        ],
      });
      expect(r.status).toBe(200);
      const contents = r.body.messages.map((m: any) => m.content);
      expect(contents).toContain('<p>by name <strong>bold</strong></p>');
      expect(r.body.found_newest).toBe(true);
      const mine = r.body.messages.find((m: any) => m.id === b.body.id);
      expect(mine.flags).not.toContain('read');
    });

    it('answers STREAM_DOES_NOT_EXIST with the stream name', async () => {
      const r = await hamlet.post('/messages', {
        type: 'stream',
        to: 'nowhere',
        topic: 't',
        content: 'x',
      });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'nowhere' });
    });

    it('requires a topic for stream messages', async () => {
      const r = await hamlet.post('/messages', { type: 'stream', to: 'general', content: 'x' });
      expect(r.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'topic' });
    });

    it('refuses an invalid direct-message recipient', async () => {
      const r = await hamlet.post('/messages', { type: 'direct', to: [999999], content: 'x' });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('BAD_REQUEST');
    });

    it('hides a private stream from non-subscribers as if it did not exist', async () => {
      // Sending is the exception, as upstream: the channel is named in the refusal.
      const r = await othello.post('/messages', {
        type: 'stream',
        to: 'design',
        topic: 't',
        content: 'x',
      });
      expect(r.body).toMatchObject({
        code: 'BAD_REQUEST',
        msg: "Not authorized to send to channel 'design'",
      });
      const design = await hamlet.get('/get_stream_id', { stream: 'design' });
      const byId = await othello.get(`/streams/${design.body.stream_id}`);
      const unknown = await othello.get('/streams/999999');
      expect(byId.status).toBe(unknown.status);
      expect(byId.body.code).toBe(unknown.body.code);
    });

    it('only lets administrators post in announce', async () => {
      const r = await hamlet.post('/messages', {
        type: 'stream',
        to: 'announce',
        topic: 't',
        content: 'x',
      });
      expect(r.status).toBe(400);
      const ok = await iago.post('/messages', {
        type: 'stream',
        to: 'announce',
        topic: 't',
        content: 'x',
      });
      expect(ok.status).toBe(200);
    });

    it('sets mentioned for @**Full Name** and renders no raw HTML', async () => {
      const r = await othello.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'mentions',
        content: '@**King Hamlet** look <script>alert(1)</script>',
      });
      const m = await hamlet.get(`/messages/${r.body.id}`);
      expect(m.body.message.flags).toContain('mentioned');
      expect(m.body.message.content).not.toContain('<script>');
      expect(m.body.message.content).toContain('&lt;script&gt;');
    });

    it('marks messages read through flags', async () => {
      const r = await othello.post('/messages', {
        type: 'direct',
        to: [Number((await hamlet.get('/users/me')).body.user_id)],
        content: 'read me',
      });
      const f = await hamlet.post('/messages/flags', {
        messages: [r.body.id],
        op: 'add',
        flag: 'read',
      });
      expect(f.body.messages).toEqual([r.body.id]);
      const m = await hamlet.get(`/messages/${r.body.id}`);
      expect(m.body.message.flags).toContain('read');
      const bad = await hamlet.post('/messages/flags', {
        messages: [r.body.id],
        op: 'add',
        flag: 'mentioned',
      });
      expect(bad.status).toBe(400);
    });
  });

  describe('events', () => {
    it('delivers a message to another client long-poll, with local_id only to the sender queue', async () => {
      const mine = await hamlet.post('/register', { event_types: ['message'] });
      const theirs = await othello.post('/register', { event_types: ['message'] });
      expect(theirs.body.queue_id).toBeTruthy();
      const poll = othello.get('/events', {
        queue_id: theirs.body.queue_id,
        last_event_id: theirs.body.last_event_id,
      });
      await new Promise((r) => setTimeout(r, 50));
      const sent = await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'live',
        content: 'hello live',
        queue_id: mine.body.queue_id,
        local_id: 'abc',
      });
      const got = await poll;
      const event = got.body.events.find((e: any) => e.type === 'message');
      expect(event.message.id).toBe(sent.body.id);
      expect(event.local_id).toBeUndefined();
      const own = await hamlet.get('/events', {
        queue_id: mine.body.queue_id,
        last_event_id: -1,
        dont_block: true,
      });
      const ownEvent = own.body.events.find((e: any) => e.type === 'message');
      expect(ownEvent.local_id).toBe('abc');
    });

    it('answers BAD_EVENT_QUEUE_ID for unknown and deleted queues', async () => {
      const r = await hamlet.get('/events', { queue_id: 'nope', last_event_id: -1 });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('BAD_EVENT_QUEUE_ID');
      const q = await hamlet.post('/register', {});
      await hamlet.delete('/events', { queue_id: q.body.queue_id });
      const after = await hamlet.get('/events', { queue_id: q.body.queue_id, last_event_id: -1 });
      expect(after.body.code).toBe('BAD_EVENT_QUEUE_ID');
    });

    it('registers with the unread summary in the spec shape', async () => {
      const r = await hamlet.post('/register', {
        fetch_event_types: ['message', 'update_message_flags', 'realm', 'subscription'],
      });
      expect(r.status).toBe(200);
      expect(r.body.unread_msgs).toMatchObject({ old_unreads_missing: false });
      for (const key of ['pms', 'streams', 'huddles', 'mentions', 'count'])
        expect(r.body.unread_msgs).toHaveProperty(key);
      expect(r.body.max_message_length).toBe(10000);
      expect(r.body.max_topic_length).toBe(60);
      expect(r.body.service_feature_level).toBeGreaterThan(200);
    });
  });

  describe('durability', () => {
    it('keeps acknowledged messages across a restart and forgets queues', async () => {
      const sent = await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'durable',
        content: 'still here',
      });
      const q = await hamlet.post('/register', {});
      await w.restart();
      const again = new TestClient(w.server.url, hamlet.email, hamlet.apiKey);
      const m = await again.get(`/messages/${sent.body.id}`);
      expect(m.body.message.content).toBe('<p>still here</p>');
      const stale = await again.get('/events', { queue_id: q.body.queue_id, last_event_id: -1 });
      expect(stale.body.code).toBe('BAD_EVENT_QUEUE_ID');
      anon = new TestClient(w.server.url);
    });
  });
});
