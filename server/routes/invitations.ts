import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { check, p, type Checker } from '../http/params.js';
import {
  createMultiuseInvite,
  inviteUsers,
  listInvites,
  resendInvite,
  revokeInvite,
} from '../actions/invites.js';

const minutesOrNull: Checker<number | null> = (v, name) => (v === null ? null : check.int(v, name));

const inviteParams = {
  invite_expires_in_minutes: p.json(minutesOrNull).optional(),
  invite_as: p.int().default(400),
  include_realm_default_subscriptions: p.bool().default(false),
};

/** Invite by email, and list every pending invitation. */
function emailInvitations(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/invites',
      callers: 'members',
      params: {
        ...inviteParams,
        invitee_emails: p.string(),
        stream_ids: p.intList(),
        notify_referrer_on_join: p.bool().default(true),
      },
    },
    async ({ realm, user, params }) =>
      inviteUsers(ctx, realm, user, params.invitee_emails, {
        streamIds: params.stream_ids,
        expiresInMinutes: params.invite_expires_in_minutes,
        inviteAs: params.invite_as,
        includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
        notifyReferrerOnJoin: params.notify_referrer_on_join,
      }),
  );

  route(
    app,
    ctx,
    { method: 'GET', path: '/invites', callers: 'members', params: {} },
    async ({ realm, user }) => listInvites(ctx, realm, user),
  );
}

/** Reusable invitation links; revoking either kind; sending an email invitation again. */
function linksAndRevocations(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/invites/multiuse',
      callers: 'members',
      params: { ...inviteParams, stream_ids: p.intList().default([]) },
    },
    async ({ realm, user, params }) =>
      createMultiuseInvite(ctx, realm, user, {
        streamIds: params.stream_ids,
        expiresInMinutes: params.invite_expires_in_minutes,
        inviteAs: params.invite_as,
        includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
        notifyReferrerOnJoin: false,
      }),
  );

  route(
    app,
    ctx,
    {
      method: 'DELETE',
      path: '/invites/:invite_id',
      callers: 'members',
      pathInts: ['invite_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) => revokeInvite(ctx, realm, user, pathInt('invite_id'), false),
  );

  route(
    app,
    ctx,
    {
      method: 'DELETE',
      path: '/invites/multiuse/:invite_id',
      callers: 'members',
      pathInts: ['invite_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) => revokeInvite(ctx, realm, user, pathInt('invite_id'), true),
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/invites/:invite_id/resend',
      callers: 'members',
      pathInts: ['invite_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) => resendInvite(ctx, realm, user, pathInt('invite_id')),
  );
}

/** The API documentation's "Invitations" section. */
export async function invitationRoutes(app: FastifyInstance, opts: RoutesOptions) {
  emailInvitations(app, opts);
  linksAndRevocations(app, opts);
}
