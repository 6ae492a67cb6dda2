/**
 * The steps of the central test (central.test.ts): register as the web client does, act, apply
 * what each queue received with the client's own reducers (src/model), and compare with a fresh
 * register.
 *
 * An action that fails, or succeeds without doing anything, leaves the state equal to a fresh
 * register too; so the action must answer 200 and each viewer must receive the event types the
 * case names (`npm run mutation` makes each action throw in turn to prove the cases notice).
 */
import { expect } from 'vitest';
import { parseEvent } from '../../src/api/parse-event.js';
import type { RegisterResponse } from '../../src/api/model/index.js';
import { REGISTER_OPTIONS } from '../../src/model/poller.js';
import {
  accountStateFromSnapshot,
  reduceAccountEvent,
  type AccountState,
} from '../../src/model/account-state.js';
import type { TestClient } from './client.js';

/** An answer to an action: an API result, or a server-rendered page's status and text. */
export type Reply = { status: number; body: unknown };
/**
 * A viewer and the event types their queue must receive, each at least once; an empty list
 * means nothing at all (the action is not theirs to hear of).
 */
export type Watch = [viewer: TestClient, expected: string[]];

/** Performs a request that must succeed, so that a case never passes by doing nothing. */
export async function ok<T extends { status: number; body: any }>(
  request: Promise<T>,
): Promise<T['body']> {
  const r = await request;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

export const typesOf = (events: unknown[]) => (events as { type: string }[]).map((e) => e.type);

export async function register(client: TestClient) {
  return (await ok(client.post('/register', REGISTER_OPTIONS))) as RegisterResponse & {
    queue_id: string;
  };
}

/** The parts of the live state a fresh register must reproduce (queue identity and typing aside). */
function comparable(state: AccountState) {
  const { queueId: _queueId, typing: _typing, ...rest } = state;
  return JSON.parse(JSON.stringify(rest));
}

/** The event kinds (`type`, or `type/op`) that the cases of this file have applied. */
export const appliedKinds = new Set<string>();

export const kindOf = (event: { type: string; op?: unknown }) =>
  typeof event.op === 'string' ? `${event.type}/${event.op}` : event.type;

/**
 * Applies the events to the state built from `snapshot` (every event must parse) and compares
 * the result with the state built from a new register.
 */
export async function expectEventsRebuildRegister(
  client: TestClient,
  snapshot: RegisterResponse,
  events: unknown[],
) {
  let state = accountStateFromSnapshot(snapshot);
  for (const raw of events) {
    const parsed = parseEvent(raw);
    expect(parsed.type, JSON.stringify(raw).slice(0, 200)).not.toBe('unexpected');
    state = reduceAccountEvent(state, parsed, Date.now());
    appliedKinds.add(kindOf(raw as { type: string; op?: unknown }));
  }
  const fresh = accountStateFromSnapshot(await register(client));
  expect(comparable(state), `as seen by ${client.email}`).toEqual(comparable(fresh));
}

/**
 * Registers each viewer, acts (the action must succeed), checks that each queue received the
 * expected event types, applies them (every event must parse), and compares each viewer's state
 * with a new snapshot. Returns the events of each viewer.
 */
export async function checkActionFor(
  watches: Watch[],
  act: () => Promise<Reply>,
): Promise<unknown[][]> {
  const snapshots = [];
  for (const [client] of watches) snapshots.push(await register(client));
  const reply = await act();
  expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200);
  const received: unknown[][] = [];
  for (const [i, [client, expected]] of watches.entries()) {
    const queue = { queue_id: snapshots[i].queue_id, last_event_id: -1, dont_block: true };
    const events = (await ok(client.get('/events', queue))).events as unknown[];
    const types = typesOf(events);
    if (expected.length)
      expect(types, `events for ${client.email}`).toEqual(expect.arrayContaining(expected));
    else expect(types, `events for ${client.email}`).toEqual([]);
    await expectEventsRebuildRegister(client, snapshots[i], events);
    received.push(events);
  }
  return received;
}

/** The same for one viewer. */
export async function checkAction(
  client: TestClient,
  expected: string[],
  act: () => Promise<Reply>,
) {
  return (await checkActionFor([[client, expected]], act))[0];
}
