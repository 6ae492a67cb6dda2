import { describe, expect, it } from 'vitest';
import { drain, TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';
import { queuedMails } from './mailbox.js';

/** The people who may hear of invitations: the inviters and the administrators, and others. */
const NAMES = ['desdemona', 'iago', 'hamlet', 'othello', 'polonius'] as const;
type Name = (typeof NAMES)[number];

describe.each(databases('both'))('invitations on %s', (db) => {
  const w = useServer({ db, people: NAMES });
  const c = w.as;

  const outbox = () => queuedMails(w.server);
  const linkFor = async (email: string) =>
    (await outbox()).filter((m) => m.to === email).pop()!.link;
  const keyOf = (link: string) => new URL(link).pathname.split('/')[2];
  const join = (link: string, form?: Record<string, string>) =>
    fetch(
      `${w.server.url}${new URL(link).pathname}`,
      form
        ? {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(form).toString(),
          }
        : {},
    );
  const invite = (who: Name, params: Record<string, unknown>) =>
    c[who].post('/invites', { stream_ids: [], ...params });

  it('sends email invitations, mails the links and tells the inviter and the administrators', async () => {
    const queues = Object.fromEntries(
      await Promise.all(
        NAMES.map(async (n) => [
          n,
          (await c[n].post('/register', { event_types: ['invites_changed'] })).body.queue_id,
        ]),
      ),
    );
    const r = await invite('hamlet', {
      invitee_emails: 'rosencrantz@example.com,\nGuildenstern <guildenstern@example.com>',
      stream_ids: [w.stream.engineering],
    });
    expect(r.status).toBe(200);
    expect((await outbox()).map((m) => m.to)).toEqual(
      expect.arrayContaining(['rosencrantz@example.com', 'guildenstern@example.com']),
    );
    expect(await linkFor('rosencrantz@example.com')).toMatch(/\/join\/[0-9a-f]+\/$/);
    for (const n of ['hamlet', 'iago', 'desdemona'] as const)
      expect(await drain(c[n], queues[n]), n).toEqual([
        expect.objectContaining({ type: 'invites_changed' }),
      ]);
    expect(await drain(c.othello, queues.othello)).toEqual([]);
    const mine = (await c.hamlet.get('/invites')).body.invites;
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({
      email: 'rosencrantz@example.com',
      invited_as: 400,
      is_multiuse: false,
      notify_referrer_on_join: true,
    });
    expect(mine[0].expiry_date - mine[0].invited).toBe(14400 * 60);
    expect((await c.othello.get('/invites')).body.invites).toEqual([]);
    expect((await c.iago.get('/invites')).body.invites).toHaveLength(2);
    expect((await c.polonius.get('/invites')).body.msg).toBe('Not allowed for guest users');
  });

  it('reports addresses that cannot be invited', async () => {
    expect((await invite('hamlet', { invitee_emails: ' , ' })).body.msg).toBe(
      'You must specify at least one email address.',
    );
    const invalid = await invite('hamlet', { invitee_emails: 'ophelia@example.com, not-an-email' });
    expect(invalid.body).toMatchObject({
      code: 'INVITATION_FAILED',
      sent_invitations: false,
      errors: [['not-an-email', 'Invalid address.', false]],
    });
    expect((await outbox()).some((m) => m.to === 'ophelia@example.com')).toBe(false);
    const partly = await invite('hamlet', {
      invitee_emails: 'ophelia@example.com, othello@example.com',
    });
    expect(partly.body).toMatchObject({
      code: 'INVITATION_FAILED',
      sent_invitations: true,
      errors: [['othello@example.com', 'Already has an account.', false]],
    });
    expect((await outbox()).some((m) => m.to === 'ophelia@example.com')).toBe(true);
    expect((await invite('hamlet', { invitee_emails: 'iago@example.com' })).body).toMatchObject({
      msg: "We weren't able to invite anyone.",
      sent_invitations: false,
    });
    expect(
      (await c.hamlet.post('/invites', { invitee_emails: 'x@example.com' })).body,
    ).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'stream_ids' });
  });

  it('checks streams, roles, expiry and who may invite', async () => {
    expect(
      (await invite('hamlet', { invitee_emails: 'a@example.com', stream_ids: [99999] })).body.msg,
    ).toBe('Invalid channel ID 99999. No invites were sent.');
    expect(
      (await invite('othello', { invitee_emails: 'a@example.com', stream_ids: [w.stream.design] }))
        .body.msg,
    ).toBe(`Invalid channel ID ${w.stream.design}. No invites were sent.`);
    expect((await invite('polonius', { invitee_emails: 'a@example.com' })).body.msg).toBe(
      'Not allowed for guest users',
    );
    expect(
      (await invite('hamlet', { invitee_emails: 'a@example.com', invite_as: 200 })).body,
    ).toMatchObject({
      code: 'UNAUTHORIZED_PRINCIPAL',
      msg: 'Must be an organization administrator',
    });
    expect(
      (await invite('iago', { invitee_emails: 'a@example.com', invite_as: 100 })).body,
    ).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
    expect(
      (await invite('hamlet', { invitee_emails: 'a@example.com', invite_as: 300 })).body.msg,
    ).toBe('Insufficient permission');
    expect(
      (await invite('hamlet', { invitee_emails: 'a@example.com', invite_as: 500 })).status,
    ).toBe(400);
    expect(
      (await invite('hamlet', { invitee_emails: 'a@example.com', invite_expires_in_minutes: 0 }))
        .body.msg,
    ).toContain('invite_expires_in_minutes');
    expect(
      (
        await invite('hamlet', {
          invitee_emails: 'never@example.com',
          invite_expires_in_minutes: null,
        })
      ).status,
    ).toBe(200);
    const never = (await c.hamlet.get('/invites')).body.invites.find(
      (i: any) => i.email === 'never@example.com',
    );
    expect(never.expiry_date).toBeNull();

    for (const [policy, allowed] of [
      [2, ['iago']],
      [4, ['iago']],
      [6, []],
      [3, ['iago']],
    ] as const) {
      expect(
        (
          await c.desdemona.patch('/realm', {
            invite_to_realm_policy: String(policy),
            waiting_period_threshold: '1000',
          })
        ).status,
      ).toBe(200);
      for (const who of ['iago', 'hamlet'] as const) {
        const r = await invite(who, { invitee_emails: `p${policy}-${who}@example.com` });
        expect(r.status, `policy ${policy} ${who}`).toBe(
          (allowed as readonly string[]).includes(who) ? 200 : 400,
        );
      }
    }
    expect(
      (
        await c.desdemona.patch('/realm', {
          invite_to_realm_policy: '1',
          waiting_period_threshold: '0',
        })
      ).status,
    ).toBe(200);
  });

  it('revokes and resends email invitations it may manage', async () => {
    const [rosencrantz, guildenstern] = (await c.hamlet.get('/invites')).body.invites;
    expect((await c.othello.delete(`/invites/${rosencrantz.id}`)).body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });
    expect((await c.hamlet.delete('/invites/99999')).body.msg).toBe('No such invitation');
    const q = await c.hamlet.post('/register', { event_types: ['invites_changed'] });
    expect((await c.iago.delete(`/invites/${guildenstern.id}`)).status).toBe(200);
    expect(await drain(c.hamlet, q.body.queue_id)).toEqual([
      expect.objectContaining({ type: 'invites_changed' }),
    ]);
    expect((await c.hamlet.delete(`/invites/${guildenstern.id}`)).body.msg).toBe(
      'Invitation has already been revoked',
    );
    expect((await c.hamlet.post(`/invites/${guildenstern.id}/resend`)).body.msg).toBe(
      'Invitation has already been revoked',
    );
    expect((await c.hamlet.get('/invites')).body.invites.map((i: any) => i.id)).not.toContain(
      guildenstern.id,
    );

    const before = (await outbox()).filter((m) => m.to === 'rosencrantz@example.com').length;
    expect((await c.hamlet.post(`/invites/${rosencrantz.id}/resend`)).status).toBe(200);
    expect((await outbox()).filter((m) => m.to === 'rosencrantz@example.com').length).toBe(
      before + 1,
    );
    expect((await c.othello.post(`/invites/${rosencrantz.id}/resend`)).body.code).toBe(
      'BAD_REQUEST',
    );

    expect(
      (await invite('desdemona', { invitee_emails: 'heir@example.com', invite_as: 100 })).status,
    ).toBe(200);
    // Only owners see or manage invitations that make owners.
    expect((await c.iago.get('/invites')).body.invites.map((i: any) => i.email)).not.toContain(
      'heir@example.com',
    );
    const heir = (await c.desdemona.get('/invites')).body.invites.find(
      (i: any) => i.email === 'heir@example.com',
    );
    expect(heir).toMatchObject({ invited_as: 100 });
    expect((await c.iago.delete(`/invites/${heir.id}`)).body.msg).toBe(
      'Must be an organization owner',
    );
    expect((await c.iago.post(`/invites/${heir.id}/resend`)).body.msg).toBe(
      'Must be an organization owner',
    );
  });

  it('creates reusable links for the allowed group only', async () => {
    expect((await c.hamlet.post('/invites/multiuse', {})).body.msg).toBe('Insufficient permission');
    const r = await c.iago.post('/invites/multiuse', {
      invite_as: 600,
      stream_ids: [w.stream.welcome],
      invite_expires_in_minutes: 60,
    });
    expect(r.status).toBe(200);
    expect(r.body.invite_link).toMatch(/\/join\/[0-9a-f]+\/$/);
    const listed = (await c.iago.get('/invites')).body.invites.find((i: any) => i.is_multiuse);
    expect(listed).toMatchObject({ link_url: r.body.invite_link, invited_as: 600 });
    expect(listed.email).toBeUndefined();
    expect((await c.iago.post('/invites/multiuse', { stream_ids: [99999] })).body.msg).toBe(
      'Invalid channel ID 99999. No invites were sent.',
    );

    const groups = (await c.hamlet.post('/register', { fetch_event_types: ['realm_user_groups'] }))
      .body.realm_user_groups;
    const members = groups.find((g: any) => g.name === 'role:members').id;
    expect(
      (await c.desdemona.patch('/realm', { create_multiuse_invite_group: String(members) })).status,
    ).toBe(200);
    const mine = await c.hamlet.post('/invites/multiuse', {});
    expect(mine.status).toBe(200);
    expect((await c.polonius.post('/invites/multiuse', {})).body.msg).toBe(
      'Not allowed for guest users',
    );
    const id = (await c.hamlet.get('/invites')).body.invites.find((i: any) => i.is_multiuse).id;
    expect((await c.othello.delete(`/invites/multiuse/${id}`)).body.code).toBe('BAD_REQUEST');
    expect((await c.hamlet.delete(`/invites/${id}`)).body.msg).toBe('No such invitation');
    expect((await c.hamlet.delete(`/invites/multiuse/${id}`)).status).toBe(200);
    expect((await c.hamlet.delete(`/invites/multiuse/${id}`)).body.msg).toBe(
      'Invitation has already been revoked',
    );
    expect((await join(mine.body.invite_link)).status).toBe(404);
  });

  it('lets the invitee sign up from the link, with the invited role and streams', async () => {
    const link = await linkFor('rosencrantz@example.com');
    const page = await join(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('rosencrantz@example.com');
    expect(html).toContain('<form method="post">');
    const q = await c.hamlet.post('/register', { event_types: ['message', 'invites_changed'] });
    expect((await join(link, { full_name: 'Rosencrantz', password: 'short' })).status).toBe(400);
    const done = await join(link, { full_name: 'Rosencrantz', password: 'sweet-prince' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('is ready');
    const rosencrantz = await TestClient.login(
      w.server.url,
      'rosencrantz@example.com',
      'sweet-prince',
    );
    const subs = (await rosencrantz.get('/users/me/subscriptions')).body.subscriptions.map(
      (s: any) => s.name,
    );
    expect(subs).toEqual(['engineering']);
    expect((await rosencrantz.get('/users/me')).body.role).toBe(400);
    const events = await drain(c.hamlet, q.body.queue_id);
    expect(events.some((e) => e.type === 'invites_changed')).toBe(true);
    const notice = events.find((e) => e.type === 'message');
    expect(notice.message.sender_full_name).toBe('Notification Bot');
    expect(notice.message.content).toContain('accepted your invitation');
    expect((await c.hamlet.get('/invites')).body.invites.map((i: any) => i.email)).not.toContain(
      'rosencrantz@example.com',
    );
    expect((await join(link)).status).toBe(404);
    expect((await join(link, { full_name: 'Again', password: 'sweet-prince' })).status).toBe(404);
  });

  it('keeps a reusable link working for several people until it expires', async () => {
    const r = await c.iago.post('/invites/multiuse', {
      invite_as: 600,
      stream_ids: [w.stream.welcome],
      include_realm_default_subscriptions: 'true',
    });
    const link = r.body.invite_link as string;
    expect(await (await join(link)).text()).toContain('name="email"');
    for (const who of ['voltemand', 'cornelius']) {
      // The link's form takes the address; the account comes from the link mailed to it.
      expect((await join(link, { email: `${who}@example.com` })).status, who).toBe(200);
      const res = await join(await linkFor(`${who}@example.com`), {
        full_name: who,
        password: 'elsinore!',
      });
      expect(res.status, who).toBe(200);
      const client = await TestClient.login(w.server.url, `${who}@example.com`, 'elsinore!');
      expect((await client.get('/users/me')).body.role).toBe(600);
      expect(
        (await client.get('/users/me/subscriptions')).body.subscriptions
          .map((s: any) => s.name)
          .sort(),
      ).toEqual(['general', 'welcome']);
    }
    expect((await join(link, { email: 'voltemand@example.com' })).status).toBe(200);
    expect(await linkFor('voltemand@example.com')).toBe(`${w.server.url}/`); // told they have an account, not sent a second one
    expect((await join(link, { email: 'bad' })).status).toBe(400);
    await w.server.ctx.db
      .updateTable('invites')
      .set({ expiry: 1 })
      .where('link_key', '=', keyOf(link))
      .execute();
    expect((await join(link)).status).toBe(404);
    expect((await c.iago.get('/invites')).body.invites.map((i: any) => i.link_url)).not.toContain(
      link,
    );
    expect((await fetch(`${w.server.url}/join/not-a-key/`)).status).toBe(404);
  });
});
