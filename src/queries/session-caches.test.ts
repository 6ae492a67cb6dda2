import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../api/errors';
import type { RegisterResponse } from '../api/model';
import type { WebPublicEventHandlers } from '../api/extensions/web-public-events';
import type { PollerApi } from '../model/poller';
import type { VisitorFeedApi } from '../model/visitor-feed';
import { sendFromCompose } from '../model/outbox-sender';
import { streamNarrow } from '../narrow';
import { eg } from '../test/eg';
import { FakeFetch } from '../test/fake-fetch';
import { firstPageParam, messageKeys, type MessageListData } from './messages';
import { createAccountSession, reactQueryCaches } from './session-caches';

/** Registers with the given snapshots in turn; events are pushed by the test. */
function scriptedApi(...snapshots: RegisterResponse[]) {
  let deliver: (events: unknown[]) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const api: PollerApi = {
    register: async () => snapshots.shift() ?? eg.registerResponse({ queue_id: 'later' }),
    getEvents: () =>
      new Promise((resolve, reject) => {
        deliver = resolve;
        fail = reject;
      }),
  };
  return {
    api,
    push: (events: unknown[]) => deliver(events),
    fail: (error: unknown) => fail(error),
  };
}

async function startSession(api: PollerApi, queryClient = new QueryClient()) {
  const session = createAccountSession('self@example.com', 'key', queryClient, {
    pollerApi: api,
    storage: null,
  });
  session.start();
  await vi.waitFor(() => expect(session.state.getState().store).not.toBeNull());
  return session;
}

afterEach(() => vi.unstubAllGlobals());

describe('AccountSession', () => {
  it('replaces a local echo by the server message carrying its local_id', async () => {
    const fake = new FakeFetch().respond({ id: 900 });
    vi.stubGlobal('fetch', fake.fetch);
    const queryClient = new QueryClient();
    const narrow = streamNarrow(5);
    const empty: MessageListData = {
      pages: [{ messages: [], foundOldest: true, foundNewest: true, anchor: 0 }],
      pageParams: [firstPageParam],
    };
    queryClient.setQueryData(messageKeys.list(narrow), empty);
    const scripted = scriptedApi(eg.registerResponse({ queue_id: 'q1' }));
    const session = await startSession(scripted.api, queryClient);

    sendFromCompose(session, { type: 'stream', streamId: 5, topic: 'lunch' }, 'hello');
    const [echo] = session.outbox.getState().messages;
    await vi.waitFor(() => expect(session.outbox.getState().messages[0].status).toBe('sent'));
    expect(fake.last.body.get('queue_id')).toBe('q1');
    expect(fake.last.body.get('local_id')).toBe(echo.localId);

    const message = eg.streamMessage({ id: 900, stream_id: 5, subject: 'lunch', sender_id: 1 });
    scripted.push([{ ...eg.messageEvent(message, ['read'], echo.localId), id: 0 }]);
    await vi.waitFor(() => expect(session.outbox.getState().messages).toEqual([]));
    // The code that applies events to the caches may still be loading with the first event.
    await vi.waitFor(() =>
      expect(
        queryClient
          .getQueryData<MessageListData>(messageKeys.list(narrow))!
          .pages[0].messages.map((m) => m.id),
      ).toEqual([900]),
    );
    session.stop();
  });

  it('builds a new store on a new queue but keeps compose drafts and failed sends', async () => {
    const scripted = scriptedApi(
      eg.registerResponse({ queue_id: 'q1' }),
      eg.registerResponse({ queue_id: 'q2', realm_name: 'Renamed' }),
    );
    const session = await startSession(scripted.api);
    const firstStore = session.state.getState().store;
    session.composeDrafts.getState().draftEdited('stream:5', { topic: 't', content: 'typing…' });
    session.outbox.getState().sendStarted({
      localId: 'x',
      destination: { type: 'direct', userIds: [2] },
      content: 'c',
      timestamp: 1,
    });
    session.outbox.getState().sendFailed('x', 'offline');

    scripted.fail(
      new ApiRequestError({
        kind: 'api',
        status: 400,
        code: 'BAD_EVENT_QUEUE_ID',
        msg: 'Bad event queue id',
        extra: {},
      }),
    );
    await vi.waitFor(() => expect(session.state.getState().store?.getState().queueId).toBe('q2'));

    expect(session.state.getState().store).not.toBe(firstStore);
    expect(session.composeDrafts.getState().byConversation['stream:5'].content).toBe('typing…');
    expect(session.outbox.getState().messages.map((m) => m.status)).toEqual(['failed']);
    session.stop();
  });
});

describe('AccountSession for a visitor', () => {
  const WELCOME = 40;
  const GENERAL = 5;
  const emptyList = (): MessageListData => ({
    pages: [{ messages: [], foundOldest: true, foundNewest: true, anchor: 0 }],
    pageParams: [firstPageParam],
  });
  /** The server's answer to a visitor's register: `welcome` web-public, `general` not. */
  const visitorRegister = {
    queue_id: null,
    streams: [
      eg.stream({ stream_id: WELCOME, name: 'welcome', is_web_public: true }),
      eg.stream({ stream_id: GENERAL, name: 'general' }),
    ],
  };

  /** A visitor's session on a server announcing `extensions`; the test drives its stream. */
  async function startVisiting(
    extensions: string[],
    queryClient = new QueryClient(),
    fake = new FakeFetch().respond(visitorRegister),
  ) {
    vi.stubGlobal('fetch', fake.fetch);
    const streams: WebPublicEventHandlers[] = [];
    const api: VisitorFeedApi = {
      extensions: async () => extensions,
      follow: (handlers) => {
        streams.push(handlers);
        return new Promise(() => {});
      },
    };
    const session = createAccountSession('', '', queryClient, {
      spectator: true,
      storage: null,
      visitorFeedApi: api,
      visitorFeedOptions: { pollVisibleMs: 20, pollHiddenMs: 20 },
    });
    session.start();
    await vi.waitFor(() => expect(session.state.getState().store).not.toBeNull());
    return { session, streams, queryClient };
  }

  const ids = (queryClient: QueryClient, streamId: number) =>
    queryClient
      .getQueryData<MessageListData>(messageKeys.list(streamNarrow(streamId)))!
      .pages[0].messages.map((m) => m.id);

  it('applies the stream of a web-public channel to the caches, and nothing of another', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(messageKeys.list(streamNarrow(WELCOME)), emptyList());
    queryClient.setQueryData(messageKeys.list(streamNarrow(GENERAL)), emptyList());
    const { session, streams } = await startVisiting(['web_public_events'], queryClient);
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    streams[0].opened();

    const welcome = eg.streamMessage({ id: 501, stream_id: WELCOME, display_recipient: 'welcome' });
    const general = eg.streamMessage({ id: 502, stream_id: GENERAL });
    streams[0].batch([
      { ...eg.messageEvent(welcome, ['read']), id: 1 },
      { ...eg.messageEvent(general, ['read']), id: 2 },
    ]);
    expect(ids(queryClient, WELCOME)).toEqual([501]);
    expect(ids(queryClient, GENERAL)).toEqual([]);

    streams[0].batch([
      {
        id: 3,
        type: 'update_message',
        user_id: 2,
        message_id: 501,
        message_ids: [501],
        edit_timestamp: 2,
        rendering_only: false,
        rendered_content: '<p>edited live</p>',
        stream_id: WELCOME,
      },
    ]);
    const edited = queryClient.getQueryData<MessageListData>(
      messageKeys.list(streamNarrow(WELCOME)),
    )!.pages[0].messages[0];
    expect(edited.content).toBe('<p>edited live</p>');

    // A deletion said to be in `general` is not believed, even of a message shown in `welcome`.
    streams[0].batch([
      {
        id: 4,
        type: 'delete_message',
        message_type: 'stream',
        message_ids: [501],
        stream_id: GENERAL,
      },
    ]);
    expect(ids(queryClient, WELCOME)).toEqual([501]);
    streams[0].batch([
      {
        id: 5,
        type: 'delete_message',
        message_type: 'stream',
        message_ids: [501],
        stream_id: WELCOME,
      },
    ]);
    expect(ids(queryClient, WELCOME)).toEqual([]);
    session.stop();
  });

  it('polls the open conversations where the server offers no stream', async () => {
    const queryClient = new QueryClient();
    const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
    const { session, streams } = await startVisiting(['mail_log'], queryClient);
    await vi.waitFor(() => expect(invalidated).toHaveBeenCalledWith({ queryKey: messageKeys.all }));
    expect(streams).toEqual([]);
    session.stop();
  });

  it('takes a new snapshot when a channel opens to visitors, and drops one that closes', async () => {
    const opening = eg.stream({ stream_id: 77, name: 'opening', is_web_public: true });
    const fake = new FakeFetch()
      .respond(visitorRegister)
      .respond({ ...visitorRegister, streams: [...visitorRegister.streams, opening] });
    const { session, streams } = await startVisiting(['web_public_events'], undefined, fake);
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    streams[0].opened();
    const channels = () =>
      Object.keys(session.state.getState().store!.getState().subscriptions.subscriptions).map(
        Number,
      );
    expect(channels()).toEqual([WELCOME]);
    streams[0].batch([{ id: 1, type: 'stream', op: 'create', streams: [opening] }]);
    await vi.waitFor(() => expect(channels()).toEqual([WELCOME, 77]));
    expect(fake.requests.filter((r) => r.path === '/api/v1/register')).toHaveLength(2);
    streams[0].batch([
      { id: 2, type: 'stream', op: 'delete', streams: [{ stream_id: 77 }], stream_ids: [77] },
    ]);
    expect(channels()).toEqual([WELCOME]);
    session.stop();
  });

  it('closes when the organization stops letting visitors in', async () => {
    const { session, streams } = await startVisiting(['web_public_events']);
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    streams[0].opened();
    streams[0].batch([
      { id: 1, type: 'realm', op: 'update', property: 'enable_spectator_access', value: false },
    ]);
    expect(session.state.getState()).toMatchObject({ store: null, stopReason: 'no-queue' });
    session.stop();
  });
});

describe('reactQueryCaches', () => {
  it('applies batches that come before the code to apply them, in order, once it has loaded', async () => {
    const queryClient = new QueryClient();
    const narrow = streamNarrow(5);
    const empty: MessageListData = {
      pages: [{ messages: [], foundOldest: true, foundNewest: true, anchor: 0 }],
      pageParams: [firstPageParam],
    };
    queryClient.setQueryData(messageKeys.list(narrow), empty);
    const caches = reactQueryCaches(queryClient);
    const message = (id: number) =>
      eg.messageEvent(eg.streamMessage({ id, stream_id: 5, subject: 'lunch', sender_id: 1 }));

    caches.eventsReceived([{ ...message(901), id: 1 }], 1);
    caches.eventsReceived([{ ...message(902), id: 2 }], 1);

    await vi.waitFor(() =>
      expect(
        queryClient
          .getQueryData<MessageListData>(messageKeys.list(narrow))!
          .pages[0].messages.map((m) => m.id),
      ).toEqual([901, 902]),
    );
  });
});
