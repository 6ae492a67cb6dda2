/**
 * The interface under German: components render their German strings, plurals pick the right
 * form, numbers and dates take the German form, and switching back restores English.
 */
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, switchLanguage } from '.';
import { ErrorState, LoadingState } from '../components/StatePanel';
import { withUnreadLabel } from '../components/UnreadBadge';
import { DateSeparator } from '../features/message-list/MessageItem';
import { formatDay, formatFullDateTime } from '../features/message-list/format';
import { MessageTime } from '../features/message-list/MessageTime';
import { MemoryRouter } from 'react-router';
import { narrowTitle } from '../features/search/narrow-title';
import type { SearchDirectory } from '../features/search/search-query';
import { describeMoveFailure } from '../features/topics/move-error';
import { ApiRequestError } from '../api/errors';

afterEach(async () => {
  await act(() => switchLanguage('en'));
});

const directory = {
  ownUserId: 1,
  users: { 2: { user_id: 2, full_name: 'Othello', email: 'othello@example.com' } },
  streams: { 7: { stream_id: 7, name: 'general' } },
} as unknown as SearchDirectory;

describe('German', () => {
  it('renders the shared state panels in German and follows a switch back live', async () => {
    render(
      <>
        <LoadingState />
        <ErrorState title="x" message="y" onRetry={() => {}} />
      </>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    await act(() => switchLanguage('de'));
    expect(screen.getByRole('status').textContent).toBe('Wird geladen …');
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
    await act(() => switchLanguage('en'));
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('says "Heute" on today’s day separator and writes other days the German way', async () => {
    await act(() => switchLanguage('de'));
    const now = new Date(2026, 10, 25, 12, 0);
    render(<DateSeparator timestamp={Date.now() / 1000} />);
    expect(screen.getByRole('separator', { name: 'Heute' })).toBeTruthy();
    expect(formatDay(new Date(2026, 10, 24, 9).getTime() / 1000, now)).toBe('Gestern');
    expect(formatDay(new Date(2025, 2, 3, 9).getTime() / 1000, now)).toBe('Mo., 3. März 2025');
  });

  it('switches the parts of a message row already on screen (shared words, useFixedT)', async () => {
    const timestamp = new Date(2026, 10, 25, 14, 5).getTime() / 1000;
    render(
      <MemoryRouter>
        <DateSeparator timestamp={timestamp} />
        <MessageTime timestamp={timestamp} time="14:05" permalink="/near/1" />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Permalink to message, 14:05' })).toBeTruthy();
    await act(() => switchLanguage('de'));
    expect(screen.getByRole('link', { name: 'Permalink zur Nachricht, 14:05' })).toBeTruthy();
    expect(screen.getByRole('separator').getAttribute('aria-label')).toMatch(
      /^(Heute|Gestern|\w+\.,)/,
    );
    expect(formatFullDateTime(timestamp)).toBe('Mittwoch, 25. November 2026 um 14:05');
    await act(() => switchLanguage('en'));
    expect(screen.getByRole('link', { name: 'Permalink to message, 14:05' })).toBeTruthy();
    expect(formatFullDateTime(timestamp)).toMatch(/^Wednesday, November 25, 2026/);
  });

  it('puts counts into the right plural form with German digit grouping', async () => {
    await act(() => switchLanguage('de'));
    expect(i18n.t('navigation:inbox.unreadTotal', { count: 1 })).toBe('1 ungelesene Nachricht');
    expect(i18n.t('navigation:inbox.unreadTotal', { count: 1234 })).toBe(
      '1.234 ungelesene Nachrichten',
    );
    expect(withUnreadLabel('general', 3)).toBe('general, 3 ungelesen');
  });

  it('names filters and refused moves in German', async () => {
    await act(() => switchLanguage('de'));
    const narrow = {
      kind: 'filter',
      terms: [
        { operator: 'is', operand: 'starred', negated: false },
        { operator: 'sender', operand: '2', negated: false },
        { operator: 'has', operand: 'image', negated: false },
      ],
    } as unknown as Parameters<typeof narrowTitle>[0];
    expect(narrowTitle(narrow, directory)).toBe('Markierte Nachrichten mit Bildern von Othello');
    const refused = new ApiRequestError({
      kind: 'api',
      status: 400,
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      msg: '',
      extra: {
        total_messages_in_topic: 10,
        total_messages_allowed_to_move: 3,
        first_message_id_allowed_to_move: 5,
      },
    });
    expect(describeMoveFailure(refused).text).toMatch(
      /^Nur 3 von 10 Nachrichten können verschoben/,
    );
  });
});
