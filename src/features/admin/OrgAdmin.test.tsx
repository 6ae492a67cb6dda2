import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { CustomProfileField, RegisterResponse } from '../../api/model';
import { ROLE } from '../../api/model/user';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { AdminView } from './AdminView';

afterEach(cleanup);

function routed(wrapper: (props: { children: ReactNode }) => ReactNode) {
  const Wrapper = wrapper;
  return ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <Wrapper>{children}</Wrapper>
    </MemoryRouter>
  );
}

const owner = { ...eg.selfUser, role: ROLE.OWNER, is_admin: true, is_owner: true };
const admin = { ...eg.selfUser, role: ROLE.ADMINISTRATOR, is_admin: true };
const member = { ...eg.selfUser, role: ROLE.MEMBER };

function session(self: typeof eg.selfUser, overrides: Partial<RegisterResponse> = {}) {
  return fakeSession(
    eg.registerResponse({
      realm_users: [self, eg.otherUser, eg.thirdUser],
      realm_mandatory_topics: false,
      realm_message_content_edit_limit_seconds: 600,
      realm_add_custom_emoji_policy: 1,
      realm_invite_required: false,
      ...overrides,
    } as Partial<RegisterResponse>),
  );
}

const rowOf = (control: HTMLElement) => control.closest('.settings-row, form') as HTMLElement;

const field = (id: number, name: string, summary = false): CustomProfileField => ({
  id,
  name,
  type: 1,
  order: id,
  hint: '',
  field_data: '',
  display_in_profile_summary: summary,
});

describe('organization settings', () => {
  it('saves a toggle at once with PATCH /realm and confirms beside it', async () => {
    const { fake, wrapper } = session(owner);
    fake.respond({});
    render(<AdminView section="settings" />, { wrapper: routed(wrapper) });
    const toggle = screen.getByRole('checkbox', { name: 'Require topics in channel messages' });
    fireEvent.click(toggle);
    expect(await within(rowOf(toggle)).findByText('Saved')).toBeTruthy();
    expect(fake.last.method).toBe('PATCH');
    expect(fake.last.url).toMatch(/\/realm$/);
    expect(fake.last.body.get('mandatory_topics')).toBe('true');
  });

  it("shows the server's refusal at the control", async () => {
    const { fake, wrapper } = session(owner);
    fake.respondError('BAD_REQUEST', 'Must be an organization administrator');
    render(<AdminView section="settings" />, { wrapper: routed(wrapper) });
    const limit = screen.getByLabelText('Time limit for editing messages');
    fireEvent.change(limit, { target: { value: 'none' } });
    const alert = await within(rowOf(limit)).findByRole('alert');
    expect(alert.textContent).toBe('Must be an organization administrator');
    expect(fake.last.body.get('message_content_edit_limit_seconds')).toBe('unlimited');
  });

  it('follows realm events from other windows', () => {
    const { store, wrapper } = session(owner);
    render(<AdminView section="settings" />, { wrapper: routed(wrapper) });
    const toggle = screen.getByRole('checkbox', { name: 'Require topics in channel messages' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    act(() =>
      store().eventsReceived([
        {
          id: 1,
          type: 'realm',
          op: 'update_dict',
          property: 'default',
          data: { mandatory_topics: true },
        },
      ]),
    );
    expect((toggle as HTMLInputElement).checked).toBe(true);
  });

  it('lets a member read but not change, and keeps owner-only settings from administrators', () => {
    const { wrapper } = session(member);
    render(<AdminView section="permissions" />, { wrapper: routed(wrapper) });
    expect(screen.getByText(/Only administrators can change these settings/)).toBeTruthy();
    expect(screen.getByLabelText<HTMLSelectElement>('Who can add custom emoji').disabled).toBe(
      true,
    );
    cleanup();
    const asAdmin = session(admin);
    render(<AdminView section="permissions" />, { wrapper: routed(asAdmin.wrapper) });
    const required = screen.getByRole<HTMLInputElement>('checkbox', {
      name: 'Invitations are required for joining',
    });
    expect(required.disabled).toBe(true);
    expect(rowOf(required).textContent).toContain(
      'Only organization owners can change this setting.',
    );
    expect(screen.getByLabelText<HTMLSelectElement>('Who can add custom emoji').disabled).toBe(
      false,
    );
  });
});

describe('custom profile fields', () => {
  it('disables "display in profile summary" when two fields already use it', () => {
    const { wrapper } = session(owner, {
      custom_profile_fields: [field(1, 'Pronouns', true), field(2, 'Team', true)],
    });
    render(<AdminView section="profile-fields" />, { wrapper: routed(wrapper) });
    fireEvent.click(screen.getByRole('button', { name: 'Add a profile field' }));
    const box = screen.getByRole<HTMLInputElement>('checkbox', {
      name: 'Display in profile summary',
    });
    expect(box.disabled).toBe(true);
    expect(screen.getByText(/already shows 2 fields, the most it can/)).toBeTruthy();
  });

  it('creates a choice field with its options in order', async () => {
    const { fake, wrapper } = session(owner);
    fake.respond({ id: 9 });
    render(<AdminView section="profile-fields" />, { wrapper: routed(wrapper) });
    fireEvent.click(screen.getByRole('button', { name: 'Add a profile field' }));
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Label'), { target: { value: 'Team' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Option 1' }), {
      target: { value: 'Design' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Option 2' }), {
      target: { value: 'Sales' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add field' }));
    await screen.findByRole('button', { name: 'Add a profile field' });
    expect(fake.last.body.get('field_type')).toBe('3');
    expect(JSON.parse(fake.last.body.get('field_data')!)).toEqual({
      0: { text: 'Design', order: '1' },
      1: { text: 'Sales', order: '2' },
    });
  });

  it('moves a field down by sending the whole new order', async () => {
    const { fake, wrapper } = session(owner, {
      custom_profile_fields: [field(1, 'Pronouns'), field(2, 'Team'), field(3, 'Office')],
    });
    fake.respond({});
    render(<AdminView section="profile-fields" />, { wrapper: routed(wrapper) });
    fireEvent.click(screen.getByRole('button', { name: 'Move Pronouns down' }));
    await act(async () => {});
    expect(fake.last.body.get('order')).toBe('[2,1,3]');
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Move Pronouns up' }).disabled,
    ).toBe(false);
  });
});

describe('custom emoji', () => {
  it('offers adding only when the organization allows it', () => {
    const allowed = session(member);
    render(<AdminView section="emoji" />, { wrapper: routed(allowed.wrapper) });
    expect(screen.queryByRole('button', { name: 'Add custom emoji' })).toBeTruthy();
    cleanup();
    const refused = session(member, {
      realm_add_custom_emoji_policy: 2,
    } as Partial<RegisterResponse>);
    render(<AdminView section="emoji" />, { wrapper: routed(refused.wrapper) });
    expect(screen.queryByRole('button', { name: 'Add custom emoji' })).toBeNull();
  });
});
