import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { topicNarrow } from '../narrow';
import { eg } from '../test/eg';
import { fakeSession } from '../test/fake-session';
import { useMarkAllAsRead, useMarkNarrowAsRead, useStarMessage } from './flags';
import { firstPageParam, messageKeys, type MessageListData } from './messages';

const STREAM = eg.generalStream.stream_id;

function withUnreadLunch() {
  return eg.registerResponse({
    unread_msgs: {
      count: 2,
      pms: [],
      streams: [{ stream_id: STREAM, topic: 'lunch', unread_message_ids: [11, 12] }],
      huddles: [],
      mentions: [],
      old_unreads_missing: false,
    },
  });
}

/** A pending answer the test resolves, to look at the state while the request is in flight. */
function held() {
  let release: (response: Response) => void = () => {};
  const response = new Promise<Response>((resolve) => (release = resolve));
  const json = (status: number, body: object) =>
    release(new Response(JSON.stringify(body), { status }));
  return { response, json };
}

describe('useMarkNarrowAsRead', () => {
  it('clears the unread count at once and asks the server by topic', async () => {
    const { fake, store, wrapper } = fakeSession(withUnreadLunch());
    const answer = held();
    fake.respondWith(() => answer.response);
    const { result } = renderHook(() => useMarkNarrowAsRead(topicNarrow(STREAM, 'lunch')), {
      wrapper,
    });

    act(() => result.current.mutate([11, 12]));
    // The answer is held back: whatever shows now was applied before the server spoke.
    await waitFor(() => expect(store().unreads.streams[STREAM]?.lunch).toBeUndefined());
    answer.json(200, { result: 'success', msg: '' });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.path).toBe('/api/v1/mark_topic_as_read');
    expect(fake.last.body.get('topic_name')).toBe('lunch');
  });

  it('makes the messages unread again when the server refuses', async () => {
    const { fake, store, wrapper } = fakeSession(withUnreadLunch());
    fake.respondError('BAD_REQUEST', 'No such topic');
    const { result } = renderHook(() => useMarkNarrowAsRead(topicNarrow(STREAM, 'lunch')), {
      wrapper,
    });

    act(() => result.current.mutate([11, 12]));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(store().unreads.streams[STREAM]?.lunch).toEqual([11, 12]);
  });
});

describe('useMarkAllAsRead', () => {
  it('rolls every conversation back when the request fails', async () => {
    const { fake, store, wrapper } = fakeSession(withUnreadLunch());
    fake.failNetwork();
    const { result } = renderHook(() => useMarkAllAsRead(), { wrapper });

    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(fake.last.path).toBe('/api/v1/mark_all_as_read');
    expect(store().unreads.streams[STREAM]?.lunch).toEqual([11, 12]);
  });
});

describe('useStarMessage', () => {
  const narrow = topicNarrow(STREAM, 'lunch');
  const message = eg.streamMessage({ id: 31, flags: ['read'] });
  const starredIn = (data: MessageListData | undefined) =>
    data?.pages[0].messages[0].flags.includes('starred');

  function seeded() {
    const setup = fakeSession();
    const list: MessageListData = {
      pages: [{ messages: [message], foundOldest: true, foundNewest: true, anchor: 31 }],
      pageParams: [firstPageParam],
    };
    setup.queryClient.setQueryData(messageKeys.list(narrow), list);
    const listData = () =>
      setup.queryClient.getQueryData<MessageListData>(messageKeys.list(narrow));
    return { ...setup, listData };
  }

  it('shows the star before the server answers', async () => {
    const { fake, wrapper, listData } = seeded();
    const answer = held();
    fake.respondWith(() => answer.response);
    const { result } = renderHook(() => useStarMessage(), { wrapper });

    act(() => result.current.mutate(message));
    await waitFor(() => expect(starredIn(listData())).toBe(true));
    answer.json(200, { result: 'success', msg: '' });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.body.get('flag')).toBe('starred');
    expect(starredIn(listData())).toBe(true);
  });

  it('takes the star away again when the server refuses', async () => {
    const { fake, wrapper, listData } = seeded();
    fake.respondError('BAD_REQUEST', 'Invalid message(s)');
    const { result } = renderHook(() => useStarMessage(), { wrapper });

    act(() => result.current.mutate(message));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(starredIn(listData())).toBe(false);
  });
});
