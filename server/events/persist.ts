import fs from 'node:fs';
import path from 'node:path';
import { QUEUES_FILE } from '../db/data-dir.js';
import type { SavedQueue } from './manager.js';
import type { ClientCapabilities, QueueOptions, QueuedEvent } from './queue.js';

/**
 * Event queues across a graceful restart, as the reference server's Tornado dumps its clients:
 * the stopping process writes its queues to the data directory, the next one takes them back
 * with the same ids and event ids, and each client's next poll goes on where it was instead of
 * every client registering anew at once after a deploy.
 */

/** Where this reports: the server's logger (pino), fields first and the message after. */
export interface QueuesLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** In the data directory, from a graceful stop to the next start, which deletes it. */
export { QUEUES_FILE };
const FORMAT = 1;

/**
 * Whether queues are kept across a restart: only when this process is the only one. With a bus
 * between several processes (REDIS_URL), events published by the others while this one was down
 * would be missing from its queues; their clients register anew instead, as after a crash.
 */
export function queuesSurviveRestarts(config: { redisUrl?: string }): boolean {
  return !config.redisUrl;
}

/** A queue in the file: its options (credentials are never written) and its state. */
interface QueueRecord {
  id: string;
  userId: number;
  realmId: number;
  /** null: every type */
  eventTypes: string[] | null;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  capabilities: ClientCapabilities;
  /** the events not yet acknowledged, with their ids */
  events: QueuedEvent[];
  nextId: number;
  lastAccess: number;
}

interface QueuesFile {
  format: typeof FORMAT;
  processTag: string;
  savedAt: number;
  queues: QueueRecord[];
}

/** Every capability by name: one added to ClientCapabilities must be added here too. */
const CAPABILITIES: Record<keyof ClientCapabilities, true> = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
  linkifier_url_template: true,
  empty_topic_name: true,
};
const CAPABILITY_NAMES = Object.keys(CAPABILITIES) as (keyof ClientCapabilities)[];

/**
 * Writes the queues to `<dataDir>/event-queues.json` for the next start: in a temporary file,
 * synced, then renamed over, so that the next start finds either the whole file or none. A queue
 * with a narrow is left out (its client registers anew): a narrow is held as compiled tests,
 * which cannot be written. Never throws: a failure is logged, and the clients register anew.
 */
export function saveQueues(
  dataDir: string,
  processTag: string,
  queues: SavedQueue[],
  log: QueuesLog,
): void {
  const records = queues.filter((q) => !q.opts.narrow.length).map(toRecord);
  const narrowed = queues.length - records.length;
  if (!records.length) return;
  const file: QueuesFile = { format: FORMAT, processTag, savedAt: Date.now(), queues: records };
  const target = path.join(dataDir, QUEUES_FILE);
  try {
    writeAtomically(target, JSON.stringify(file));
    log.info(
      { queues: records.length, narrowed },
      `Saved ${records.length} event queues for the next start`,
    );
  } catch (err) {
    log.warn(
      { err, file: target },
      'Saving the event queues failed: their clients will register anew',
    );
  }
}

function toRecord({ opts, state }: SavedQueue): QueueRecord {
  return {
    id: state.id,
    userId: opts.userId,
    realmId: opts.realmId,
    eventTypes: opts.eventTypes ? [...opts.eventTypes] : null,
    applyMarkdown: opts.applyMarkdown,
    clientGravatar: opts.clientGravatar,
    allPublicStreams: opts.allPublicStreams,
    capabilities: opts.capabilities,
    events: state.events,
    nextId: state.nextId,
    lastAccess: state.lastAccess,
  };
}

function writeAtomically(file: string, text: string) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    // The events are people's messages: for the server's user only, as the database is.
    const fd = fs.openSync(temp, 'w', 0o600);
    try {
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
  syncDirectory(path.dirname(file));
}

/** Makes the rename durable; where a directory cannot be synced, the rename stands as it is. */
function syncDirectory(dir: string) {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems refuse to sync a directory.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The queues a previous process saved, and the tag their ids carry. */
export interface TakenQueues {
  processTag: string;
  queues: SavedQueue[];
}

/**
 * Reads and deletes the saved queues, so that they are taken back once at most: a crash after
 * this start must not bring them back a second time. Null when there are none, or when the file
 * cannot be read, deleted or understood (logged: the server starts without them).
 */
export function takeSavedQueues(dataDir: string, log: QueuesLog): TakenQueues | null {
  const file = path.join(dataDir, QUEUES_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    log.warn({ err, file }, 'The saved event queues cannot be read: starting without them');
    removeQuietly(file, log);
    return null;
  }
  if (!removeQuietly(file, log)) return null;
  try {
    return parseFile(JSON.parse(text));
  } catch (err) {
    log.warn(
      { file, reason: err instanceof Error ? err.message : String(err) },
      'The saved event queues are unreadable: starting without them',
    );
    return null;
  }
}

function removeQuietly(file: string, log: QueuesLog): boolean {
  try {
    fs.rmSync(file, { force: true });
    return true;
  } catch (err) {
    log.warn(
      { err, file },
      'The saved event queues cannot be deleted: starting without them, lest they come back twice',
    );
    return false;
  }
}

type Json = Record<string, unknown>;

function object(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${what} is not an object`);
  return value as Json;
}

function integer(value: unknown, what: string, min: number): number {
  if (!Number.isSafeInteger(value) || (value as number) < min)
    throw new Error(`${what} is not an integer of at least ${min}`);
  return value as number;
}

function boolean(value: unknown, what: string): boolean {
  if (typeof value !== 'boolean') throw new Error(`${what} is not a boolean`);
  return value;
}

/** Checks everything a queue relies on; any fault discards the whole file. */
function parseFile(value: unknown): TakenQueues {
  const top = object(value, 'the file');
  if (top.format !== FORMAT) throw new Error(`format ${String(top.format)} is not ${FORMAT}`);
  const { processTag } = top;
  if (typeof processTag !== 'string' || !/^[0-9a-f]{1,32}$/.test(processTag))
    throw new Error('processTag is not a tag');
  if (!Array.isArray(top.queues)) throw new Error('queues is not a list');
  return {
    processTag,
    queues: top.queues.map((q, i) => parseQueue(q, `queue ${i}`, processTag)),
  };
}

function parseQueue(value: unknown, what: string, processTag: string): SavedQueue {
  const q = object(value, what);
  if (typeof q.id !== 'string' || !q.id.startsWith(`${processTag}:`))
    throw new Error(`${what}: its id does not carry the tag ${processTag}`);
  const nextId = integer(q.nextId, `${what}: nextId`, 0);
  const lastAccess = q.lastAccess;
  if (typeof lastAccess !== 'number' || !Number.isFinite(lastAccess))
    throw new Error(`${what}: lastAccess is not a time`);
  const opts: QueueOptions = {
    userId: integer(q.userId, `${what}: userId`, 1),
    realmId: integer(q.realmId, `${what}: realmId`, 1),
    eventTypes: parseEventTypes(q.eventTypes, what),
    narrow: [],
    applyMarkdown: boolean(q.applyMarkdown, `${what}: applyMarkdown`),
    clientGravatar: boolean(q.clientGravatar, `${what}: clientGravatar`),
    allPublicStreams: boolean(q.allPublicStreams, `${what}: allPublicStreams`),
    capabilities: parseCapabilities(q.capabilities, what),
  };
  return {
    opts,
    state: { id: q.id, events: parseEvents(q.events, what, nextId), nextId, lastAccess },
  };
}

function parseEventTypes(value: unknown, what: string): Set<string> | null {
  if (value === null) return null;
  if (!Array.isArray(value) || !value.every((t) => typeof t === 'string'))
    throw new Error(`${what}: eventTypes is not a list of names`);
  return new Set(value);
}

/** A capability the file does not name (it came later) is off, as a client that omits it. */
function parseCapabilities(value: unknown, what: string): ClientCapabilities {
  const saved = object(value, `${what}: capabilities`);
  const entries = CAPABILITY_NAMES.map((name) => [
    name,
    saved[name] === undefined ? false : boolean(saved[name], `${what}: ${name}`),
  ]);
  return Object.fromEntries(entries) as ClientCapabilities;
}

/** Events with ids in increasing order, all below the queue's next id. */
function parseEvents(value: unknown, what: string, nextId: number): QueuedEvent[] {
  if (!Array.isArray(value)) throw new Error(`${what}: events is not a list`);
  let previous = -1;
  return value.map((item, i) => {
    const event = object(item, `${what}: event ${i}`);
    const id = integer(event.id, `${what}: event ${i}'s id`, previous + 1);
    if (id >= nextId) throw new Error(`${what}: event ${i}'s id is not below nextId`);
    if (typeof event.type !== 'string') throw new Error(`${what}: event ${i} has no type`);
    previous = id;
    return event as QueuedEvent;
  });
}
