import { afterEach, describe, expect, it } from 'vitest';
import { QueueManager } from './manager.js';
import { eventsJson, type ClientCapabilities, type QueueOptions } from './queue.js';
import { MemoryBus, untypedEvent, type Delivery } from './types.js';

/** Delivery to many queues: each event is adapted and serialized once per shape, not per queue. */

const caps: ClientCapabilities = {
  notification_settings_null: false,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: true,
  user_settings_object: true,
  linkifier_url_template: true,
  empty_topic_name: false,
};

const options = (userId: number, extra: Partial<QueueOptions> = {}): QueueOptions => ({
  userId,
  realmId: 1,
  eventTypes: null,
  narrow: [],
  applyMarkdown: true,
  clientGravatar: true,
  allPublicStreams: false,
  capabilities: caps,
  ...extra,
});

const message = {
  id: 500,
  type: 'stream',
  stream_id: 7,
  display_recipient: 'general',
  subject: 'lunch',
  sender_id: 1,
  rendered_content: '<p>hi <strong>all</strong></p>',
  raw_content: 'hi **all**',
  avatar_url: null,
  avatar_url_fallback: 'https://example.com/a.png',
};

const delivery = (extra: Partial<Delivery> = {}): Delivery => ({
  realmId: 1,
  userIds: [1, 2, 3, 4],
  event: untypedEvent({ type: 'message', message }),
  perUser: {
    1: { flags: ['read'] },
    2: { flags: [] },
    3: { flags: ['mentioned'] },
    4: { flags: [] },
  },
  ...extra,
});

describe('delivering one event to many queues', () => {
  let manager: QueueManager;
  afterEach(() => manager?.close());

  const setup = () => {
    const bus = new MemoryBus();
    manager = new QueueManager(bus, 600_000);
    return bus;
  };

  it("gives each queue its own user's flags, and the sender's queue its local_id", async () => {
    const bus = setup();
    const sender = manager.create(options(1));
    const others = [2, 3, 4].map((id) => manager.create(options(id)));
    await bus.publish([delivery({ echo: { queueId: sender.id, localId: '9.01' } })]);
    const got = [sender, ...others].map((q) => q.pending()[0]);
    expect(got.map((e) => e.flags)).toEqual([['read'], [], ['mentioned'], []]);
    expect(got.map((e) => e.local_id)).toEqual(['9.01', undefined, undefined, undefined]);
    for (const e of got) {
      expect((e.message as Record<string, unknown>).content).toBe(message.rendered_content);
      expect(e.message).not.toHaveProperty('raw_content');
    }
    // The answers read back as the events each queue holds.
    for (const q of [sender, ...others])
      expect(JSON.parse(eventsJson(q.pending()).json)).toEqual(q.pending());
  });

  it('shares one adapted event between queues whose options and flags agree', async () => {
    const bus = setup();
    const a = manager.create(options(2));
    const b = manager.create(options(4));
    const raw = manager.create(options(4, { applyMarkdown: false, clientGravatar: false }));
    const mentioned = manager.create(options(3));
    await bus.publish([delivery()]);
    const [ea, eb, er, em] = [a, b, raw, mentioned].map((q) => q.pending()[0]);
    // Same options, same flags: one message object, whatever the number of queues.
    expect(ea.message).toBe(eb.message);
    expect(er.message).not.toBe(ea.message);
    expect(em.message).not.toBe(ea.message);
    expect((er.message as Record<string, unknown>).content).toBe(message.raw_content);
    expect((er.message as Record<string, unknown>).avatar_url).toBe(message.avatar_url_fallback);
    expect(em.flags).toEqual(['mentioned']);
    // Bytes shared too: the two answers differ by nothing but what each queue numbers.
    expect(eventsJson(a.pending()).json).toBe(eventsJson(b.pending()).json);
    expect(eventsJson(raw.pending()).json).not.toBe(eventsJson(a.pending()).json);
  });

  it('numbers shared events per queue', async () => {
    const bus = setup();
    const early = manager.create(options(2));
    early.push({ type: 'heartbeat' });
    const late = manager.create(options(4));
    await bus.publish([delivery()]);
    expect(JSON.parse(eventsJson(early.pending()).json).map((e: { id: number }) => e.id)).toEqual([
      0, 1,
    ]);
    expect(JSON.parse(eventsJson(late.pending()).json)[0]).toMatchObject({ id: 0, flags: [] });
  });

  it('filters by each queue its narrow, and gives all-public-channel queues a read copy', async () => {
    const bus = setup();
    const elsewhere = manager.create(
      options(2, { narrow: [(m) => m.streamId === 99] as QueueOptions['narrow'] }),
    );
    const follower = manager.create(options(50, { allPublicStreams: true }));
    const other = manager.create(options(51, { allPublicStreams: true }));
    await bus.publish([delivery({ publicStreamId: 7 })]);
    expect(elsewhere.pending()).toEqual([]);
    expect(follower.pending()[0].flags).toEqual(['read']);
    expect(follower.pending()[0].message).toBe(other.pending()[0].message);
  });
});
