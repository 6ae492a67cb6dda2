import { expect, test } from '@playwright/test';
import { apiClient, logIn, PASSWORD } from './helpers';
import { linkIn, MailCatcher } from './mail-catcher';
import { ServerProcess } from './server';

/**
 * Mail that leaves the server: a real SMTP server on this machine receives it (PARLEY_SMTP_URL),
 * and each scenario reads the delivered mail and follows its link in the browser, as the person
 * it was for would. Missed messages wait one second here (PARLEY_MISSED_MESSAGE_DELAY).
 */
const catcher = new MailCatcher();
const env: Record<string, string> = { PARLEY_MISSED_MESSAGE_DELAY: '1' };
const server = new ServerProcess(undefined, env);

test.beforeAll(async () => {
  await catcher.start();
  env.PARLEY_SMTP_URL = catcher.url;
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
  await catcher.stop();
});

test('an invitation arrives by mail, and its link signs the newcomer up', async ({ browser }) => {
  const iago = await apiClient(server.url, 'iago@example.com');
  const sent = await iago.post('/invites', {
    invitee_emails: 'miranda@example.com',
    stream_ids: '[]',
  });
  expect(sent.result).toBe('success');
  const mail = await catcher.waitFor('miranda@example.com', /invited you to join/);
  expect(mail.html).toContain('Join Parley Demo');

  const page = await browser.newPage({ baseURL: server.url });
  await page.goto(linkIn(mail, /\/join\//));
  await page.getByLabel('Full name').fill('Miranda');
  await page.getByLabel('Password').fill('the-tempest-1611');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to Parley Demo' })).toBeVisible();
});

test('a forgotten password is reset from the login page by a mailed link that works once', async ({
  browser,
}) => {
  const page = await browser.newPage({ baseURL: server.url });
  await page.goto('/');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email').fill('polonius@example.com');
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  const mail = await catcher.waitFor('polonius@example.com', /Reset your password/);
  const link = linkIn(mail, /\/accounts\/password\/reset\/[0-9a-f]+/);
  await page.goto(link);
  await page.getByLabel('New password').fill('neither-a-borrower');
  await page.getByRole('button', { name: 'Set the password' }).click();
  await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();

  // The new password logs in; the link is spent.
  await page.getByRole('link', { name: 'Log in to Parley' }).click();
  await page.getByLabel('Email').fill('polonius@example.com');
  await page.getByLabel('Password').fill('neither-a-borrower');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  const again = await browser.newPage({ baseURL: server.url });
  await again.goto(link);
  await expect(again.getByRole('heading', { name: 'Link used or expired' })).toBeVisible();
});

test('a login is told by mail, and the mail opens the organization', async ({ browser }) => {
  const page = await browser.newPage({ baseURL: server.url });
  await page.goto('/');
  await page.getByLabel('Email').fill('shiva@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();

  const mail = await catcher.waitFor('shiva@example.com', /New login/);
  expect(mail.text).toContain('Client: Chrome (Linux)');
  expect(mail.text).toContain('IP address: 127.0.0.1');
  await page.goto(linkIn(mail, /\/$/));
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
});

test('a direct message left unread is mailed, and the mail opens the conversation', async ({
  browser,
}) => {
  const othello = await apiClient(server.url, 'othello@example.com');
  const hamlet = await apiClient(server.url, 'hamlet@example.com');
  const sent = await hamlet.post('/messages', {
    type: 'direct',
    to: JSON.stringify([othello.userId]),
    content: 'Meet me by the **castle** gate at nine.',
  });
  expect(sent.result).toBe('success');

  const mail = await catcher.waitFor('othello@example.com', /Direct messages from King Hamlet/);
  expect(mail.text).toContain('Meet me by the **castle** gate at nine.');
  expect(mail.html).toContain('<strong>castle</strong>');
  const page = await logIn(browser, server.url, 'othello@example.com', {
    path: linkIn(mail, /#narrow\/dm\//),
  });
  await expect(page.getByRole('heading', { name: /King Hamlet/, level: 1 })).toBeVisible();
  await expect(page.getByText('Meet me by the castle gate at nine.')).toBeVisible();

  // The administrators' list shows the mail as sent.
  const iago = await logIn(browser, server.url, 'iago@example.com', { path: '/organization/mail' });
  const list = iago.getByRole('list', { name: 'Outgoing mail' });
  const row = list
    .getByRole('listitem')
    .filter({ hasText: 'Direct messages from King Hamlet' })
    .first();
  await expect(row).toContainText('To othello@example.com · Missed messages');
  await expect(row).toContainText(/Sent /);
  await row.getByRole('button', { name: 'Direct messages from King Hamlet' }).click();
  await expect(row.getByRole('link', { name: /#narrow\/dm\// })).toBeVisible();
});
