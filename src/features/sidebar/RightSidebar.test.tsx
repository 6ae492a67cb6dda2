import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { RegisterResponse } from '../../api/model';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { useProfileCard } from '../people/card-store';
import { RightSidebar } from './RightSidebar';

afterEach(() => {
  cleanup();
  useProfileCard.getState().close();
});

const now = Math.floor(Date.now() / 1000);

const organization = (count: number) => eg.largeOrganization(eg.selfUser, count);

function renderSidebar(overrides: Partial<RegisterResponse>) {
  const session = fakeSession(eg.registerResponse(overrides));
  const view = render(
    <MemoryRouter>
      <RightSidebar hidden={false} />
    </MemoryRouter>,
    { wrapper: session.wrapper },
  );
  return { ...session, ...view };
}

const people = () => within(screen.getByRole('complementary', { name: 'People' }));
const filterTo = (text: string) =>
  fireEvent.change(screen.getByRole('searchbox', { name: 'Filter people' }), {
    target: { value: text },
  });

describe('the people list of a large organization', () => {
  it('renders only the rows in view, finds the last person by name, and tells the full length', () => {
    const { container } = renderSidebar({ realm_users: organization(10_000) });
    const rows = container.querySelectorAll('li');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(200);
    // You first; every row knows the length of the whole list and its own place in it.
    expect(within(rows[0]!).getByRole('button').getAttribute('aria-label')).toMatch(/^Self User/);
    expect(rows[0]!.getAttribute('aria-setsize')).toBe('10000');
    expect(rows[0]!.getAttribute('aria-posinset')).toBe('1');
    expect(rows[1]!.getAttribute('aria-posinset')).toBe('2');
    expect(people().queryByRole('button', { name: /^Zacharias/ })).toBeNull();

    filterTo('zachar');
    const rowsNow = container.querySelectorAll('li');
    expect(rowsNow).toHaveLength(1);
    expect(rowsNow[0]!.getAttribute('aria-setsize')).toBe('1');
    expect(people().getByRole('button', { name: 'Zacharias Zwölf, offline' })).toBeTruthy();

    filterTo('person 0');
    expect(container.querySelector('li')!.getAttribute('aria-setsize')).toBe('9998');
    filterTo('nobody by this name');
    expect(container.querySelectorAll('li')).toHaveLength(0);
    expect(people().getByText('Nobody matches “nobody by this name”.')).toBeTruthy();
  }, 60_000);

  it('keeps the row last clicked or focused rendered when the list scrolls away from it', async () => {
    const { container } = renderSidebar({ realm_users: organization(2_000) });
    const aside = screen.getByRole('complementary', { name: 'People' });
    const first = people().getByRole('button', { name: /^Self User/ });
    fireEvent.click(first);
    expect(await screen.findByRole('dialog', { name: 'Self User' })).toBeTruthy();

    // Far down the list: the rows there are rendered, the first rows are not, but yours stays.
    // (The test DOM has no layout: the sidebar is given the height of its content.)
    Object.defineProperty(aside, 'scrollHeight', { value: 2_000 * 32 });
    aside.scrollTop = 1_000 * 32;
    act(() => {
      aside.dispatchEvent(new Event('scroll'));
    });
    expect(people().getByRole('button', { name: /^Person 01000/ })).toBeTruthy();
    expect(people().queryByRole('button', { name: /^Person 00001/ })).toBeNull();
    expect(people().getByRole('button', { name: /^Self User/ })).toBe(first);
    expect(container.querySelectorAll('li').length).toBeLessThan(200);

    // Closing the card gives the focus back to the row.
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(first);
    expect(people().getByRole('button', { name: /^Self User/ })).toBe(first);

    // Once the focus moves to something else in the sidebar, the row far up goes.
    act(() => screen.getByRole('searchbox', { name: 'Filter people' }).focus());
    expect(people().queryByRole('button', { name: /^Self User/ })).toBeNull();
  }, 60_000);
});

describe('the people list', () => {
  it('shows you first, then who is active, idle and offline, and bots apart', () => {
    const active = eg.user({ full_name: 'Carol Active' });
    const idle = eg.user({ full_name: 'Bob Idle' });
    const offline = eg.user({ full_name: 'Alice Offline' });
    const bot = eg.user({ full_name: 'Aaron Bot', is_bot: true });
    renderSidebar({
      realm_users: [offline, idle, eg.selfUser, active, bot],
      presences: {
        [active.user_id]: { active_timestamp: now, idle_timestamp: now },
        [idle.user_id]: { active_timestamp: now - 3600, idle_timestamp: now },
      },
    });
    const [humans, bots] = people().getAllByRole('list');
    expect(
      within(humans!)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual([
      'Self User, offline',
      'Carol Active, active',
      'Bob Idle, idle',
      'Alice Offline, offline',
    ]);
    expect(
      within(humans!)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-setsize')),
    ).toEqual(['4', '4', '4', '4']);
    expect(people().getByRole('heading', { name: 'Bots' })).toBeTruthy();
    const botRows = within(bots!).getAllByRole('listitem');
    expect(botRows.map((li) => li.textContent)).toEqual(['Aaron Bot']);
    expect(botRows[0]!.getAttribute('aria-setsize')).toBe('1');
  });

  it('opens the profile card from a row, and hides muted people', async () => {
    renderSidebar({
      muted_users: [{ id: eg.thirdUser.user_id, timestamp: now }],
    });
    expect(people().queryByRole('button', { name: /^Third User/ })).toBeNull();
    fireEvent.click(people().getByRole('button', { name: /^Other User/ }));
    expect(await screen.findByRole('dialog', { name: 'Other User' })).toBeTruthy();
  });
});
