import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useComposeRequests } from '../../model/compose-request';
import { useMessageCursor } from '../../model/message-cursor';
import { narrowKey, topicNarrow } from '../../narrow';
import { firstPageParam, messageKeys, type MessageListData } from '../../queries/messages';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { MessageActionsLayer } from './MessageActionsLayer';
import { isReadingPaused, useMessageActionsUi } from './store';

const STREAM = eg.generalStream.stream_id;
const LUNCH = topicNarrow(STREAM, 'lunch');
const ME = eg.selfUser.user_id;
const OTHER = eg.otherUser.user_id;

function setUp({ sender = OTHER, select = true } = {}) {
  const session = fakeSession();
  const message = eg.streamMessage({
    id: 42,
    stream_id: STREAM,
    subject: 'lunch',
    sender_id: sender,
    sender_full_name: sender === ME ? eg.selfUser.full_name : eg.otherUser.full_name,
    flags: ['read'],
    timestamp: Math.floor(Date.now() / 1000),
  });
  const data: MessageListData = {
    pages: [{ messages: [message], foundOldest: true, foundNewest: true, anchor: 42 }],
    pageParams: [firstPageParam],
  };
  session.queryClient.setQueryData(messageKeys.list(LUNCH), data);
  const onEdit = vi.fn();
  const onResumed = vi.fn();
  render(<MessageActionsLayer narrow={LUNCH} onEdit={onEdit} onReadingResumed={onResumed} />, {
    wrapper: session.wrapper,
  });
  if (select) act(() => useMessageCursor.getState().select(narrowKey(LUNCH), 42));
  return { ...session, message, onEdit, onResumed };
}

const press = (key: string) => fireEvent.keyDown(document.body, { key });
const latest = () => useComposeRequests.getState().latest;

afterEach(() => {
  cleanup();
  useComposeRequests.setState({ latest: null });
  useMessageCursor.getState().clear();
  useMessageActionsUi.setState({ menu: null, dialog: null, status: null, readingPausedIn: null });
});

describe('message keys on the selected message', () => {
  it('r and Enter reply in the message’s topic, R privately to its sender', () => {
    setUp();
    press('r');
    expect(latest()).toMatchObject({
      to: { type: 'stream', streamId: STREAM, topic: 'lunch' },
      insert: null,
      focus: 'content',
    });
    press('R');
    expect(latest()).toMatchObject({ to: { type: 'direct', userIds: [OTHER] } });
    press('Enter');
    expect(latest()).toMatchObject({ to: { type: 'stream', topic: 'lunch' } });
  });

  it('> quotes the Markdown source, fetched from the server', async () => {
    const { fake } = setUp();
    fake.respond({ raw_content: 'Lunch at **one**?', message: {} });
    press('>');
    await waitFor(() => expect(latest()?.insert).toContain('```quote\nLunch at **one**?\n```'));
    expect(latest()?.insert).toMatch(
      new RegExp(`^@_\\*\\*${eg.otherUser.full_name}\\|${OTHER}\\*\\* \\[said\\]\\(http`),
    );
    expect(fake.last.path).toBe('/api/v1/messages/42');
    expect(fake.last.query.get('apply_markdown')).toBe('false');
  });

  it('@ mentions the sender in a reply', () => {
    setUp();
    press('@');
    expect(latest()?.insert).toBe(`@**${eg.otherUser.full_name}|${OTHER}** `);
  });

  it('U marks unread from here and pauses reading until the person scrolls', async () => {
    const { fake, onResumed } = setUp();
    fake.respond({
      processed_count: 1,
      updated_count: 1,
      first_processed_id: 42,
      last_processed_id: 42,
      found_oldest: false,
      found_newest: true,
    });
    press('U');
    expect(isReadingPaused(narrowKey(LUNCH))).toBe(true);
    await waitFor(() => expect(fake.last.path).toBe('/api/v1/messages/flags/narrow'));
    expect(fake.last.body.get('anchor')).toBe('42');
    fireEvent.wheel(window);
    expect(isReadingPaused(narrowKey(LUNCH))).toBe(false);
    await waitFor(() => expect(onResumed).toHaveBeenCalled());
  });

  it('i opens the actions menu; e edits only one’s own message', () => {
    const { onEdit } = setUp();
    press('e');
    expect(onEdit).not.toHaveBeenCalled();
    press('i');
    expect(useMessageActionsUi.getState().menu).toEqual({ messageId: 42, fromKeyboard: true });
  });

  it('e opens the editor on one’s own recent message', () => {
    const { onEdit } = setUp({ sender: ME });
    press('e');
    expect(onEdit).toHaveBeenCalledWith(42);
  });

  it('does nothing without a selected message', () => {
    setUp({ select: false });
    press('r');
    press('i');
    expect(latest()).toBeNull();
    expect(useMessageActionsUi.getState().menu).toBeNull();
  });
});
