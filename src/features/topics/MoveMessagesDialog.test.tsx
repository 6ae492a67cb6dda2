import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { MoveMessagesDialog } from './MoveMessagesDialog';

afterEach(cleanup);

function setUp() {
  const register = {
    ...eg.registerResponse(),
    realm_edit_topic_policy: 5,
    realm_move_messages_between_streams_policy: 2,
    realm_move_messages_within_stream_limit_seconds: 3600,
  };
  const session = fakeSession(register);
  const message = eg.streamMessage({
    id: 50,
    stream_id: eg.generalStream.stream_id,
    subject: 'lunch',
    timestamp: Math.floor(Date.now() / 1000) - 10,
  });
  session.fake.respond({
    topics: [
      { name: 'lunch', max_id: 50 },
      { name: 'dinner', max_id: 40 },
    ],
  });
  const onClose = vi.fn();
  render(<MoveMessagesDialog message={message} onClose={onClose} />, { wrapper: session.wrapper });
  return { ...session, onClose };
}

describe('MoveMessagesDialog', () => {
  it('offers the topic, not the channel, to a member, and moves only this message by default', async () => {
    const { fake, onClose } = setUp();
    const dialog = screen.getByRole('dialog', { name: 'Move messages' });
    expect(screen.getByRole('combobox', { name: 'Channel' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('combobox', { name: 'Which messages' })).toHaveProperty(
      'value',
      'change_one',
    );
    expect(dialog.textContent).toContain('You may change the topic here, not the channel.');
    fireEvent.change(screen.getByRole('combobox', { name: 'Topic' }), {
      target: { value: 'food' },
    });
    fake.respond({});
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.last.method).toBe('PATCH');
    expect(fake.last.path).toBe('/api/v1/messages/50');
    expect(Object.fromEntries(fake.last.body)).toEqual({
      topic: 'food',
      propagate_mode: 'change_one',
      send_notification_to_old_thread: 'false',
      send_notification_to_new_thread: 'true',
    });
  });

  it('explains the time limit with its counts and moves the part allowed', async () => {
    const { fake, onClose } = setUp();
    fireEvent.change(screen.getByRole('combobox', { name: 'Which messages' }), {
      target: { value: 'change_all' },
    });
    fireEvent.change(screen.getByRole('combobox', { name: 'Topic' }), {
      target: { value: 'food' },
    });
    fake.respondError('MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', 'You only have permission…', 400, {
      first_message_id_allowed_to_move: 47,
      total_messages_in_topic: 10,
      total_messages_allowed_to_move: 3,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Only 3 of 10 messages can be moved: the others are older than the time limit.',
    );
    expect(onClose).not.toHaveBeenCalled();

    fake.respond({});
    fireEvent.click(screen.getByRole('button', { name: 'Move only the 3 most recent messages' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.last.path).toBe('/api/v1/messages/47');
    expect(fake.last.body.get('propagate_mode')).toBe('change_later');
    expect(fake.last.body.get('topic')).toBe('food');
  });

  it('says so when nothing may move, and shows any other refusal in words', async () => {
    const { fake } = setUp();
    fireEvent.change(screen.getByRole('combobox', { name: 'Topic' }), {
      target: { value: 'food' },
    });
    fake.respondError('MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', 'No.', 400, {
      first_message_id_allowed_to_move: null,
      total_messages_in_topic: 4,
      total_messages_allowed_to_move: 0,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^None of the 4 messages can be moved/,
    );
    expect(screen.queryByRole('button', { name: /Move only/ })).toBeNull();

    fake.respondError('BAD_REQUEST', "You don't have permission to edit this message");
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        "You don't have permission to edit this message",
      ),
    );
  });
});
