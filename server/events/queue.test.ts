import { afterEach, describe, expect, it } from 'vitest';
import { QueueManager } from './manager.js';
import { eventsJson, type ClientCapabilities, type QueueOptions } from './queue.js';
import { MemoryBus, queueControl, untypedEvent, type EventDelivery as Delivery } from './types.js';
import type { Realm, User } from '../db/schema.js';

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
    const sender = manager.createQueue(options(1));
    const others = [2, 3, 4].map((id) => manager.createQueue(options(id)));
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
    const a = manager.createQueue(options(2));
    const b = manager.createQueue(options(4));
    const raw = manager.createQueue(options(4, { applyMarkdown: false, clientGravatar: false }));
    const mentioned = manager.createQueue(options(3));
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
    const early = manager.createQueue(options(2));
    early.push({ type: 'heartbeat' });
    const late = manager.createQueue(options(4));
    await bus.publish([delivery()]);
    expect(JSON.parse(eventsJson(early.pending()).json).map((e: { id: number }) => e.id)).toEqual([
      0, 1,
    ]);
    expect(JSON.parse(eventsJson(late.pending()).json)[0]).toMatchObject({ id: 0, flags: [] });
  });

  it('filters by each queue its narrow, and gives all-public-channel queues a read copy', async () => {
    const bus = setup();
    const elsewhere = manager.createQueue(
      options(2, { narrow: [(m) => m.streamId === 99] as QueueOptions['narrow'] }),
    );
    const follower = manager.createQueue(options(50, { allPublicStreams: true }));
    const other = manager.createQueue(options(51, { allPublicStreams: true }));
    await bus.publish([delivery({ publicStreamId: 7 })]);
    expect(elsewhere.pending()).toEqual([]);
    expect(follower.pending()[0].flags).toEqual(['read']);
    expect(follower.pending()[0].message).toBe(other.pending()[0].message);
  });
});

describe('credentials a queue vouches for', () => {
  let manager: QueueManager;
  afterEach(() => manager?.close());

  const realm = { id: 1 } as Realm;
  const user = (id: number) => ({ id }) as User;
  const creds = (id: number, authorization = `Basic key-of-${id}`) => ({
    authorization,
    host: 'chat.example.com',
    realm,
    user: user(id),
  });

  it('vouches only for the very headers it verified, on its own queue', () => {
    manager = new QueueManager(new MemoryBus(), 600_000);
    const q = manager.createQueue(options(1));
    expect(manager.authenticateByQueue(q.id, 'Basic key-of-1', 'chat.example.com')).toBeNull();
    manager.rememberCredentials(q.id, creds(1), manager.revocationCount);
    expect(manager.authenticateByQueue(q.id, 'Basic key-of-1', 'chat.example.com')?.user.id).toBe(
      1,
    );
    expect(manager.authenticateByQueue(q.id, 'Basic key-of-1x', 'chat.example.com')).toBeNull();
    expect(manager.authenticateByQueue(q.id, 'Basic key-of-1', 'other.example.com')).toBeNull();
    expect(manager.authenticateByQueue('nope', 'Basic key-of-1', 'chat.example.com')).toBeNull();
    // Someone else's good credentials are never remembered on this queue.
    const other = manager.createQueue(options(2));
    manager.rememberCredentials(other.id, creds(1), manager.revocationCount);
    expect(other.credentials).toBeNull();
  });

  it('forgets them on a control from the bus, and never keeps ones read before it', async () => {
    const bus = new MemoryBus();
    manager = new QueueManager(bus, 600_000);
    const q = manager.createQueue(options(1));
    const elsewhere = manager.createQueue(options(1, { realmId: 2 }));
    manager.rememberCredentials(q.id, creds(1), manager.revocationCount);
    const before = manager.revocationCount;
    await bus.publish([queueControl(1, [1], 'reauthenticate')]);
    expect(q.credentials).toBeNull();
    // A poll that read the database before the control arrived must not restore what it read.
    manager.rememberCredentials(q.id, creds(1), before);
    expect(q.credentials).toBeNull();
    manager.rememberCredentials(q.id, creds(1), manager.revocationCount);
    expect(q.credentials).not.toBeNull();

    await bus.publish([queueControl(1, [1], 'drop')]);
    expect(manager.byId(q.id)).toBeUndefined();
    // A control names one organization's users.
    expect(manager.byId(elsewhere.id)).toBe(elsewhere);
  });

  it('drops only the all_public_streams queues of someone who became a guest', async () => {
    const bus = new MemoryBus();
    manager = new QueueManager(bus, 600_000);
    const plain = manager.createQueue(options(1));
    const following = manager.createQueue(options(1, { allPublicStreams: true }));
    await bus.publish([queueControl(1, [1], 'drop-all-public-streams')]);
    expect(manager.byId(plain.id)).toBe(plain);
    expect(manager.byId(following.id)).toBeUndefined();
  });
});
