import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { useProfileCard } from './card-store';
import { ProfileCardLayer } from './ProfileCardLayer';
import { PersonTrigger } from './PersonTrigger';

afterEach(() => {
  cleanup();
  useProfileCard.getState().close();
});

const other = eg.user({
  user_id: 2,
  email: 'ann@example.com',
  delivery_email: null,
  full_name: 'Ann Other',
  role: 300,
  timezone: 'Europe/Berlin',
  profile_data: { 7: { value: 'she/her' } },
});

function setUp() {
  const register = {
    ...eg.registerResponse(),
    realm_users: [eg.selfUser, other],
    custom_profile_fields: [
      {
        id: 7,
        type: 8 as const,
        order: 1,
        name: 'Pronouns',
        hint: '',
        field_data: '',
        display_in_profile_summary: true,
      },
    ],
  };
  const session = fakeSession(register);
  render(
    <MemoryRouter>
      <PersonTrigger userId={2}>Ann Other</PersonTrigger>
      <p className="message-content">
        <span className="user-mention" data-user-id="2">
          @Ann Other
        </span>
      </p>
      <ProfileCardLayer />
    </MemoryRouter>,
    { wrapper: session.wrapper },
  );
  return session;
}

describe('the profile card', () => {
  it('opens from a name with role, address, summary fields and actions; Escape closes it', async () => {
    setUp();
    const trigger = screen.getByRole('button', { name: 'Ann Other' });
    fireEvent.click(trigger);
    const card = await screen.findByRole('dialog', { name: 'Ann Other' });
    expect(card.textContent).toContain('Moderator');
    expect(card.textContent).toContain('ann@example.com');
    expect(card.textContent).toContain('she/her');
    expect(card.textContent).toContain('Local time');
    expect(screen.getByRole('link', { name: 'Send direct message' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View full profile' }).getAttribute('href')).toBe(
      '/user/2',
    );
    expect(document.activeElement).toBe(card);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('opens from a mention, closes on a click outside', async () => {
    setUp();
    fireEvent.click(screen.getByText('@Ann Other'));
    expect(await screen.findByRole('dialog', { name: 'Ann Other' })).toBeTruthy();
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('follows renames and status changes while open', async () => {
    const session = setUp();
    fireEvent.click(screen.getByRole('button', { name: 'Ann Other' }));
    act(() =>
      session.session.state
        .getState()
        .store!.getState()
        .eventsReceived([
          { id: 1, type: 'realm_user', op: 'update', person: { user_id: 2, full_name: 'Ann New' } },
          { id: 2, type: 'user_status', user_id: 2, status_text: 'On leave' },
        ]),
    );
    const card = await screen.findByRole('dialog', { name: 'Ann New' });
    expect(card.textContent).toContain('On leave');
  });
});
