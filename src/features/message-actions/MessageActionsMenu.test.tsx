import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { MessageActionsMenu } from './MessageActionsMenu';
import { useMessageActionsUi } from './store';

/** Where the ⋮ button is in the window: jsdom lays nothing out, so the test says. */
function buttonAt(top: number) {
  const button = screen.getByRole('button', { name: 'Message actions' });
  vi.spyOn(button, 'getBoundingClientRect').mockReturnValue({
    top,
    bottom: top + 24,
    left: 900,
    right: 924,
    width: 24,
    height: 24,
    x: 900,
    y: top,
    toJSON: () => ({}),
  });
  return button;
}

function setUp() {
  const session = fakeSession();
  const message = eg.streamMessage({ id: 42, flags: ['read'] });
  render(
    <MessageActionsMenu
      message={message}
      canEdit={false}
      canDelete={false}
      onEdit={() => {}}
      onDelete={() => {}}
    />,
    { wrapper: session.wrapper },
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useMessageActionsUi.setState({ menu: null });
});

describe('the message actions menu and scrolling', () => {
  it('stays open while its message stays in sight in the feed, and closes once it leaves it', async () => {
    setUp();
    const button = buttonAt(300);
    fireEvent.click(button);
    expect(await screen.findByRole('menu', { name: 'Message actions' })).toBeTruthy();

    // The feed scrolls by itself (a row measured, a message arriving): the menu follows.
    buttonAt(280);
    act(() => {
      document.dispatchEvent(new Event('scroll'));
    });
    expect(screen.queryByRole('menu', { name: 'Message actions' })).not.toBeNull();

    // The feed scrolls the message below its lower edge (behind the composer): closed, though
    // the button is still inside the window.
    const feed = button.closest('div') ?? document.body;
    vi.spyOn(feed, 'getBoundingClientRect').mockReturnValue({
      top: 100,
      bottom: 600,
      left: 0,
      right: 1000,
      width: 1000,
      height: 500,
      x: 0,
      y: 100,
      toJSON: () => ({}),
    });
    buttonAt(590);
    act(() => {
      feed.dispatchEvent(new Event('scroll'));
    });
    expect(screen.queryByRole('menu', { name: 'Message actions' })).toBeNull();
  });

  it('closes once its message is scrolled out of the window', async () => {
    setUp();
    fireEvent.click(buttonAt(300));
    expect(await screen.findByRole('menu', { name: 'Message actions' })).toBeTruthy();
    buttonAt(-100);
    act(() => {
      document.dispatchEvent(new Event('scroll'));
    });
    expect(screen.queryByRole('menu', { name: 'Message actions' })).toBeNull();
  });
});
