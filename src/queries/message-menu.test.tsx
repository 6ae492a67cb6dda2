import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { topicNarrow } from '../narrow';
import { eg } from '../test/eg';
import { FakeFetch } from '../test/fake-fetch';
import { fakeSession } from '../test/fake-session';
import { ApiConnection } from '../api/connection';
import { markUnreadFromHere, useToggleCollapsed } from './message-menu';
import { firstPageParam, messageKeys, type MessageListData } from './messages';

const STREAM = eg.generalStream.stream_id;
const batch = (overrides: Record<string, unknown>) => ({
  processed_count: 0,
  updated_count: 0,
  first_processed_id: null,
  last_processed_id: null,
  found_oldest: false,
  found_newest: true,
  ...overrides,
});

function connectionOn(fake: FakeFetch) {
  return new ApiConnection({ baseUrl: 'http://parley.test/api/v1', fetch: fake.fetch });
}

describe('markUnreadFromHere', () => {
  it('removes the read flag from the message on, in the narrow, in one request', async () => {
    const fake = new FakeFetch().respond(
      batch({ processed_count: 3, updated_count: 3, last_processed_id: 45 }),
    );
    const updated = await markUnreadFromHere(connectionOn(fake), topicNarrow(STREAM, 'lunch'), 42);
    expect(updated).toBe(3);
    const { path, body } = fake.last;
    expect(path).toBe('/api/v1/messages/flags/narrow');
    expect(body.get('anchor')).toBe('42');
    expect(body.get('include_anchor')).toBe('true');
    expect(body.get('num_before')).toBe('0');
    expect(body.get('op')).toBe('remove');
    expect(body.get('flag')).toBe('read');
    expect(JSON.parse(body.get('narrow')!)).toEqual([
      { operator: 'channel', operand: STREAM },
      { operator: 'topic', operand: 'lunch' },
    ]);
  });

  it('goes on after the last processed message until the newest is reached', async () => {
    const fake = new FakeFetch()
      .respond(batch({ updated_count: 5000, last_processed_id: 9000, found_newest: false }))
      .respond(batch({ updated_count: 12, last_processed_id: 9100, found_newest: true }));
    const updated = await markUnreadFromHere(connectionOn(fake), topicNarrow(STREAM, 'lunch'), 1);
    expect(updated).toBe(5012);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1].body.get('anchor')).toBe('9000');
    expect(fake.requests[1].body.get('include_anchor')).toBe('false');
  });

  it('stops when a batch reaches nothing, whatever found_newest says', async () => {
    const fake = new FakeFetch().respond(batch({ found_newest: false, last_processed_id: null }));
    await markUnreadFromHere(connectionOn(fake), topicNarrow(STREAM, 'lunch'), 1);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('useToggleCollapsed', () => {
  function withLoadedMessage() {
    const session = fakeSession();
    const message = eg.streamMessage({ id: 77, flags: ['read'] });
    const data: MessageListData = {
      pages: [{ messages: [message], foundOldest: true, foundNewest: true, anchor: 77 }],
      pageParams: [firstPageParam],
    };
    session.queryClient.setQueryData(messageKeys.list(topicNarrow(STREAM, 'lunch')), data);
    const flagsNow = () =>
      session.queryClient.getQueryData<MessageListData>(
        messageKeys.list(topicNarrow(STREAM, 'lunch')),
      )!.pages[0].messages[0].flags;
    return { ...session, message, flagsNow };
  }

  it('collapses at once and asks the server for the collapsed flag', async () => {
    const { fake, wrapper, message, flagsNow } = withLoadedMessage();
    fake.respond({ messages: [77] });
    const { result } = renderHook(() => useToggleCollapsed(), { wrapper });
    act(() => result.current.mutate(message));
    await waitFor(() => expect(flagsNow()).toContain('collapsed'));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.body.get('flag')).toBe('collapsed');
    expect(fake.last.body.get('op')).toBe('add');
  });

  it('expands again when the server refuses', async () => {
    const { fake, wrapper, message, flagsNow } = withLoadedMessage();
    fake.respondError('BAD_REQUEST', 'Invalid message(s)');
    const { result } = renderHook(() => useToggleCollapsed(), { wrapper });
    act(() => result.current.mutate(message));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(flagsNow()).not.toContain('collapsed');
  });
});
