import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { useTopicDialog } from './dialog-store';
import { TopicActionsMenu } from './TopicActionsMenu';

afterEach(() => {
  cleanup();
  useTopicDialog.getState().close();
});

const streamId = eg.generalStream.stream_id;

function setUp(settings: Record<string, unknown>, topic = 'lunch') {
  const session = fakeSession({ ...eg.registerResponse(), ...settings });
  session.fake.respond({ topics: [{ name: topic, max_id: 77 }] });
  render(<TopicActionsMenu streamId={streamId} topic={topic} messageId={60} />, {
    wrapper: session.wrapper,
  });
  return session;
}

const openMenu = (topic = 'lunch') =>
  fireEvent.click(screen.getByRole('button', { name: `Topic actions for ${topic}` }));

describe('TopicActionsMenu', () => {
  it('offers what the policies allow, and nothing when they allow nothing', () => {
    setUp({ realm_edit_topic_policy: 5, realm_move_messages_between_streams_policy: 2 });
    openMenu();
    const menu = screen.getByRole('menu', { name: 'Topic actions for lunch' });
    expect([...menu.querySelectorAll('[role=menuitem]')].map((i) => i.textContent)).toEqual([
      'Mark as resolved',
      'Rename topic',
      'Move topic',
    ]);
    cleanup();
    setUp({ realm_edit_topic_policy: 6, realm_move_messages_between_streams_policy: 6 });
    expect(screen.queryByRole('button', { name: /Topic actions/ })).toBeNull();
  });

  it('resolves the whole topic through its newest message, as the reference app', async () => {
    const { fake } = setUp({ realm_edit_topic_policy: 5 });
    openMenu();
    // The newest message comes from the topic list once it has loaded.
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    fake.respond({});
    await waitFor(() =>
      expect(screen.getByRole('menuitem', { name: 'Mark as resolved' })).toHaveProperty(
        'disabled',
        false,
      ),
    );
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mark as resolved' }));
    await waitFor(() => expect(fake.last.method).toBe('PATCH'));
    expect(fake.last.path).toBe('/api/v1/messages/77');
    expect(Object.fromEntries(fake.last.body)).toEqual({
      topic: '✔ lunch',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: 'false',
      send_notification_to_new_thread: 'true',
    });
  });

  it('unresolves, closes on Escape with the focus back on its button, and opens the dialogs', () => {
    setUp({ realm_edit_topic_policy: 5 }, '✔ lunch');
    openMenu('✔ lunch');
    const menu = screen.getByRole('menu');
    expect(screen.getByRole('menuitem', { name: 'Mark as unresolved' })).toBe(
      document.activeElement,
    );
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(screen.getByRole('menuitem', { name: 'Rename topic' })).toBe(document.activeElement);
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.getByRole('button', { name: 'Topic actions for ✔ lunch' })).toBe(
      document.activeElement,
    );
    openMenu('✔ lunch');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Rename topic' }));
    expect(useTopicDialog.getState().request).toMatchObject({
      kind: 'rename',
      streamId,
      topic: '✔ lunch',
    });
  });
});
