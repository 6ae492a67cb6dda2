import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../actions/users.js';
import { ROLE } from '../domain/roles.js';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { TestClient } from './client.js';
import { queuedMails } from './mailbox.js';

/**
 * The sign-up findings: a reusable invitation link let anyone create an account under any
 * address (even one with a pending email invitation) without owning it, and invitations outlived
 * the administrator who made them. Now a reusable link mails a confirmation link to the address
 * typed, and only that link creates the account; every step refuses a dead invitation.
 */

describe.each(DATABASES)('sign-up through invitations on %s', (db) => {
  let server: TestServer;
  let c: Record<'desdemona' | 'iago', TestClient>;
  let engineering: number;

  const outbox = () => queuedMails(server);
  const mailsTo = async (email: string) => (await outbox()).filter((m) => m.to === email);
  /** GET (no form) or POST (a form) a server-rendered page, by the path of a link. */
  const visit = async (link: string, form?: Record<string, string>) => {
    const res = await fetch(
      `${server.url}${new URL(link, server.url).pathname}`,
      form
        ? {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(form).toString(),
          }
        : {},
    );
    return { status: res.status, text: await res.text() };
  };
  const canLogIn = async (email: string, password: string) =>
    (await new TestClient(server.url).post('/fetch_api_key', { username: email, password }))
      .status === 200;
  const reusableLink = async (by: TestClient, inviteAs: number) => {
    const r = await by.post('/invites/multiuse', {
      invite_as: inviteAs,
      stream_ids: [engineering],
      include_realm_default_subscriptions: 'false',
    });
    expect(r.status).toBe(200);
    return r.body.invite_link as string;
  };
  const confirmationFor = async (email: string) => {
    const link = (await mailsTo(email))
      .map((m) => m.link)
      .filter((l) => l.includes('/accounts/do_confirm/'))
      .pop();
    expect(link, `a confirmation mail to ${email}`).toBeDefined();
    return link!;
  };
  /** A new administrator who can later be deactivated without disturbing the demo cast. */
  const newAdmin = async (name: string) => {
    const realm = await server.ctx.db
      .selectFrom('realms')
      .selectAll()
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const user = await createUser(server.ctx, realm, {
      email: `${name}@example.com`,
      fullName: name,
      password: `${name}-password`,
      role: ROLE.ADMINISTRATOR,
    });
    return {
      id: user.id,
      client: await TestClient.login(server.url, `${name}@example.com`, `${name}-password`),
    };
  };

  beforeAll(async () => {
    server = await startTestServer({ db });
    c = {
      desdemona: await TestClient.login(server.url, 'desdemona@example.com', DEMO_PASSWORD),
      iago: await TestClient.login(server.url, 'iago@example.com', DEMO_PASSWORD),
    };
    engineering = (await c.iago.get('/get_stream_id', { stream: 'engineering' })).body.stream_id;
  });
  afterAll(() => server?.close());

  it('(finding 11) a reusable link signs no one up under an address they have not shown they own', async () => {
    const link = await reusableLink(c.iago, ROLE.MODERATOR);
    expect(
      (
        await c.iago.post('/invites', {
          invitee_emails: 'pending@victim-company.example',
          stream_ids: [],
        })
      ).status,
    ).toBe(200);

    for (const email of ['ceo@victim-company.example', 'pending@victim-company.example']) {
      const page = await visit(link, { email, full_name: 'Mallory', password: 'taken-over!' });
      expect(await canLogIn(email, 'taken-over!'), `${email} logs in`).toBe(false);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Check your email');
      expect(page.text).not.toContain('is ready');
    }
    const pending = (await c.iago.get('/invites')).body.invites.map((i: any) => i.email);
    expect(pending).toContain('pending@victim-company.example');
    expect(await confirmationFor('ceo@victim-company.example')).toMatch(
      /\/accounts\/do_confirm\/[0-9a-f]{64}\/$/,
    );
  });

  it('the form of a reusable link asks for the address only', async () => {
    const html = (await visit(await reusableLink(c.iago, ROLE.MEMBER))).text;
    expect(html).toContain('name="email"');
    expect(html).not.toContain('name="password"');
    expect(html).not.toContain('name="full_name"');
  });

  it('the confirmation link asks for a name and password and creates the account with the role and streams, once', async () => {
    const link = await confirmationFor('ceo@victim-company.example');
    const form = await visit(link);
    expect(form.status).toBe(200);
    expect(form.text).toContain('ceo@victim-company.example');
    expect(form.text).toContain('name="full_name"');
    expect(form.text).toContain('name="password"');
    expect(form.text).not.toContain('name="email"');

    expect((await visit(link, { full_name: 'The CEO', password: 'short' })).status).toBe(400);
    const done = await visit(link, { full_name: 'The CEO', password: 'the-real-owner' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('is ready');
    const ceo = await TestClient.login(server.url, 'ceo@victim-company.example', 'the-real-owner');
    expect((await ceo.get('/users/me')).body).toMatchObject({
      role: ROLE.MODERATOR,
      full_name: 'The CEO',
    });
    expect(
      (await ceo.get('/users/me/subscriptions')).body.subscriptions.map((s: any) => s.name),
    ).toEqual(['engineering']);

    expect((await visit(link)).status).toBe(404);
    expect((await visit(link, { full_name: 'Again', password: 'the-real-owner' })).status).toBe(
      404,
    );
  });

  it('tells an address that has an account so by mail, and answers the form exactly as for a new one', async () => {
    const link = await reusableLink(c.iago, ROLE.MEMBER);
    const known = await visit(link, { email: 'othello@example.com' });
    const unknown = await visit(link, { email: 'newcomer@example.com' });
    expect(known.status).toBe(unknown.status);
    expect(known.text.replaceAll('othello@example.com', 'X')).toBe(
      unknown.text.replaceAll('newcomer@example.com', 'X'),
    );

    const mails = await mailsTo('othello@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/already have an account/);
    expect(mails[0].link).toBe(`${server.ctx.config.externalUrl}/`);
    expect(await confirmationFor('newcomer@example.com')).toBeTruthy();

    const bad = await visit(link, { email: 'not-an-address' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('role="alert"');
  });

  it('refuses a confirmation link that expired, or whose invitation was revoked or whose inviter left', async () => {
    const link = await reusableLink(c.iago, ROLE.MEMBER);
    await visit(link, { email: 'late@example.com' });
    await server.ctx.db
      .updateTable('signup_confirmations')
      .set({ expiry: 1 })
      .where('email', '=', 'late@example.com')
      .execute();
    expect((await visit(await confirmationFor('late@example.com'))).status).toBe(404);
    expect(
      (
        await visit(await confirmationFor('late@example.com'), {
          full_name: 'Late',
          password: 'too-late-now',
        })
      ).status,
    ).toBe(404);

    await visit(link, { email: 'revoked@example.com' });
    const id = (await c.iago.get('/invites')).body.invites.find((i: any) => i.link_url === link).id;
    expect((await c.iago.delete(`/invites/multiuse/${id}`)).status).toBe(200);
    expect(
      (
        await visit(await confirmationFor('revoked@example.com'), {
          full_name: 'Revoked',
          password: 'revoked-pass',
        })
      ).status,
    ).toBe(404);

    const rosalind = await newAdmin('rosalind');
    await visit(await reusableLink(rosalind.client, ROLE.ADMINISTRATOR), {
      email: 'orphan@example.com',
    });
    const confirmation = await confirmationFor('orphan@example.com');
    expect((await c.desdemona.delete(`/users/${rosalind.id}`)).status).toBe(200);
    expect((await visit(confirmation)).status).toBe(404);
    expect(
      (await visit(confirmation, { full_name: 'Orphan', password: 'orphan-pass' })).status,
    ).toBe(404);
    const created = await server.ctx.db
      .selectFrom('users')
      .select('email')
      .where('email', 'in', ['late@example.com', 'revoked@example.com', 'orphan@example.com'])
      .execute();
    expect(created).toEqual([]);
  });

  it('an email invitation still creates the account straight from its link', async () => {
    expect(
      (
        await c.iago.post('/invites', {
          invitee_emails: 'direct@example.com',
          stream_ids: [engineering],
          invite_as: ROLE.MODERATOR,
        })
      ).status,
    ).toBe(200);
    const link = (await mailsTo('direct@example.com')).pop()!.link;
    const form = await visit(link);
    expect(form.text).toContain('name="password"');
    expect(form.text).not.toContain('name="email"');
    expect((await visit(link, { full_name: 'Direct', password: 'direct-pass' })).text).toContain(
      'is ready',
    );
    const direct = await TestClient.login(server.url, 'direct@example.com', 'direct-pass');
    expect((await direct.get('/users/me')).body.role).toBe(ROLE.MODERATOR);
  });

  it("(second round) a deactivated administrator's link and email invitation sign no one up", async () => {
    const gertrude = await newAdmin('gertrude');
    expect(
      (
        await gertrude.client.post('/invites', {
          invitee_emails: 'claudius@example.com',
          stream_ids: [],
          invite_as: ROLE.ADMINISTRATOR,
        })
      ).status,
    ).toBe(200);
    const emailLink = (await mailsTo('claudius@example.com')).pop()!.link;
    const reusable = await reusableLink(gertrude.client, ROLE.ADMINISTRATOR);
    expect((await c.desdemona.delete(`/users/${gertrude.id}`)).status).toBe(200);

    expect((await visit(emailLink)).status).toBe(404);
    expect(
      (await visit(emailLink, { full_name: 'Claudius', password: 'usurper-king' })).status,
    ).toBe(404);
    expect(await canLogIn('claudius@example.com', 'usurper-king')).toBe(false);

    expect((await visit(reusable)).status).toBe(404);
    const before = (await outbox()).length;
    expect(
      (
        await visit(reusable, {
          email: 'laertes@example.com',
          full_name: 'Laertes',
          password: 'usurper-king',
        })
      ).status,
    ).toBe(404);
    expect((await outbox()).length).toBe(before);
    expect(await canLogIn('laertes@example.com', 'usurper-king')).toBe(false);
  });
});
