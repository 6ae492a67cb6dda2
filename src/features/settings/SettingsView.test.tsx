import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ROLE } from '../../api/model/user';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { SettingsView } from './SettingsView';

afterEach(cleanup);

/** The settings row that holds a control, where its confirmation or error shows. */
const rowOf = (control: HTMLElement) => control.closest('.settings-row') as HTMLElement;

describe('SettingsView', () => {
  it('confirms a toggle beside it once the server has saved it', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({});
    render(<SettingsView />, { wrapper });

    const toggle = screen.getByRole('checkbox', { name: 'Show times in 24-hour format' });
    fireEvent.click(toggle);
    expect(await within(rowOf(toggle)).findByText('Saved')).toBeTruthy();
    expect(fake.last.body.get('twenty_four_hour_time')).toBe('true');
  });

  it("shows the server's refusal at the control that was changed, and only there", async () => {
    const { fake, wrapper } = fakeSession();
    fake.respondError('BAD_REQUEST', 'Setting not allowed');
    render(<SettingsView />, { wrapper });

    const toggle = screen.getByRole('checkbox', { name: 'Enter sends the message' });
    fireEvent.click(toggle);
    const alert = await within(rowOf(toggle)).findByRole('alert');
    expect(alert.textContent).toBe('Setting not allowed');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('tells an administrator why a deactivation was refused', async () => {
    const admin = { ...eg.selfUser, role: ROLE.ADMINISTRATOR, is_admin: true };
    const register = eg.registerResponse({
      realm_users: [admin, eg.otherUser, eg.thirdUser],
      is_admin: true,
    });
    const { fake, wrapper } = fakeSession(register);
    fake.respondError('BAD_REQUEST', 'Insufficient permission');
    render(<SettingsView />, { wrapper });

    fireEvent.click(screen.getByRole('button', { name: `Deactivate ${eg.otherUser.full_name}` }));
    expect((await screen.findByRole('alert')).textContent).toBe('Insufficient permission');
    expect(fake.last.path).toBe(`/api/v1/users/${eg.otherUser.user_id}`);
  });
});
