import { page } from './site.js';
import {
  ACCOUNTS,
  accountsBut,
  bad,
  insufficient,
  membersOnly,
  refused,
  type Row,
} from './types.js';

/**
 * Invitations (zerver/views/invite.py, actions/invites.py) and the sign-up page their links open.
 * Everything is behind @require_member_or_admin; email invitations follow invite_to_realm_policy
 * (members, the default), reusable links create_multiuse_invite_group (administrators), and only
 * administrators manage invitations they did not send ("Must be an organization administrator",
 * a plain BAD_REQUEST here), owners those that make owners. Deactivating an administrator expires
 * their invitations (`revoke_invites_generated_by_user`): the deactivatedInviter cells check that
 * those links no longer sign anyone up (the expired-link page, 404) and that nobody is shown them.
 */
const admins = ['administrator', 'owner'] as const;
const noChannel = bad(/^Invalid channel ID \d+\. No invites were sent\.$/);
const notTheirs = bad('Must be an organization administrator');
const manage = {
  allow: admins,
  deny: { ...membersOnly, member: notTheirs, moderator: notTheirs, formerSubscriber: notTheirs },
};
const linkUsers = ['spectator', 'deactivated', ...ACCOUNTS] as const;

export const INVITE_ROWS: Row[] = [
  {
    route: 'POST /invites',
    variant: 'into design',
    who: { deny: { ...membersOnly }, rest: noChannel },
    call: (c, _t, w) =>
      c.post('/invites', {
        invitee_emails: `${w.unique('inv')}@example.com`,
        stream_ids: [w.stream.design],
      }),
  },
  {
    route: 'POST /invites',
    variant: 'no channels',
    who: { allow: accountsBut('guest', 'bot'), deny: membersOnly },
    call: (c, _t, w) =>
      c.post('/invites', { invitee_emails: `${w.unique('inv')}@example.com`, stream_ids: [] }),
  },
  {
    route: 'GET /invites',
    // Each sees what they may manage: their own; administrators everyone's but invitations to
    // become an owner (only owners may revoke those); expired ones nobody.
    who: {
      allow: ['owner'],
      hide: ['member', 'moderator', 'formerSubscriber', 'administrator', 'deactivatedInviter'],
      deny: membersOnly,
    },
    setup: async (w, actor) => {
      if (actor !== 'deactivatedInviter') return [{ id: w.ownerInvite, multiuse: false }];
      const theirs = await w.deactivatedInviter();
      return [
        { id: theirs.invite, multiuse: false },
        { id: theirs.multiuse, multiuse: true },
      ];
    },
    fresh: true,
    call: (c) => c.get('/invites'),
    reveals: (b, targets: { id: number; multiuse: boolean }[]) =>
      (b.invites ?? []).some((i: any) =>
        targets.some((t) => t.id === i.id && t.multiuse === !!i.is_multiuse),
      ),
    seenBy: 'owner',
  },
  {
    route: 'POST /invites/multiuse',
    variant: 'into design',
    who: {
      deny: { ...membersOnly, administrator: noChannel, owner: noChannel },
      rest: insufficient,
    },
    call: (c, _t, w) => c.post('/invites/multiuse', { stream_ids: [w.stream.design] }),
  },
  {
    route: 'POST /invites/multiuse',
    variant: 'no channels',
    who: { allow: admins, deny: membersOnly, rest: insufficient },
    call: (c) => c.post('/invites/multiuse', { stream_ids: [] }),
  },
  {
    route: 'DELETE /invites/:invite_id',
    variant: "the owner's",
    who: manage,
    setup: (w) => w.invite(),
    fresh: true,
    call: (c, id: number) => c.delete(`/invites/${id}`),
  },
  {
    route: 'DELETE /invites/multiuse/:invite_id',
    variant: "the owner's",
    who: manage,
    setup: async (w) => (await w.multiuse()).id,
    fresh: true,
    call: (c, id: number) => c.delete(`/invites/multiuse/${id}`),
  },
  {
    route: 'POST /invites/:invite_id/resend',
    variant: "the owner's",
    who: manage,
    setup: (w) => w.invite(),
    call: (c, id: number) => c.post(`/invites/${id}/resend`),
  },
  ...['', '/'].flatMap((slash): Row[] => [
    {
      page: `GET /join/:secret${slash}`,
      // The link is the credential; whatever else the request carries does not matter.
      who: { allow: linkUsers, deny: { deactivatedInviter: refused(404) } },
      setup: async (w, actor) =>
        actor === 'deactivatedInviter'
          ? (await w.deactivatedInviter()).link
          : (await w.multiuse()).link,
      fresh: true,
      call: (c, link: string) => page(c, 'GET', link.replace(/\/$/, '') + slash),
    },
    {
      // A reusable link takes an address and mails it a confirmation link; no account yet.
      page: `POST /join/:secret${slash}`,
      who: { allow: linkUsers, deny: { deactivatedInviter: refused(404) } },
      setup: async (w, actor) =>
        actor === 'deactivatedInviter'
          ? (await w.deactivatedInviter()).multiuseLink
          : (await w.multiuse()).link,
      fresh: true,
      call: (c, link: string, w) =>
        page(c, 'POST', link.replace(/\/$/, '') + slash, {
          email: `${w.unique('joiner')}@example.com`,
        }),
    },
    {
      page: `GET /accounts/do_confirm/:secret${slash}`,
      who: { allow: linkUsers, deny: { deactivatedInviter: refused(404) } },
      setup: async (w, actor) =>
        actor === 'deactivatedInviter'
          ? (await w.deactivatedInviter()).confirmLink
          : (await w.confirmation((await w.multiuse()).link)).link,
      fresh: true,
      call: (c, link: string) => page(c, 'GET', link.replace(/\/$/, '') + slash),
    },
    {
      page: `POST /accounts/do_confirm/:secret${slash}`,
      who: { allow: linkUsers, deny: { deactivatedInviter: refused(404) } },
      setup: async (w, actor) =>
        actor === 'deactivatedInviter'
          ? (await w.deactivatedInviter()).confirmLink
          : (await w.confirmation((await w.multiuse()).link)).link,
      fresh: true,
      call: (c, link: string) =>
        page(c, 'POST', link.replace(/\/$/, '') + slash, {
          full_name: 'Joiner',
          password: 'a-long-password',
        }),
    },
  ]),
];
