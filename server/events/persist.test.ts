import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import type { Realm, User } from '../db/schema.js';
import { QueueManager } from './manager.js';
import {
  QUEUES_FILE,
  queuesSurviveRestarts,
  saveQueues,
  takeSavedQueues,
  type QueuesLog,
} from './persist.js';
import type { ClientCapabilities, QueueOptions } from './queue.js';
import { MemoryBus, untypedEvent, type ApiEvent, type ClientGone } from './types.js';

/** Event queues across a graceful restart: what is written, what comes back, what is refused. */

const IDLE_MS = 600_000;
const caps: ClientCapabilities = {
  notification_settings_null: false,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: true,
  user_settings_object: true,
  linkifier_url_template: false,
  empty_topic_name: true,
};
const options = (userId: number, extra: Partial<QueueOptions> = {}): QueueOptions => ({
  userId,
  realmId: 1,
  eventTypes: null,
  narrow: [],
  applyMarkdown: true,
  clientGravatar: false,
  allPublicStreams: false,
  capabilities: caps,
  ...extra,
});
const RESTART: ApiEvent = { type: 'restart', server_generation: 1234, immediate: false };
const notGone: ClientGone = { watch: () => () => {} };

const renamed = (name: string) =>
  untypedEvent({ type: 'stream', op: 'update', stream_id: 7, property: 'name', value: name });

let dataDir: string;
let managers: QueueManager[];
type LogFn = (fields: object, message: string) => void;
let log: { info: Mock<LogFn>; warn: Mock<LogFn> };
const logger = (): QueuesLog => log;

const manager = (tag?: string) => {
  const m = new QueueManager(new MemoryBus(), IDLE_MS, tag);
  managers.push(m);
  return m;
};
const publish = (m: QueueManager, userIds: number[], name: string) =>
  m.bus.publish([{ realmId: 1, userIds, event: renamed(name) }]);

/** Saves `from`'s queues and takes them back into a new manager, as a restart does. */
const restart = (from: QueueManager, now = Date.now()) => {
  saveQueues(dataDir, from.processTag, from.saved(), logger());
  from.close();
  const taken = takeSavedQueues(dataDir, logger());
  const to = manager(taken?.processTag);
  const restored = taken ? to.restore(taken.queues, RESTART, now) : 0;
  return { to, restored };
};

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-queues-'));
  managers = [];
  log = { info: vi.fn<LogFn>(), warn: vi.fn<LogFn>() };
});
afterEach(() => {
  for (const m of managers) m.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('saving and restoring event queues', () => {
  it('brings queues back with their ids, options, unacknowledged events and event ids', async () => {
    const before = manager();
    const all = before.createQueue(options(1));
    const some = before.createQueue(
      options(2, { eventTypes: new Set(['stream', 'restart']), allPublicStreams: true }),
    );
    const noRestart = before.createQueue(options(3, { eventTypes: new Set(['stream']) }));
    await publish(before, [1, 2, 3], 'one');
    await publish(before, [1, 2, 3], 'two');
    all.acknowledge(0);

    const { to: after, restored } = restart(before);
    expect(restored).toBe(3);
    expect(fs.existsSync(path.join(dataDir, QUEUES_FILE))).toBe(false);
    expect(after.processTag).toBe(before.processTag);
    expect(after.size).toBe(3);

    const back = after.get(all.id, 1)!;
    expect(back.pending().map((e) => [e.id, e.type, e.value])).toEqual([
      [1, 'stream', 'two'],
      [2, 'restart', undefined],
    ]);
    expect(back.pending()[1]).toEqual({ ...RESTART, id: 2 });
    expect(back.opts).toEqual(options(1));

    const backSome = after.get(some.id, 2)!;
    expect(backSome.opts.eventTypes).toEqual(new Set(['stream', 'restart']));
    expect(backSome.opts.allPublicStreams).toBe(true);
    expect(backSome.opts.capabilities).toEqual(caps);
    expect(backSome.pending().map((e) => e.id)).toEqual([0, 1, 2]);

    // Not asked for: no restart event, but the queue is there with its events.
    const backPlain = after.get(noRestart.id, 3)!;
    expect(backPlain.pending().map((e) => e.type)).toEqual(['stream', 'stream']);
    expect(backPlain.lastEventId).toBe(1);

    // Events go on from the next id, and new queues carry the same tag.
    await publish(after, [1], 'three');
    expect(back.pending().at(-1)).toMatchObject({ id: 3, value: 'three' });
    expect(after.createQueue(options(4)).id.startsWith(`${before.processTag}:`)).toBe(true);
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('restored queues that follow every public channel still get those messages', async () => {
    const before = manager();
    const follower = before.createQueue(options(5, { allPublicStreams: true }));
    const { to: after } = restart(before);
    await after.bus.publish([{ realmId: 1, userIds: [1], event: renamed('x'), publicStreamId: 7 }]);
    expect(
      after
        .byId(follower.id)!
        .pending()
        .map((e) => e.type),
    ).toEqual(['restart', 'stream']);
  });

  it('writes no credentials, and leaves out queues with a narrow', async () => {
    const before = manager();
    const queue = before.createQueue(options(1));
    before.rememberCredentials(
      queue.id,
      {
        authorization: 'Basic c2VjcmV0LWhlYWRlcg==',
        host: 'example.com',
        realm: { id: 1 } as Realm,
        user: { id: 1, api_key: 'secret-api-key' } as unknown as User,
      },
      before.revocationCount,
    );
    const narrowed = before.createQueue(options(2, { narrow: [() => true] }));
    saveQueues(dataDir, before.processTag, before.saved(), logger());
    const file = path.join(dataDir, QUEUES_FILE);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toMatch(/secret|c2VjcmV0|example\.com/);
    expect(text).toContain(queue.id);
    expect(text).not.toContain(narrowed.id);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dataDir)).toEqual([QUEUES_FILE]);

    const taken = takeSavedQueues(dataDir, logger())!;
    const after = manager(taken.processTag);
    after.restore(taken.queues, RESTART);
    expect(after.byId(queue.id)!.credentials).toBeNull();
    expect(after.byId(narrowed.id)).toBeUndefined();
  });

  it('writes nothing when there is no queue', () => {
    saveQueues(dataDir, manager().processTag, [], logger());
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('leaves out queues idle for longer than the idle timeout, and collects restored ones', () => {
    const before = manager();
    const stale = before.createQueue(options(1));
    stale.lastAccess = Date.now() - IDLE_MS - 1000;
    const fresh = before.createQueue(options(2));
    const { to: after, restored } = restart(before);
    expect(restored).toBe(1);
    expect(after.byId(stale.id)).toBeUndefined();
    expect(after.byId(fresh.id)).toBeDefined();
    after.collectGarbage(Date.now() + IDLE_MS + 1000);
    expect(after.size).toBe(0);
  });

  it('restores a queue once: the file is deleted when it is read', () => {
    const before = manager();
    before.createQueue(options(1));
    saveQueues(dataDir, before.processTag, before.saved(), logger());
    expect(takeSavedQueues(dataDir, logger())?.queues).toHaveLength(1);
    expect(takeSavedQueues(dataDir, logger())).toBeNull();
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('takes a capability the file does not name as off', async () => {
    const before = manager();
    const queue = before.createQueue(options(1));
    saveQueues(dataDir, before.processTag, before.saved(), logger());
    const file = path.join(dataDir, QUEUES_FILE);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    delete saved.queues[0].capabilities.empty_topic_name;
    fs.writeFileSync(file, JSON.stringify(saved));
    const taken = takeSavedQueues(dataDir, logger())!;
    expect(taken.queues[0].state.id).toBe(queue.id);
    expect(taken.queues[0].opts.capabilities).toEqual({ ...caps, empty_topic_name: false });
  });

  it('a failed save is logged, not thrown', () => {
    const before = manager();
    before.createQueue(options(1));
    const missing = path.join(dataDir, 'not-there');
    expect(() => saveQueues(missing, before.processTag, before.saved(), logger())).not.toThrow();
    expect(log.warn).toHaveBeenCalledOnce();
  });
});

describe('a saved file that cannot be used', () => {
  const file = () => path.join(dataDir, QUEUES_FILE);
  const valid = () => {
    const before = manager();
    before.createQueue(options(1));
    before.createQueue(options(2));
    saveQueues(dataDir, before.processTag, before.saved(), logger());
    return JSON.parse(fs.readFileSync(file(), 'utf8'));
  };

  it('is no file at all: nothing is restored, and nothing is said', () => {
    expect(takeSavedQueues(dataDir, logger())).toBeNull();
    expect(log.warn).not.toHaveBeenCalled();
  });

  it.each([
    ['not JSON', () => '{"format":1,"processTag":"ab'],
    ['another format', () => JSON.stringify({ ...valid(), format: 2 })],
    [
      'a queue id of another process',
      () => {
        const saved = valid();
        saved.queues[1].id = `ffffff:${saved.queues[1].id.split(':')[1]}`;
        saved.processTag = 'abcdef';
        return JSON.stringify(saved);
      },
    ],
    [
      'events out of order',
      () => {
        const saved = valid();
        saved.queues[0].nextId = 5;
        saved.queues[0].events = [
          { id: 3, type: 'stream' },
          { id: 2, type: 'stream' },
        ];
        return JSON.stringify(saved);
      },
    ],
    [
      'an event id at or past the next one',
      () => {
        const saved = valid();
        saved.queues[0].events = [{ id: 0, type: 'stream' }];
        return JSON.stringify(saved);
      },
    ],
    [
      'event types that are not names',
      () => {
        const saved = valid();
        saved.queues[0].eventTypes = [1];
        return JSON.stringify(saved);
      },
    ],
  ])('is %s: nothing is restored, a warning is logged and the file is deleted', (_, text) => {
    fs.writeFileSync(file(), text());
    log.warn.mockClear();
    expect(takeSavedQueues(dataDir, logger())).toBeNull();
    expect(log.warn).toHaveBeenCalledOnce();
    expect(fs.existsSync(file())).toBe(false);
  });

  it('cannot be read: a warning, and no queue', () => {
    fs.mkdirSync(file());
    expect(takeSavedQueues(dataDir, logger())).toBeNull();
    expect(log.warn).toHaveBeenCalled();
  });
});

describe('when queues are kept', () => {
  it('only with one process: a bus between several (REDIS_URL) loses events meanwhile', () => {
    expect(queuesSurviveRestarts({})).toBe(true);
    expect(queuesSurviveRestarts({ redisUrl: undefined })).toBe(true);
    expect(queuesSurviveRestarts({ redisUrl: 'redis://127.0.0.1:6379' })).toBe(false);
  });
});

describe('stopping without losing the queues', () => {
  it('answers parked and later long-polls at once, and still takes events', async () => {
    const m = manager();
    const queue = m.createQueue(options(1));
    const parked = queue.wait(60_000, notGone);
    expect(queue.isWaiting).toBe(true);
    m.stopWaiting();
    await expect(parked).resolves.toEqual([]);
    await expect(queue.wait(60_000, notGone)).resolves.toEqual([]);
    const late = m.createQueue(options(2));
    await expect(late.wait(60_000, notGone)).resolves.toEqual([]);
    await publish(m, [1, 2], 'after');
    expect(queue.pending().map((e) => e.value)).toEqual(['after']);
    expect(m.size).toBe(2);
  });
});
