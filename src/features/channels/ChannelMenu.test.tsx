import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import type { AccountSession } from '../../model/session';
import { fakeSession } from '../../test/fake-session';
import { SessionContext } from '../../model/session-context';
import { StreamList } from '../sidebar/StreamList';

/** The sidebar reads the app's session (spectator or not, its connection) besides the core. */
function routed({ wrapper: Wrapper, session: core }: ReturnType<typeof fakeSession>) {
  const app = core as unknown as AccountSession;
  return ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <SessionContext.Provider value={app}>
        <Wrapper>{children}</Wrapper>
      </SessionContext.Provider>
    </MemoryRouter>
  );
}

afterEach(cleanup);

const pinned = eg.subscription({ stream_id: 9, name: 'zebra', pin_to_top: true });
const plain = eg.subscription({ stream_id: 10, name: 'alpha', color: '#123456' });

function session() {
  return fakeSession(
    eg.registerResponse({ streams: [pinned, plain], subscriptions: [pinned, plain] }),
  );
}

describe('the sidebar channel list', () => {
  it('lists pinned channels first, apart from the others, in their own colours', () => {
    render(<StreamList place={null} />, { wrapper: routed(session()) });
    const links = screen.getAllByRole('link', { name: /^(zebra|alpha)/ });
    expect(links.map((l) => l.textContent)).toEqual(['zebra', 'alpha']);
    expect(screen.getByRole('separator')).toBeTruthy();
    const swatch = links[1].querySelector('.stream-swatch') as HTMLElement;
    expect(swatch.style.background).toBe('rgb(18, 52, 86)');
  });

  it("unpins and mutes from a channel's menu", async () => {
    const faked = session();
    const { fake } = faked;
    fake.respond({}).respond({});
    render(<StreamList place={null} />, { wrapper: routed(faked) });
    fireEvent.click(screen.getByRole('button', { name: 'Channel actions for zebra' }));
    const menu = screen.getByRole('menu', { name: 'Channel actions for zebra' });
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Unpin from top' }));
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(JSON.parse(fake.last.body.get('subscription_data')!)).toEqual([
      { stream_id: 9, property: 'pin_to_top', value: false },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Channel actions for alpha' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mute channel' }));
    await waitFor(() => expect(fake.requests).toHaveLength(2));
    expect(JSON.parse(fake.last.body.get('subscription_data')!)).toEqual([
      { stream_id: 10, property: 'is_muted', value: true },
    ]);
  });
});
