import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RegisterResponse } from '../api/model';
import { streamNarrow } from '../narrow';
import { firstPageParam, messageKeys, type MessageListData } from '../queries/messages';
import { createAccountSession } from '../queries/session-caches';
import { eg } from '../test/eg';
import { fakeSession } from '../test/fake-session';
import { createStore, get } from 'idb-keyval';
import { accountStateFromSnapshot } from './account-state';
import { offlineCacheFor } from './offline-cache';
import type { PollerApi } from './poller';
import { outboxSenderFor, sendFromCompose } from './outbox-sender';

const destination = { type: 'stream' as const, streamId: 5, topic: 'lunch' };

describe('OutboxSender', () => {
  it('sends waiting messages one at a time in order, and only while connected', async () => {
    const { fake, session } = fakeSession();
    const sender = outboxSenderFor(session)!;
    session.state.setState({ status: 'reconnecting' });
    sendFromCompose(session, destination, 'first');
    sendFromCompose(session, destination, 'second');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.requests).toHaveLength(0);
    expect(session.outbox.getState().messages.map((m) => m.status)).toEqual(['waiting', 'waiting']);

    let answer!: () => void;
    fake
      .respondWith(
        () =>
          new Promise((resolve) => {
            answer = () => resolve(Response.json({ result: 'success', msg: '', id: 11 }));
          }),
      )
      .respond({ id: 12 });
    session.state.setState({ status: 'connected' });
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    // The second waits for the first's answer.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].body.get('content')).toBe('first');
    answer();
    await vi.waitFor(() =>
      expect(session.outbox.getState().messages.map((m) => m.messageId)).toEqual([11, 12]),
    );
    expect(fake.requests[1].body.get('content')).toBe('second');
    sender.stop();
  });

  it('after a request without an answer, looks on the server before sending again', async () => {
    const { fake, session } = fakeSession();
    const sender = outboxSenderFor(session)!;
    fake.failNetwork();
    sendFromCompose(session, destination, 'did it arrive?');
    await vi.waitFor(() =>
      expect(session.outbox.getState().messages[0]).toMatchObject({
        status: 'waiting',
        mayHaveArrived: true,
      }),
    );
    // The server had taken it: found among this person's latest messages there, not sent again.
    const [entry] = session.outbox.getState().messages;
    fake.respond({
      messages: [
        eg.streamMessage({ id: 70, content: 'did it arrive?', timestamp: entry.timestamp - 3600 }),
        eg.streamMessage({ id: 77, content: 'did it arrive?', timestamp: entry.timestamp }),
      ],
      found_newest: true,
      found_oldest: true,
      anchor: 77,
    });
    session.state.setState({ status: 'reconnecting' });
    session.state.setState({ status: 'connected' });
    await vi.waitFor(() => expect(session.outbox.getState().messages).toEqual([]));
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v1/messages',
      'GET /api/v1/messages',
    ]);
    const narrow = JSON.parse(fake.last.query.get('narrow')!) as { operator: string }[];
    expect(narrow.map((t) => t.operator)).toEqual(['channel', 'topic', 'sender']);
    sender.stop();
  });

  it('sends again when the server does not have it; a refusal fails only that message', async () => {
    const { fake, session } = fakeSession();
    const sender = outboxSenderFor(session)!;
    session.state.setState({ status: 'reconnecting' });
    sendFromCompose(session, destination, 'lost');
    sendFromCompose(session, { type: 'stream', streamId: 99, topic: 'x' }, 'refused');
    sendFromCompose(session, destination, 'third');
    session.outbox.getState().requestInterrupted(session.outbox.getState().messages[0].localId);
    fake
      .respond({ messages: [], found_newest: true, found_oldest: true, anchor: 0 })
      .respond({ id: 31 })
      .respondError('STREAM_DOES_NOT_EXIST', "Channel with ID '99' does not exist")
      .respond({ id: 33 });
    session.state.setState({ status: 'connected' });
    await vi.waitFor(() =>
      expect(session.outbox.getState().messages.map((m) => m.status)).toEqual([
        'sent',
        'failed',
        'sent',
      ]),
    );
    expect(
      fake.requests.filter((r) => r.method === 'POST').map((r) => r.body.get('content')),
    ).toEqual(['lost', 'refused', 'third']);
    sender.stop();
  });
});

/** Registers when `online()` says so, failing as a network would otherwise; events never come. */
function serverApi(register: () => RegisterResponse, online: () => boolean): PollerApi {
  return {
    register: async () => {
      if (!online()) throw new TypeError('Failed to fetch');
      return register();
    },
    getEvents: (_queue, _last, signal) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('stopped'))),
      ),
  };
}

const narrow = streamNarrow(5);
const page = (ids: number[]): MessageListData => ({
  pages: [
    {
      messages: ids.map((id) => eg.streamMessage({ id, stream_id: 5 })),
      foundOldest: true,
      foundNewest: true,
      anchor: ids[0] ?? 0,
    },
  ],
  pageParams: [firstPageParam],
});

describe('offlineCacheFor', () => {
  it('writes only the parts of the state that changed since the last save', async () => {
    const account = `test-${Math.random()}`;
    const cache = offlineCacheFor(account);
    const state = accountStateFromSnapshot(eg.registerResponse());
    await cache.saveState(state);
    const db = createStore('parley', 'accounts');
    const savedAt = async (part: string) =>
      (await get<{ savedAt: number }>(`${account}\u0000state\u0000${part}`, db))!.savedAt;
    const before = { users: await savedAt('users'), presence: await savedAt('presence') };
    await new Promise((resolve) => setTimeout(resolve, 5));
    await cache.saveState({ ...state, presence: { ...state.presence } });
    expect(await savedAt('users')).toBe(before.users);
    expect(await savedAt('presence')).toBeGreaterThan(before.presence);
    // A new page reads the whole state back.
    expect(await offlineCacheFor(account).loadState()).toEqual(state);
  });
});

describe('the kept account (OfflineKeeper)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts from the kept state and pages without the server, then takes the server’s', async () => {
    const account = `test-${Math.random()}`;
    let online = true;
    const first = createAccountSession('me@example.com', 'key', new QueryClient(), {
      pollerApi: serverApi(
        () => eg.registerResponse({ queue_id: 'q1', realm_name: 'Kept' }),
        () => online,
      ),
      storage: null,
      offlineCache: offlineCacheFor(account),
    });
    first.start();
    await vi.waitFor(() => expect(first.state.getState().status).toBe('connected'));
    first.queryClient.setQueryData(messageKeys.list(narrow), page([1, 2]));
    first.keepNow();
    await vi.waitFor(async () =>
      expect(await offlineCacheFor(account).loadState()).toMatchObject({
        realm: { settings: { name: 'Kept' } },
        queueId: null,
      }),
    );
    first.stop();

    // The next visit, without the server: the kept state and pages, marked as such.
    online = false;
    const queryClient = new QueryClient();
    const second = createAccountSession('me@example.com', 'key', queryClient, {
      pollerApi: serverApi(
        () => eg.registerResponse({ queue_id: 'q2', realm_name: 'Fresh' }),
        () => online,
      ),
      storage: null,
      offlineCache: offlineCacheFor(account),
    });
    second.start();
    await vi.waitFor(() => expect(second.state.getState().restored).toBe(true));
    expect(second.state.getState().store!.getState().realm.settings.name).toBe('Kept');
    const kept = queryClient.getQueryData<MessageListData>(messageKeys.list(narrow))!;
    expect(kept.pages[0].messages.map((m) => m.id)).toEqual([1, 2]);
    expect(second.state.getState().status).not.toBe('connected');

    // The server is back: its snapshot replaces the kept one, and the pages are fetched again
    // behind what is shown (invalidated, not emptied).
    online = true;
    await vi.waitFor(
      () => expect(second.state.getState().store!.getState().realm.settings.name).toBe('Fresh'),
      { timeout: 5000 },
    );
    expect(second.state.getState().restored).toBe(false);
    const state = queryClient.getQueryState(messageKeys.list(narrow))!;
    expect(state.isInvalidated).toBe(true);
    expect(queryClient.getQueryData<MessageListData>(messageKeys.list(narrow))).toBeDefined();

    // Logging out erases the account's cache.
    await second.logOut();
    expect(await offlineCacheFor(account).loadState()).toBeNull();
    expect(await offlineCacheFor(account).loadQueries()).toBeNull();
  });

  it('keeps waiting messages across pages; another page takes over only those of a closed tab', async () => {
    const account = `test-${Math.random()}`;
    const cache = offlineCacheFor(account);
    await cache.putOutbox({
      localId: 'a1',
      destination,
      content: 'from a closed tab',
      timestamp: 10,
      status: 'sending',
      tab: 'gone', // prettier-ignore
    });
    await cache.putOutbox({
      localId: 'b1',
      destination,
      content: 'from an open tab',
      timestamp: 11,
      status: 'waiting',
      tab: 'open', // prettier-ignore
    });
    // Web Locks as a browser has them: the open tab holds its lock.
    const held = new Set(['parley-tab:open']);
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        request: async (name: string, callback: () => Promise<unknown>) => {
          held.add(name);
          try {
            return await callback();
          } finally {
            if (!name.startsWith('parley-tab:')) held.delete(name);
          }
        },
        query: async () => ({ held: [...held].map((name) => ({ name })) }),
      },
    });
    const session = createAccountSession('me@example.com', 'key', new QueryClient(), {
      pollerApi: serverApi(
        () => eg.registerResponse(),
        () => false,
      ),
      storage: null,
      offlineCache: cache,
    });
    session.start();
    await vi.waitFor(() =>
      expect(session.outbox.getState().messages.map((m) => m.content)).toEqual([
        'from a closed tab',
      ]),
    );
    // What was on its way when the tab closed may be on the server: it is looked for first.
    expect(session.outbox.getState().messages[0]).toMatchObject({
      status: 'waiting',
      mayHaveArrived: true,
    });

    // A message written now is kept at once, beside them; a dropped one is forgotten.
    sendFromCompose(session, destination, 'written offline');
    session.cancelSend('a1');
    await vi.waitFor(async () =>
      expect((await cache.loadOutbox()).map((m) => m.content).sort()).toEqual([
        'from an open tab',
        'written offline',
      ]),
    );
    session.stop();
  });
});
