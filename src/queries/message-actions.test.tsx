import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { topicNarrow } from '../narrow';
import { eg } from '../test/eg';
import { fakeSession } from '../test/fake-session';
import { useToggleReaction } from './message-actions';
import { firstPageParam, messageKeys, type MessageListData } from './messages';

const narrow = topicNarrow(eg.generalStream.stream_id, 'lunch');
const message = eg.streamMessage({ id: 41, flags: ['read'] });
const thumbsUp = { emoji_name: '+1', emoji_code: '1f44d' };

function seeded() {
  const setup = fakeSession();
  const list: MessageListData = {
    pages: [{ messages: [message], foundOldest: true, foundNewest: true, anchor: 41 }],
    pageParams: [firstPageParam],
  };
  setup.queryClient.setQueryData(messageKeys.list(narrow), list);
  const reactions = () =>
    setup.queryClient.getQueryData<MessageListData>(messageKeys.list(narrow))!.pages[0].messages[0]
      .reactions;
  return { ...setup, reactions };
}

describe('useToggleReaction', () => {
  it('shows one’s own reaction before the server answers, once', async () => {
    const { fake, wrapper, reactions, store } = seeded();
    let answer: (response: Response) => void = () => {};
    fake.respondWith(() => new Promise((resolve) => (answer = resolve)));
    const { result } = renderHook(() => useToggleReaction(), { wrapper });

    act(() => result.current.mutate({ message, reaction: thumbsUp, add: true }));
    await waitFor(() => expect(reactions()).toHaveLength(1));
    expect(reactions()[0]).toMatchObject({ ...thumbsUp, user_id: store().ownUserId });
    answer(new Response(JSON.stringify({ result: 'success', msg: '' })));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.method).toBe('POST');
    expect(fake.last.path).toBe('/api/v1/messages/41/reactions');
    expect(reactions()).toHaveLength(1);
  });

  it('takes the reaction away again when the server refuses', async () => {
    const { fake, wrapper, reactions } = seeded();
    fake.respondError('REACTION_ALREADY_EXISTS', 'Reaction already exists.');
    const { result } = renderHook(() => useToggleReaction(), { wrapper });

    act(() => result.current.mutate({ message, reaction: thumbsUp, add: true }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(reactions()).toEqual([]);
  });
});
