import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../api/errors';
import type { RegisterResponse } from '../api/model';
import type { PollerApi } from '../model/poller';
import { sendFromCompose } from '../model/send';
import { streamNarrow } from '../narrow';
import { eg } from '../test/eg';
import { FakeFetch } from '../test/fake-fetch';
import { firstPageParam, messageKeys, type MessageListData } from './messages';
import { createAccountSession } from './session-caches';

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
    expect(
      queryClient
        .getQueryData<MessageListData>(messageKeys.list(narrow))!
        .pages[0].messages.map((m) => m.id),
    ).toEqual([900]);
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
