import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountSession } from '../../model/session';
import { streamNarrow } from '../../narrow';
import { topicKeys } from '../../queries/topics';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { SessionContext } from '../../model/session-context';
import { StreamList } from './StreamList';

afterEach(cleanup);

const channel = eg.subscription({ stream_id: 10, name: 'firehose' });
/** 300 topics, t0 the most recent; t20 has 3 unread messages and t250 has 2. */
function renderOpenChannel() {
  const faked = fakeSession(
    eg.registerResponse({
      streams: [channel],
      subscriptions: [channel],
      unread_msgs: {
        count: 5,
        pms: [],
        streams: [
          { stream_id: 10, topic: 't20', unread_message_ids: [101, 102, 103] },
          { stream_id: 10, topic: 't250', unread_message_ids: [104, 105] },
        ],
        huddles: [],
        mentions: [],
        old_unreads_missing: false,
      },
    }),
  );
  faked.queryClient.setQueryData(
    topicKeys.stream(10),
    Array.from({ length: 300 }, (_, i) => ({ name: `t${i}`, maxId: 1000 - i })),
  );
  const Wrapper = faked.wrapper;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <SessionContext.Provider value={faked.session as unknown as AccountSession}>
        <Wrapper>{children}</Wrapper>
      </SessionContext.Provider>
    </MemoryRouter>
  );
  render(<StreamList place={{ kind: 'narrow', narrow: streamNarrow(10) }} />, { wrapper });
}

const topicNames = () =>
  within(screen.getByRole('list', { name: 'Topics in firehose' }))
    .getAllByRole('link')
    .map((link) => link.querySelector('.sidebar-name')?.textContent ?? '');

describe("an open channel's topics in the sidebar", () => {
  it('lists the recent few and the unread ones, and keeps the rest behind "more topics"', () => {
    renderOpenChannel();
    // The 8 most recent, then unread topics up to 12: t20 and t250.
    expect(topicNames()).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't20', 't250']);
    const more = screen.getByRole('button', { name: /^290 more topics/ });
    expect(more.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(more);
    // Every topic, a page at a time, with a filter.
    expect(topicNames()).toHaveLength(100);
    expect(topicNames()[0]).toBe('t0');
    fireEvent.click(screen.getByRole('button', { name: 'Show more (200 not shown)' }));
    expect(topicNames()).toHaveLength(200);
    const filter = screen.getByRole('searchbox', { name: 'Filter topics' });
    expect(document.activeElement).toBe(filter);
    fireEvent.change(filter, { target: { value: 't29' } });
    expect(topicNames()).toEqual(['t29', 't290', 't291', 't292', 't293', 't294', 't295', 't296', 't297', 't298', 't299']); // prettier-ignore
    fireEvent.change(filter, { target: { value: 'nothing like it' } });
    expect(screen.getByText('No topic matches “nothing like it”.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Fewer topics' }));
    expect(topicNames()).toHaveLength(10);
    expect(screen.queryByRole('searchbox', { name: 'Filter topics' })).toBeNull();
  });
});
