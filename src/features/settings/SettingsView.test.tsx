import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { REFERENCE_LANGUAGE_CODES } from '../../i18n';
import { defaultUserSettings } from '../../api/model/user-settings';
import { ROLE } from '../../api/model/user';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { AdminView } from '../admin/AdminView';
import { SettingsView } from './SettingsView';

/** The settings pages link between their sections, so they render inside a router. */
function routed(wrapper: (props: { children: ReactNode }) => ReactNode) {
  const Wrapper = wrapper;
  return ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <Wrapper>{children}</Wrapper>
    </MemoryRouter>
  );
}

afterEach(cleanup);

/** Room for a loaded machine: the preferences render every time zone. */
const SLOW = { timeout: 5000 };

/** The settings row that holds a control, where its confirmation or error shows. */
const rowOf = (control: HTMLElement) => control.closest('.settings-row') as HTMLElement;

// The preferences render every time zone; a loaded machine needs more than the default 5s.
describe('SettingsView', { timeout: 20_000 }, () => {
  it('confirms a choice beside it once the server has saved it', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({});
    render(<SettingsView section="preferences" />, { wrapper: routed(wrapper) });

    const select = screen.getByRole('combobox', { name: 'Time format' });
    fireEvent.change(select, { target: { value: 'true' } });
    expect(await within(rowOf(select)).findByText('Saved', {}, SLOW)).toBeTruthy();
    expect(fake.last.body.get('twenty_four_hour_time')).toBe('true');
  });

  it("shows the server's refusal at the control that was changed, and only there", async () => {
    const { fake, wrapper } = fakeSession();
    fake.respondError('BAD_REQUEST', 'Setting not allowed');
    render(<SettingsView section="preferences" />, { wrapper: routed(wrapper) });

    const toggle = screen.getByRole('checkbox', { name: 'Enter sends the message' });
    fireEvent.click(toggle);
    const alert = await within(rowOf(toggle)).findByRole('alert', {}, SLOW);
    expect(alert.textContent).toBe('Setting not allowed');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('shows a setting changed elsewhere as soon as its event arrives', () => {
    const { session, wrapper } = fakeSession();
    render(<SettingsView section="notifications" />, { wrapper: routed(wrapper) });
    const channels = screen.getByRole('region', { name: 'Channels' });
    const desktop = within(channels).getByRole('checkbox', { name: 'Desktop notifications' });
    expect((desktop as HTMLInputElement).checked).toBe(false);

    act(() =>
      session.state
        .getState()
        .store!.getState()
        .eventsReceived([
          {
            id: 1,
            type: 'user_settings',
            op: 'update',
            property: 'enable_stream_desktop_notifications',
            value: true,
          },
        ]),
    );
    expect((desktop as HTMLInputElement).checked).toBe(true);
  });

  it('offers the languages of the interface, the sounds of the server and silence', () => {
    const register = eg.registerResponse({
      user_settings: {
        ...defaultUserSettings(),
        available_notification_sounds: ['zulip', 'ding'],
        emojiset_choices: [],
      },
    });
    const { wrapper } = fakeSession(register);
    const { unmount } = render(<SettingsView section="preferences" />, {
      wrapper: routed(wrapper),
    });
    const language = screen.getByRole('combobox', { name: 'Language' });
    const languages = within(language)
      .getAllByRole('option')
      .map((o) => o.textContent);
    // Every language the reference offers, each by its own name.
    expect(languages).toHaveLength(REFERENCE_LANGUAGE_CODES.length);
    for (const name of [
      'English',
      'Deutsch',
      'Français',
      'Русский',
      '日本語',
      '简体中文',
      'Italiano',
    ])
      expect(languages).toContain(name);
    unmount();

    render(<SettingsView section="notifications" />, { wrapper: routed(wrapper) });
    const sound = screen.getByRole('combobox', { name: 'Notification sound' });
    expect(
      within(sound)
        .getAllByRole('option')
        .map((o) => (o as HTMLOptionElement).value),
    ).toEqual(['zulip', 'ding', 'none']);
  });

  it('saves the automatic time zone as the empty value', async () => {
    const register = eg.registerResponse({
      user_settings: {
        ...defaultUserSettings(),
        timezone: 'Europe/Berlin',
        available_notification_sounds: ['zulip'],
        emojiset_choices: [],
      },
    });
    const { fake, wrapper } = fakeSession(register);
    fake.respond({});
    render(<SettingsView section="preferences" />, { wrapper: routed(wrapper) });
    const zone = screen.getByRole('combobox', { name: 'Time zone' }) as HTMLSelectElement;
    expect(zone.value).toBe('Europe/Berlin');
    fireEvent.change(zone, { target: { value: '' } });
    expect(await within(rowOf(zone)).findByText('Saved', {}, SLOW)).toBeTruthy();
    expect(fake.last.body.get('timezone')).toBe('');
  });

  it('adds and removes alert words through their own endpoints', async () => {
    const { fake, session, wrapper } = fakeSession(eg.registerResponse({ alert_words: ['lunch'] }));
    render(<SettingsView section="notifications" />, { wrapper: routed(wrapper) });
    const list = screen.getByRole('list', { name: 'Your alert words' });
    expect(within(list).getByText('lunch')).toBeTruthy();

    fake.respond({ alert_words: ['lunch', 'deploy'] });
    fireEvent.change(screen.getByRole('textbox', { name: 'New alert word' }), {
      target: { value: ' deploy ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add alert word' }));
    await screen.findByText('Saved', {}, SLOW);
    expect(fake.last.method).toBe('POST');
    expect(fake.last.path).toBe('/api/v1/users/me/alert_words');
    expect(fake.last.body.get('alert_words')).toBe('["deploy"]');

    // The list follows the store: the alert_words event brings the new word.
    act(() =>
      session.state
        .getState()
        .store!.getState()
        .eventsReceived([{ id: 1, type: 'alert_words', alert_words: ['lunch', 'deploy'] }]),
    );
    expect(within(list).getByText('deploy')).toBeTruthy();

    fake.respond({ alert_words: ['deploy'] });
    fireEvent.click(screen.getByRole('button', { name: 'Remove lunch' }));
    await screen.findByText('Saved', {}, SLOW);
    expect(fake.last.method).toBe('DELETE');
    expect(fake.last.body.get('alert_words')).toBe('["lunch"]');
  });

  it('says that a confirmation was mailed, or why the address was refused', async () => {
    const { fake, wrapper } = fakeSession();
    render(<SettingsView section="account" />, { wrapper: routed(wrapper) });
    const input = screen.getByLabelText('New address');

    fake.respondError('BAD_REQUEST', "Invalid email 'nope'");
    fireEvent.change(input, { target: { value: 'nope' } });
    fireEvent.submit(input.closest('form')!);
    expect((await within(rowOf(input)).findByRole('alert', {}, SLOW)).textContent).toBe(
      "Invalid email 'nope'",
    );

    fake.respond({});
    fireEvent.change(input, { target: { value: 'new@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change email' }));
    expect(
      await within(rowOf(input)).findByText(/Check your inbox at new@example.com/, {}, SLOW),
    ).toBeTruthy();
    expect(fake.last.body.get('email')).toBe('new@example.com');
  });

  it("asks before deactivating the account, and shows the server's refusal in the dialog", async () => {
    const { fake, wrapper } = fakeSession();
    render(<SettingsView section="account" />, { wrapper: routed(wrapper) });
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate account' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Deactivate your account?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.requests).toHaveLength(0);

    fake.respondError(
      'CANNOT_DEACTIVATE_LAST_USER',
      'Cannot deactivate the only organization owner',
      400,
      {
        is_last_owner: true,
        entity: 'organization owner',
      },
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect((await within(dialog).findByRole('alert', {}, SLOW)).textContent).toBe(
      'Cannot deactivate the only organization owner',
    );
    expect(fake.last.method).toBe('DELETE');
    expect(fake.last.path).toBe('/api/v1/users/me');

    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('tells an administrator why a deactivation was refused', async () => {
    const admin = { ...eg.selfUser, role: ROLE.ADMINISTRATOR, is_admin: true };
    const register = eg.registerResponse({
      realm_users: [admin, eg.otherUser, eg.thirdUser],
      is_admin: true,
    });
    const { fake, wrapper } = fakeSession(register);
    fake.respondError('BAD_REQUEST', 'Insufficient permission');
    render(<AdminView section="users" />, { wrapper: routed(wrapper) });

    fireEvent.click(screen.getByRole('button', { name: `Actions for ${eg.otherUser.full_name}` }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Deactivate' }));
    // The confirmation names the person; the refusal shows in it.
    const dialog = screen.getByRole('dialog', { name: `Deactivate ${eg.otherUser.full_name}?` });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect((await within(dialog).findByRole('alert', {}, SLOW)).textContent).toBe(
      'Insufficient permission',
    );
    expect(fake.last.path).toBe(`/api/v1/users/${eg.otherUser.user_id}`);
  });
});
