import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserGroup } from '../../api/model';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { GroupsView } from './GroupsView';

const everyone: UserGroup = {
  id: 1,
  name: 'role:everyone',
  description: '',
  members: [1, 2, 3],
  direct_subgroup_ids: [],
  is_system_group: true,
};
const support: UserGroup = {
  id: 10,
  name: 'support',
  description: 'Helps customers',
  members: [eg.selfUser.user_id],
  direct_subgroup_ids: [],
  is_system_group: false,
  can_mention_group: 1,
};
const design: UserGroup = { ...support, id: 11, name: 'design', description: '', members: [2] };

function setup() {
  const session = fakeSession(
    eg.registerResponse({
      realm_user_groups: [everyone, support, design],
      realm_user_group_edit_policy: 1,
    }),
  );
  const routed = ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <session.wrapper>{children}</session.wrapper>
    </MemoryRouter>
  );
  return { ...session, routed };
}

afterEach(cleanup);

describe('the user groups list', () => {
  it("shows the user's groups, then all, and never the role groups", () => {
    const { routed } = setup();
    render(<GroupsView path={undefined} />, { wrapper: routed });
    const list = () => within(screen.getByRole('tabpanel')).getAllByRole('link');
    expect(list().map((l) => l.textContent)).toEqual(['support']);
    fireEvent.click(screen.getByRole('tab', { name: 'All groups' }));
    expect(list().map((l) => l.textContent)).toEqual(['design', 'support']);
    expect(screen.queryByText('role:everyone')).toBeNull();
  });

  it('follows group events: a new group appears, a removed one goes', () => {
    const { routed, store } = setup();
    render(<GroupsView path={undefined} />, { wrapper: routed });
    act(() =>
      store().eventsReceived([
        {
          id: 1,
          type: 'user_group',
          op: 'add',
          group: { ...design, id: 12, name: 'writers', members: [eg.selfUser.user_id] },
        },
        { id: 2, type: 'user_group', op: 'remove', group_id: 10 },
      ]),
    );
    const links = within(screen.getByRole('tabpanel')).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['writers']);
  });
});

describe("a group's panel", () => {
  it("offers a member the edit controls, and shows the server's refusal beside the control", async () => {
    const { routed, fake } = setup();
    fake.respondError('BAD_REQUEST', "User group 'design' already exists.");
    render(<GroupsView path={['10']} />, { wrapper: routed });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'design' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const form = screen.getByRole('form', { name: 'About' });
    expect((await within(form).findByRole('alert')).textContent).toBe(
      "User group 'design' already exists.",
    );
    expect(fake.last.method).toBe('PATCH');
    expect(fake.last.url).toContain('/user_groups/10');
    expect(fake.last.body.get('name')).toBe('design');
    expect(fake.last.body.get('description')).toBeNull();
  });

  it('removes a member with the server, and shows a non-member no edit controls', async () => {
    const { routed, fake } = setup();
    fake.respond({});
    const { unmount } = render(<GroupsView path={['10']} />, { wrapper: routed });
    fireEvent.click(screen.getByRole('button', { name: 'Remove Self User from the group' }));
    await within(screen.getByRole('list', { name: 'Members of support' })).findByText('Saved');
    expect(fake.last.url).toContain('/user_groups/10/members');
    expect(fake.last.body.get('delete')).toBe(`[${eg.selfUser.user_id}]`);
    unmount();

    render(<GroupsView path={['11']} />, { wrapper: routed });
    expect(screen.getByRole('note').textContent).toContain('Only the group');
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete group' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Add a member' })).toBeNull();
  });

  it('deletes only after the confirmation', async () => {
    const { routed, fake } = setup();
    fake.respond({});
    render(<GroupsView path={['10']} />, { wrapper: routed });
    fireEvent.click(screen.getByRole('button', { name: 'Delete group' }));
    expect(fake.requests).toHaveLength(0);
    const dialog = screen.getByRole('dialog', { name: 'Delete support?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await act(async () => {});
    expect(fake.last.method).toBe('DELETE');
    expect(fake.last.url).toContain('/user_groups/10');
  });
});
