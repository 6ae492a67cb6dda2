import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../api/model';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { echoToMessage } from '../compose/echo';
import { splitMeMessage } from './me-message';
import { MessageItem } from './MessageItem';

describe('splitMeMessage', () => {
  it('takes the first paragraph, without /me, as the action', () => {
    expect(splitMeMessage('<p>/me is away</p>')).toEqual({ action: 'is away', rest: '' });
    expect(splitMeMessage('<p>/me waves <strong>hard</strong></p>\n<p>more</p>')).toEqual({
      action: 'waves <strong>hard</strong>',
      rest: '<p>more</p>',
    });
  });

  it('leaves content alone that does not start with a /me paragraph', () => {
    expect(splitMeMessage('<p>hello /me</p>')).toBeNull();
    expect(splitMeMessage('<p>/meh</p>')).toBeNull();
    expect(splitMeMessage('<blockquote><p>/me quoted</p></blockquote>')).toBeNull();
    expect(splitMeMessage('<p><strong>/me</strong> bold</p>')).toBeNull();
  });
});

function renderItem(message: Message, { showSender = false, mutedSender = false } = {}) {
  const { wrapper: Wrapper } = fakeSession();
  render(
    <MessageItem
      message={message}
      showSender={showSender}
      ownUserId={eg.selfUser.user_id}
      twentyFourHour={false}
      onToggleStar={() => {}}
      onRetry={() => {}}
      onCancel={() => {}}
      canEdit={false}
      canDelete={false}
      editing={false}
      onEdit={() => {}}
      onDelete={async () => null}
      users={{ [eg.otherUser.user_id]: eg.otherUser }}
      showReactionNames
      onToggleReaction={() => {}}
      mutedSender={mutedSender}
      readOnly
    />,
    {
      wrapper: ({ children }: { children: ReactNode }) => (
        <MemoryRouter>
          <Wrapper>{children}</Wrapper>
        </MemoryRouter>
      ),
    },
  );
  return screen.getByRole('article');
}

describe('a /me message', () => {
  const away = eg.streamMessage({ is_me_message: true, content: '<p>/me is <em>away</em></p>' });

  it('reads as an action of its sender, named even inside a run of their messages', () => {
    const article = renderItem(away, { showSender: false });
    const header = article.querySelector('.message-header')!;
    expect(header.querySelector('.message-sender')!.textContent).toBe('Other User');
    const action = header.querySelector('.message-me-action')!;
    expect(action.innerHTML).toBe('is <em>away</em>');
    expect(article.textContent).not.toContain('/me');
    expect(article.querySelector('.message-content')).toBeNull();
    expect(article.classList.contains('message-me')).toBe(true);
  });

  it('shows an ordinary grouped message without its sender', () => {
    const article = renderItem(eg.streamMessage({ content: '<p>is away</p>' }));
    expect(article.querySelector('.message-header')).toBeNull();
  });

  it('stays hidden like any message of a muted sender', () => {
    const article = renderItem(away, { mutedSender: true });
    expect(article.querySelector('.message-me-action')).toBeNull();
    expect(screen.getByText(/you muted the sender/)).toBeTruthy();
  });

  it('echoes as a /me message while it is being sent', () => {
    const entry = {
      localId: 'x',
      destination: { type: 'stream' as const, streamId: 5, topic: 'lunch' },
      content: '/me waves',
      timestamp: 1,
      status: 'sending' as const,
    };
    const echo = echoToMessage(entry, 0, eg.selfUser, {}, {});
    expect(echo.is_me_message).toBe(true);
    expect(splitMeMessage(echo.content)).toEqual({ action: 'waves', rest: '' });
  });
});
