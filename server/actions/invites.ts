import crypto from 'node:crypto';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Selectable } from 'kysely';
import type { InviteTable, Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { DomainError, badRequest } from '../domain/errors.js';
import { isAdmin, isGuest, isOwner, ROLE, VALID_ROLES } from '../domain/roles.js';
import { isSubscribed } from '../lib/access.js';
import {
  adminRequired,
  isDbId,
  MAX_DB_INT,
  nowSeconds,
  ownerRequired,
} from '../lib/admin-checks.js';
import { mayCreateReusableInvites, mayInviteToRealm, maySubscribeOthers } from '../lib/policies.js';
import { defaultStreamIds } from '../lib/streams.js';
import { validateEmail } from './users.js';
import { queueInvitationMail } from './mail.js';

export type Invite = Selectable<InviteTable>;

/** INVITATION_LINK_VALIDITY_MINUTES of the real server: ten days. */
export const DEFAULT_INVITE_MINUTES = 14400;
export const STATUS = { PENDING: 0, ACCEPTED: 1, REVOKED: 2 } as const;

export interface InviteOptions {
  streamIds: number[];
  /** undefined: the default validity; null: never expires */
  expiresInMinutes: number | null | undefined;
  inviteAs: number;
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
}

export const inviteLink = (ctx: AppContext, invite: Pick<Invite, 'link_key'>) =>
  `${ctx.config.externalUrl}/join/${invite.link_key}/`;

/** An email invitation's mail, queued in the transaction that creates or renews it. */
export function sendInvitationMail(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  invite: Invite,
  inviterName: string,
) {
  return queueInvitationMail(
    ctx,
    trx,
    realm,
    { id: invite.id, email: invite.email! },
    inviterName,
    inviteLink(ctx, invite),
  );
}

/** `invites_changed` goes to the invitation's creator and to every administrator. */
export async function notifyInvitesChanged(
  trx: Database,
  realm: Realm,
  creatorIds: number[],
  events: Delivery[],
) {
  const admins = await trx
    .selectFrom('users')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('is_active', '=', 1)
    .where('role', '<=', ROLE.ADMINISTRATOR)
    .execute();
  const userIds = [...new Set([...admins.map((a) => a.id), ...creatorIds])];
  events.push({ realmId: realm.id, userIds, event: { type: 'invites_changed' } });
}

/** Users may invite people with their own role or a more restricted one. */
function checkInviteRole(actor: User, invitedAs: number) {
  if (!VALID_ROLES.includes(invitedAs))
    throw badRequest('Must be invited as an valid type of user');
  if (invitedAs === ROLE.OWNER && !isOwner(actor)) throw ownerRequired();
  if (invitedAs === ROLE.ADMINISTRATOR && !isAdmin(actor)) throw adminRequired();
  if (invitedAs < actor.role) throw badRequest('Insufficient permission');
}

function checkExpiry(minutes: number | null | undefined): number | null {
  if (minutes === undefined) return DEFAULT_INVITE_MINUTES;
  if (minutes !== null && (minutes <= 0 || nowSeconds() + minutes * 60 > MAX_DB_INT))
    throw badRequest('Invalid invite_expires_in_minutes');
  return minutes;
}

/** The invitee's streams: ones the inviter can read, and beyond the defaults only with permission. */
async function checkInviteStreams(trx: Database, realm: Realm, actor: User, streamIds: number[]) {
  const defaults = await defaultStreamIds(trx, realm.id);
  for (const id of streamIds) {
    if (!isDbId(id)) throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    const stream = await trx
      .selectFrom('streams')
      .selectAll()
      .where('realm_id', '=', realm.id)
      .where('id', '=', id)
      .where('deactivated', '=', 0)
      .executeTakeFirst();
    const readable =
      stream && (stream.invite_only ? await isSubscribed(trx, actor.id, id) : !isGuest(actor));
    if (!readable) throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
  }
  if (streamIds.some((id) => !defaults.has(id)) && !maySubscribeOthers(realm, actor))
    throw badRequest('You do not have permission to subscribe other users to channels.');
}

/** "a@x.org, B <b@y.org>\nc@z.org" → the addresses, in order, without repeats. */
export function parseInviteeEmails(raw: string): string[] {
  const out: string[] = [];
  for (const part of raw.split(/[,\n]/)) {
    const trimmed = part.trim();
    const address = (/<([^<>]+)>\s*$/.exec(trimmed)?.[1] ?? trimmed).trim();
    if (address && !out.includes(address)) out.push(address);
  }
  return out;
}

const invitationFailed = (msg: string, errors: [string, string, boolean][], sent: boolean) =>
  new DomainError(msg, 'INVITATION_FAILED', 400, {
    errors,
    sent_invitations: sent,
    license_limit_reached: false,
    daily_limit_reached: false,
  });

async function insertInvite(
  trx: Database,
  realm: Realm,
  actor: User,
  opts: InviteOptions,
  email: string | null,
  minutes: number | null,
) {
  const now = nowSeconds();
  return trx
    .insertInto('invites')
    .values({
      realm_id: realm.id,
      is_multiuse: email === null ? 1 : 0,
      email,
      invited_by: actor.id,
      invited_as: opts.inviteAs,
      stream_ids: JSON.stringify([...new Set(opts.streamIds)]),
      include_realm_default_subscriptions: opts.includeRealmDefaultSubscriptions ? 1 : 0,
      notify_referrer_on_join: opts.notifyReferrerOnJoin ? 1 : 0,
      link_key: crypto.randomBytes(16).toString('hex'),
      created: now,
      expiry: minutes === null ? null : now + minutes * 60,
      status: STATUS.PENDING,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** POST /invites */
export async function inviteUsers(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  inviteeEmails: string,
  opts: InviteOptions,
) {
  if (!mayInviteToRealm(realm, actor)) throw badRequest('Insufficient permission');
  checkInviteRole(actor, opts.inviteAs);
  const minutes = checkExpiry(opts.expiresInMinutes);
  const emails = parseInviteeEmails(inviteeEmails);
  if (!emails.length) throw badRequest('You must specify at least one email address.');
  const errors: [string, string, boolean][] = [];
  const valid: string[] = [];
  for (const email of emails) {
    try {
      valid.push(validateEmail(email));
    } catch {
      errors.push([email, 'Invalid address.', false]);
    }
  }
  if (errors.length)
    throw invitationFailed(
      "Some emails did not validate, so we didn't send any invitations.",
      errors,
      false,
    );

  const { skipped } = await transact(ctx, async (trx, events) => {
    await checkInviteStreams(trx, realm, actor, opts.streamIds);
    const skipped: [string, string, boolean][] = [];
    const created: Invite[] = [];
    for (const email of valid) {
      const user = await trx
        .selectFrom('users')
        .select(['is_active'])
        .where('realm_id', '=', realm.id)
        .where('delivery_email', '=', email)
        .executeTakeFirst();
      if (user)
        skipped.push(
          user.is_active
            ? [email, 'Already has an account.', false]
            : [email, 'Account has been deactivated.', true],
        );
      else {
        const invite = await insertInvite(trx, realm, actor, opts, email, minutes);
        await sendInvitationMail(ctx, trx, realm, invite, actor.full_name);
        created.push(invite);
      }
    }
    if (!created.length)
      throw invitationFailed("We weren't able to invite anyone.", skipped, false);
    await notifyInvitesChanged(trx, realm, [actor.id], events);
    return { created, skipped };
  });
  if (skipped.length)
    throw invitationFailed(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      true,
    );
  return {};
}

/** POST /invites/multiuse: a reusable link, for members of realm_create_multiuse_invite_group. */
export async function createMultiuseInvite(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  opts: InviteOptions,
) {
  if (!mayCreateReusableInvites(realm, actor)) throw badRequest('Insufficient permission');
  checkInviteRole(actor, opts.inviteAs);
  const minutes = checkExpiry(opts.expiresInMinutes);
  return transact(ctx, async (trx, events) => {
    await checkInviteStreams(trx, realm, actor, opts.streamIds);
    const invite = await insertInvite(trx, realm, actor, opts, null, minutes);
    await notifyInvitesChanged(trx, realm, [actor.id], events);
    return { invite_link: inviteLink(ctx, invite) };
  });
}

function inviteToApi(ctx: AppContext, invite: Invite) {
  const out: Record<string, unknown> = {
    id: invite.id,
    invited_by_user_id: invite.invited_by,
    invited: invite.created,
    expiry_date: invite.expiry,
    invited_as: invite.invited_as,
    is_multiuse: !!invite.is_multiuse,
    notify_referrer_on_join: !!invite.notify_referrer_on_join,
  };
  if (invite.is_multiuse) out.link_url = inviteLink(ctx, invite);
  else out.email = invite.email;
  return out;
}

/**
 * Who may see and manage an invitation: its creator and administrators, and only owners when it
 * makes owners (upstream `do_get_invites_controlled_by_user`). Listing, revoking and resending
 * all ask this one function.
 */
export function mayManageInvite(
  actor: User,
  invite: Pick<Invite, 'invited_by' | 'invited_as'>,
): boolean {
  if (isGuest(actor)) return false;
  if (invite.invited_as === ROLE.OWNER && !isOwner(actor)) return false;
  return isAdmin(actor) || invite.invited_by === actor.id;
}

/** GET /invites: the pending invitations the actor may manage. */
export async function listInvites(ctx: AppContext, realm: Realm, actor: User) {
  if (isGuest(actor)) throw badRequest('Not allowed for guest users');
  let q = ctx.db
    .selectFrom('invites')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('status', '=', STATUS.PENDING)
    .where((eb) => eb.or([eb('expiry', 'is', null), eb('expiry', '>', nowSeconds())]));
  if (!isAdmin(actor)) q = q.where('invited_by', '=', actor.id);
  const rows = await q.orderBy('id').execute();
  return { invites: rows.filter((r) => mayManageInvite(actor, r)).map((r) => inviteToApi(ctx, r)) };
}

/** An invitation the actor may manage: their own, or any for administrators (owner invites: owners). */
async function manageableInvite(
  trx: Database,
  realm: Realm,
  actor: User,
  id: number,
  multiuse: boolean,
): Promise<Invite> {
  if (!isDbId(id)) throw badRequest('No such invitation');
  const invite = await trx
    .selectFrom('invites')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('id', '=', id)
    .where('is_multiuse', '=', multiuse ? 1 : 0)
    .executeTakeFirst();
  if (!invite || invite.status === STATUS.ACCEPTED) throw badRequest('No such invitation');
  // Upstream answers these two with plain errors (BAD_REQUEST), not its role-decorator code.
  if (!mayManageInvite(actor, invite))
    throw badRequest(
      invite.invited_as === ROLE.OWNER && isAdmin(actor)
        ? 'Must be an organization owner'
        : 'Must be an organization administrator',
    );
  if (invite.status === STATUS.REVOKED) throw badRequest('Invitation has already been revoked');
  return invite;
}

/** DELETE /invites/{id} and DELETE /invites/multiuse/{id} */
export async function revokeInvite(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  id: number,
  multiuse: boolean,
) {
  return transact(ctx, async (trx, events) => {
    const invite = await manageableInvite(trx, realm, actor, id, multiuse);
    await trx
      .updateTable('invites')
      .set({ status: STATUS.REVOKED })
      .where('id', '=', invite.id)
      .execute();
    await notifyInvitesChanged(trx, realm, [invite.invited_by], events);
    return {};
  });
}

/** Revokes the pending invitations and links these users created (their deactivation). */
export async function revokeInvitesBy(
  trx: Database,
  realm: Realm,
  creatorIds: number[],
  events: Delivery[],
) {
  const pending = await trx
    .selectFrom('invites')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('invited_by', 'in', creatorIds)
    .where('status', '=', STATUS.PENDING)
    .execute();
  if (!pending.length) return;
  await trx
    .updateTable('invites')
    .set({ status: STATUS.REVOKED })
    .where(
      'id',
      'in',
      pending.map((r) => r.id),
    )
    .execute();
  await notifyInvitesChanged(trx, realm, [], events);
}

/** POST /invites/{id}/resend: mails the link again and restarts its validity period. */
export async function resendInvite(ctx: AppContext, realm: Realm, actor: User, id: number) {
  await transact(ctx, async (trx, events) => {
    const invite = await manageableInvite(trx, realm, actor, id, false);
    const now = nowSeconds();
    const expiry = invite.expiry === null ? null : now + (invite.expiry - invite.created);
    await trx
      .updateTable('invites')
      .set({ created: now, expiry })
      .where('id', '=', invite.id)
      .execute();
    const inviter = await trx
      .selectFrom('users')
      .select('full_name')
      .where('id', '=', invite.invited_by)
      .executeTakeFirst();
    await sendInvitationMail(
      ctx,
      trx,
      realm,
      { ...invite, created: now, expiry },
      inviter?.full_name ?? 'Someone',
    );
    await notifyInvitesChanged(trx, realm, [invite.invited_by], events);
  });
  return {};
}
