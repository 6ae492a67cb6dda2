import { describe, expect, it } from 'vitest';
import { drain } from './client.js';
import { databases, useServer } from './fixtures.js';

describe.each(databases('both'))(
  'drafts, subscription properties and topic visibility on %s',
  (db) => {
    const w = useServer({ db, people: ['hamlet'] });
    const { hamlet } = w.as;

    it("creates, lists, edits and deletes drafts, telling the user's other clients", async () => {
      const other = await hamlet.post('/register', { event_types: ['drafts'] });
      const created = await hamlet.post('/drafts', {
        drafts: [
          { type: 'stream', to: [w.stream.general], topic: 'plans', content: 'half a thought' },
          {
            type: 'private',
            to: [w.id.othello],
            topic: 'ignored',
            content: 'hi',
            timestamp: 1700000000,
          },
        ],
      });
      expect(created.status).toBe(200);
      expect(created.body.ids).toHaveLength(2);
      const list = await hamlet.get('/drafts');
      const [streamDraft, dmDraft] = list.body.drafts;
      expect(streamDraft).toMatchObject({
        type: 'stream',
        to: [w.stream.general],
        topic: 'plans',
        content: 'half a thought',
      });
      expect(streamDraft.timestamp).toBeGreaterThan(1700000000);
      expect(dmDraft).toMatchObject({ type: 'private', topic: '', timestamp: 1700000000 });
      const edit = await hamlet.patch(`/drafts/${streamDraft.id}`, {
        draft: {
          type: 'stream',
          to: [w.stream.general],
          topic: 'plans',
          content: 'a whole thought',
        },
      });
      expect(edit.status).toBe(200);
      expect((await hamlet.delete(`/drafts/${dmDraft.id}`)).status).toBe(200);
      const events = await drain(hamlet, other.body.queue_id);
      expect(events.map((e) => `${e.type}:${e.op}`)).toEqual([
        'drafts:add',
        'drafts:update',
        'drafts:remove',
      ]);
      expect(events[1].draft.content).toBe('a whole thought');
    });

    it('validates every field of a draft', async () => {
      const bad = async (draft: unknown) =>
        (await hamlet.post('/drafts', { drafts: [draft] })).body;
      expect(
        await bad({
          type: 'stream',
          to: [w.stream.general, w.stream.design],
          topic: 't',
          content: 'c',
        }),
      ).toMatchObject({ code: 'BAD_REQUEST' });
      expect(await bad({ type: 'stream', to: [], topic: 't', content: 'c' })).toMatchObject({
        code: 'BAD_REQUEST',
      });
      expect(await bad({ type: 'dm', to: [], topic: '', content: 'c' })).toMatchObject({
        code: 'BAD_REQUEST',
      });
      expect(await bad({ type: '', to: [], topic: '', content: 'nul\u0000' })).toMatchObject({
        code: 'BAD_REQUEST',
      });
      expect(await bad({ id: 5, type: '', to: [], topic: '', content: 'c' })).toMatchObject({
        code: 'BAD_REQUEST',
      });
      expect(await bad({ type: 'stream', to: [999999], topic: 't', content: 'c' })).toMatchObject({
        code: 'BAD_REQUEST',
      });
      const missing = await hamlet.patch('/drafts/999999', {
        draft: { type: '', to: [], topic: '', content: 'x' },
      });
      expect(missing.body.msg).toBe('Draft does not exist');
    });

    it('updates subscription properties, with two events for muting', async () => {
      const q = await hamlet.post('/register', { event_types: ['subscription'] });
      const r = await hamlet.post('/users/me/subscriptions/properties', {
        subscription_data: [
          { stream_id: w.stream.general, property: 'color', value: '#AABBCC' },
          { stream_id: w.stream.general, property: 'in_home_view', value: false },
          { stream_id: w.stream.general, property: 'pin_to_top', value: true },
        ],
      });
      expect(r.status).toBe(200);
      const events = await drain(hamlet, q.body.queue_id);
      expect(events.map((e) => [e.property, e.value])).toEqual([
        ['color', '#aabbcc'],
        ['in_home_view', false],
        ['is_muted', true],
        ['pin_to_top', true],
      ]);
      const subs = await hamlet.get('/users/me/subscriptions');
      const general = subs.body.subscriptions.find((s: any) => s.stream_id === w.stream.general);
      expect(general).toMatchObject({
        color: '#aabbcc',
        is_muted: true,
        in_home_view: false,
        pin_to_top: true,
      });
    });

    it('refuses bad colors, unknown properties and unsubscribed streams without changing anything', async () => {
      const send = (data: unknown) =>
        hamlet.post('/users/me/subscriptions/properties', { subscription_data: data });
      expect(
        (await send([{ stream_id: w.stream.general, property: 'color', value: 'red' }])).status,
      ).toBe(400);
      expect(
        (await send([{ stream_id: w.stream.general, property: 'volume', value: true }])).status,
      ).toBe(400);
      expect(
        (await send([{ stream_id: w.stream.general, property: 'pin_to_top', value: 'yes' }]))
          .status,
      ).toBe(400);
      expect(
        (await send([{ stream_id: 999999, property: 'pin_to_top', value: true }])).status,
      ).toBe(400);
    });

    it('follows and mutes topics with user_topic events', async () => {
      const q = await hamlet.post('/register', { event_types: ['user_topic'] });
      expect(
        (
          await hamlet.post('/user_topics', {
            stream_id: w.stream.general,
            topic: 'lunch',
            visibility_policy: 1,
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await hamlet.post('/user_topics', {
            stream_id: w.stream.general,
            topic: 'lunch',
            visibility_policy: 3,
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await hamlet.post('/user_topics', {
            stream_id: w.stream.general,
            topic: 'lunch',
            visibility_policy: 7,
          })
        ).status,
      ).toBe(400);
      const events = await drain(hamlet, q.body.queue_id);
      expect(events.map((e) => e.visibility_policy)).toEqual([1, 3]);
      const reg = await hamlet.post('/register', { fetch_event_types: ['user_topic'] });
      expect(reg.body.user_topics).toContainEqual(
        expect.objectContaining({
          stream_id: w.stream.general,
          topic_name: 'lunch',
          visibility_policy: 3,
        }),
      );
    });

    it('register gives clients from before user_topic their muted_topics list (zulip-terminal reads it)', async () => {
      const set = (topic: string, policy: number) =>
        hamlet.post('/user_topics', {
          stream_id: w.stream.general,
          topic,
          visibility_policy: policy,
        });
      expect((await set('muted lunch', 1)).status).toBe(200);
      expect((await set('followed lunch', 3)).status).toBe(200);
      const legacy = await hamlet.post('/register', { fetch_event_types: ['muted_topics'] });
      expect(legacy.status).toBe(200);
      const muted = legacy.body.muted_topics as [string, string, number][];
      // Only muted topics, as [channel name, topic, when muted].
      expect(muted.map(([channel, topic]) => [channel, topic])).toEqual([
        ['general', 'muted lunch'],
      ]);
      expect(muted[0][2]).toBeGreaterThan(1_600_000_000);
      expect(legacy.body.user_topics).toBeUndefined();
      // A client that asks for user_topic by name gets that, and not the old list (upstream).
      const both = await hamlet.post('/register', {
        fetch_event_types: ['muted_topics', 'user_topic'],
      });
      expect(both.body.muted_topics).toBeUndefined();
      expect(both.body.user_topics.length).toBeGreaterThan(0);
      // Asking for everything, as the oldest clients do, includes it.
      expect((await hamlet.post('/register', {})).body.muted_topics).toEqual(muted);
      expect((await set('muted lunch', 0)).status).toBe(200);
    });

    it("clients without notification_settings_null get the person's channel defaults, not null", async () => {
      expect(
        (await hamlet.patch('/settings', { enable_stream_push_notifications: true })).status,
      ).toBe(200);
      await hamlet.post('/users/me/subscriptions/properties', {
        subscription_data: JSON.stringify([
          { stream_id: w.stream.general, property: 'audible_notifications', value: true },
        ]),
      });
      const general = (body: any) =>
        body.subscriptions.find((s: any) => s.stream_id === w.stream.general);
      const old = general(
        (await hamlet.post('/register', { fetch_event_types: ['subscription'] })).body,
      );
      expect(old).toMatchObject({
        desktop_notifications: false,
        push_notifications: true,
        email_notifications: false,
        audible_notifications: true,
      });
      const modern = general(
        (
          await hamlet.post('/register', {
            fetch_event_types: ['subscription'],
            client_capabilities: JSON.stringify({ notification_settings_null: true }),
          })
        ).body,
      );
      expect(modern).toMatchObject({
        desktop_notifications: null,
        push_notifications: null,
        audible_notifications: true,
      });
      await hamlet.patch('/settings', { enable_stream_push_notifications: false });
      await hamlet.post('/users/me/subscriptions/properties', {
        subscription_data: JSON.stringify([
          { stream_id: w.stream.general, property: 'audible_notifications', value: null },
        ]),
      });
    });

    it('queues without user_topic hear every change as the whole muted_topics list again', async () => {
      const queue = async (eventTypes?: string[]) =>
        (await hamlet.post('/register', eventTypes ? { event_types: eventTypes } : {})).body
          .queue_id as string;
      const legacy = await queue(['muted_topics']);
      const modern = await queue(['muted_topics', 'user_topic']);
      const everything = await queue();
      const set = (topic: string, policy: number) =>
        hamlet.post('/user_topics', {
          stream_id: w.stream.general,
          topic,
          visibility_policy: policy,
        });
      await set('quiet one', 1);
      await set('quiet two', 1);
      await set('quiet one', 0);

      const lists = (events: any[]) =>
        events
          .filter((e) => e.type === 'muted_topics')
          .map((e) =>
            e.muted_topics.map(([channel, topic]: [string, string]) => `${channel}>${topic}`),
          );
      const legacyEvents = await drain(hamlet, legacy);
      expect(lists(legacyEvents)).toEqual([
        ['general>quiet one'],
        ['general>quiet one', 'general>quiet two'],
        ['general>quiet two'],
      ]);
      expect(legacyEvents.some((e) => e.type === 'user_topic')).toBe(false);
      // A queue that asked for user_topic too gets only that (upstream's accepts_event).
      const modernEvents = await drain(hamlet, modern);
      expect(lists(modernEvents)).toEqual([]);
      expect(modernEvents.filter((e) => e.type === 'user_topic')).toHaveLength(3);
      // A queue that asked for every type gets both.
      const all = await drain(hamlet, everything);
      expect(lists(all)).toHaveLength(3);
      expect(all.filter((e) => e.type === 'user_topic')).toHaveLength(3);
      await set('quiet two', 0);
    });
  },
);
