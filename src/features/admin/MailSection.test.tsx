import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerSettings, User } from '../../api/model';
import { ROLE } from '../../api/model/user';
import type { OutgoingMail } from '../../api/extensions/mail-log';
import { accountKeys } from '../../queries/account';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { AdminView } from './AdminView';

afterEach(cleanup);

const admin: User = { ...eg.selfUser, role: ROLE.ADMINISTRATOR, is_admin: true };

const invitation: OutgoingMail = {
  id: 2,
  kind: 'invitation',
  to: 'new.person@example.com',
  subject: 'Self User invited you to Parley Demo',
  status: 'queued',
  created_at: 1_780_000_000,
  sent_at: null,
  attempts: 2,
  last_error: 'connect ECONNREFUSED 127.0.0.1:2525',
  text: 'Join here: https://chat.example.com/join/abc123/.\n<script>alert(1)</script>',
};
const reset: OutgoingMail = {
  ...invitation,
  id: 1,
  kind: 'password_reset',
  to: 'self@example.com',
  subject: 'Reset your password',
  status: 'sent',
  sent_at: 1_780_000_100,
  attempts: 1,
  last_error: null,
  text: 'https://chat.example.com/accounts/password/reset/xyz/',
};

/** AdminView over a server whose /server_settings announce `extensions`. */
function renderAdmin(section: string, extensions: string[] | undefined, configured = false) {
  const session = fakeSession(eg.registerResponse({ realm_users: [admin], is_admin: true }));
  session.queryClient.setQueryData(accountKeys.serverSettings, (settings?: ServerSettings) => ({
    ...settings!,
    parley_extensions: extensions,
  }));
  session.fake.respond({ mails: [invitation, reset], delivery_configured: configured });
  const Wrapper = session.wrapper;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <Wrapper>{children}</Wrapper>
    </MemoryRouter>
  );
  render(<AdminView section={section} />, { wrapper });
  return session;
}

describe('Administration › Outgoing mail', () => {
  it('lists the waiting and sent mail, and says that none leaves without a mail server', async () => {
    const session = renderAdmin('mail', ['mail_log']);
    const list = await screen.findByRole('list', { name: 'Outgoing mail' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Waiting; 2 attempts failed');
    expect(rows[0]!.textContent).toContain('To new.person@example.com · Invitation');
    expect(rows[0]!.textContent).toContain('Last attempt failed: connect ECONNREFUSED');
    expect(rows[1]!.textContent).toMatch(/^Reset your passwordSent /);
    expect(screen.getByText(/no mail server configured/)).toBeTruthy();
    expect(session.fake.requests.some((r) => r.path === '/api/v1/parley/mail')).toBe(true);
  });

  it('opens a mail to show its text, its addresses as links and its markup as text', async () => {
    renderAdmin('mail', ['mail_log'], true);
    const subject = await screen.findByRole('button', { name: invitation.subject });
    expect(subject.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: /join\/abc123/ })).toBeNull();
    fireEvent.click(subject);
    expect(subject.getAttribute('aria-expanded')).toBe('true');
    const link = screen.getByRole('link', { name: 'https://chat.example.com/join/abc123/' });
    // the sentence's full stop is not part of the address
    expect(link.getAttribute('href')).toBe('https://chat.example.com/join/abc123/');
    expect(document.querySelector('.admin-mail-text script')).toBeNull();
    expect(screen.getByText(/<script>alert\(1\)<\/script>/)).toBeTruthy();
    expect(screen.queryByText(/no mail server configured/)).toBeNull();
  });

  it('is offered only by a server that announces it', async () => {
    renderAdmin('bots', undefined);
    await screen.findAllByRole('link', { name: 'Bots' });
    expect(screen.queryByRole('link', { name: 'Outgoing mail' })).toBeNull();
    cleanup();
    renderAdmin('bots', ['mail_log']);
    expect(await screen.findByRole('link', { name: 'Outgoing mail' })).toBeTruthy();
  });
});
