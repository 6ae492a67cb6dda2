import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '../../../api/model';
import { ROLE } from '../../../api/model/user';
import { eg } from '../../../test/eg';
import { fakeSession } from '../../../test/fake-session';
import { AdminView } from '../AdminView';

afterEach(cleanup);

const admin: User = { ...eg.selfUser, role: ROLE.ADMINISTRATOR, is_admin: true };

const organization = (count: number) => eg.largeOrganization(admin, count);

function renderUsers(users: User[]) {
  const session = fakeSession(eg.registerResponse({ realm_users: users, is_admin: true }));
  const Wrapper = session.wrapper;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <Wrapper>{children}</Wrapper>
    </MemoryRouter>
  );
  return render(<AdminView section="users" />, { wrapper });
}

const table = () => screen.getByRole('table', { name: 'People in the organization' });
/** The people's rows in the document (the header row and the stand-ins are not). */
const personRows = () => within(table()).queryAllByRole('rowheader');
const search = (text: string) =>
  fireEvent.change(screen.getByRole('searchbox', { name: 'Search people' }), {
    target: { value: text },
  });

describe('the users of a large organization', () => {
  it('renders only the rows in view, finds the last person by name, and tells the full length', () => {
    renderUsers(organization(10_000));
    expect(screen.getByRole('tab', { name: /^Active/ }).textContent).toBe('Active (10000)');
    const rows = personRows();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(200);
    expect(rows[0]!.textContent).toContain('Person 00001');
    expect(table().getAttribute('aria-rowcount')).toBe('10001');
    expect(rows[0]!.closest('tr')!.getAttribute('aria-rowindex')).toBe('2');
    expect(within(table()).queryByText('Zacharias Zwölf')).toBeNull();

    search('zachar');
    expect(personRows().map((row) => row.textContent)).toEqual(['Zacharias Zwölf']);
    expect(table().getAttribute('aria-rowcount')).toBe('2');
    // Its dialogs open from the row.
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Zacharias Zwölf' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Deactivate' }));
    expect(screen.getByRole('dialog', { name: 'Deactivate Zacharias Zwölf?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    search('person 0');
    expect(table().getAttribute('aria-rowcount')).toBe('9999');
    search('nobody by this name');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('Nobody matches this search.')).toBeTruthy();
  }, 60_000);
});
