import crypto from 'node:crypto';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { nowSeconds } from '../lib/admin-checks.js';
import { realmSettings } from '../lib/realm.js';
import { notifyInvitesChanged, STATUS, type Invite } from './invites.js';
import { queueAlreadyMemberMail, queueSignupConfirmationMail } from './mail.js';
import { insertMessage } from './send-message.js';
import { subscribeUsersToStreams } from './subscriptions.js';
import { notificationBot } from './system-bots.js';
import { insertUser, validateEmail } from './users.js';
import { newPasswordProblem } from '../domain/password.js';

/** How long a mailed confirmation link works: a day, as upstream's. */
export const CONFIRMATION_SECONDS = 86400;

type InviteMatch = { key: string } | { id: number };

/**
 * A pending, unexpired invitation of an active organization, by the key in its link or by id.
 * It speaks for whoever made it: once they are deactivated, or no longer hold a role that may
 * grant the one it offers, it grants nothing (whether or not deactivation also revoked it).
 */
async function usableInvite(db: Database, match: InviteMatch): Promise<Invite | null> {
  if ('key' in match && !/^[0-9a-f]{8,64}$/.test(match.key)) return null;
  const pending = db.selectFrom('invites').selectAll().where('status', '=', STATUS.PENDING);
  const invite = await (
    'key' in match ? pending.where('link_key', '=', match.key) : pending.where('id', '=', match.id)
  ).executeTakeFirst();
  if (!invite || (invite.expiry !== null && invite.expiry <= nowSeconds())) return null;
  const realm = await db
    .selectFrom('realms')
    .select('deactivated')
    .where('id', '=', invite.realm_id)
    .executeTakeFirst();
  if (!realm || realm.deactivated) return null;
  const inviter = await db
    .selectFrom('users')
    .select(['is_active', 'role'])
    .where('id', '=', invite.invited_by)
    .executeTakeFirst();
  if (!inviter?.is_active || inviter.role > invite.invited_as) return null;
  return invite;
}

const invitationGone = () => badRequest('This invitation link is invalid or has expired.');

/** The organization a sign-up page is drawn for: its name and icon, and its language. */
async function pageRealm(db: Database, realmId: number) {
  const realm = await db
    .selectFrom('realms')
    .selectAll()
    .where('id', '=', realmId)
    .executeTakeFirstOrThrow();
  return {
    realmId: realm.id,
    realmName: realm.name,
    defaultLanguage: realmSettings(realm).default_language,
  };
}

/** What the sign-up page shows for an invitation link, or null when the link is no good. */
export async function invitationDetails(ctx: AppContext, key: string) {
  const invite = await usableInvite(ctx.db, { key });
  if (!invite) return null;
  return {
    ...(await pageRealm(ctx.db, invite.realm_id)),
    email: invite.email,
    invitedAs: invite.invited_as,
  };
}

export interface SignupForm {
  full_name: string;
  password: string;
}

function checkNewPassword(password: string) {
  const problem = newPasswordProblem(password);
  if (problem) throw badRequest(problem);
}

/**
 * An email invitation creates the account at once: its link went to that mailbox, which is the
 * proof of owning the address. It is used up (with any others to the same address).
 */
export async function acceptInvitation(ctx: AppContext, key: string, form: SignupForm) {
  checkNewPassword(form.password);
  return transact(ctx, async (trx, events) => {
    const invite = await usableInvite(trx, { key });
    if (!invite) throw invitationGone();
    // A reusable link went to nobody in particular: its sign-ups go through requestSignupConfirmation.
    if (invite.is_multiuse || invite.email === null)
      throw badRequest('This invitation needs your address confirmed first.');
    return createInvitedAccount(ctx, trx, events, invite, invite.email, form);
  });
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/**
 * The reusable link's form: mails the address typed a single-use link that finishes the sign-up,
 * or, when the address already has an account here, a note saying so. The caller answers both
 * the same way, so the page tells nobody who has an account.
 */
export async function requestSignupConfirmation(ctx: AppContext, key: string, typedEmail: string) {
  const email = validateEmail(typedEmail);
  const realm = await transact(ctx, async (trx) => {
    const invite = await usableInvite(trx, { key });
    if (!invite || !invite.is_multiuse) throw invitationGone();
    const realm = await trx
      .selectFrom('realms')
      .selectAll()
      .where('id', '=', invite.realm_id)
      .executeTakeFirstOrThrow();
    const existing = await trx
      .selectFrom('users')
      .selectAll()
      .where('realm_id', '=', realm.id)
      .where((eb) => eb.or([eb('email', '=', email), eb('delivery_email', '=', email)]))
      .executeTakeFirst();
    if (existing) {
      await queueAlreadyMemberMail(ctx, trx, realm, email, existing);
      return realm;
    }
    const token = crypto.randomBytes(32).toString('hex');
    const now = nowSeconds();
    await trx
      .insertInto('signup_confirmations')
      .values({
        realm_id: realm.id,
        invite_id: invite.id,
        email,
        key_hash: sha256(token),
        created: now,
        expiry: now + CONFIRMATION_SECONDS,
        used: 0,
      })
      .execute();
    await queueSignupConfirmationMail(
      ctx,
      trx,
      realm,
      email,
      sha256(token),
      `${ctx.config.externalUrl}/accounts/do_confirm/${token}/`,
    );
    return realm;
  });
  return { realmName: realm.name, email };
}

/** An unused, unexpired confirmation whose invitation is still good, by the secret in its link. */
async function usableConfirmation(db: Database, token: string) {
  if (!/^[0-9a-f]{64}$/.test(token)) return null;
  const confirmation = await db
    .selectFrom('signup_confirmations')
    .selectAll()
    .where('key_hash', '=', sha256(token))
    .where('used', '=', 0)
    .executeTakeFirst();
  if (!confirmation || confirmation.expiry <= nowSeconds()) return null;
  const invite = await usableInvite(db, { id: confirmation.invite_id });
  return invite && invite.realm_id === confirmation.realm_id ? { confirmation, invite } : null;
}

/** What the page of a confirmation link shows, or null when the link is no good. */
export async function confirmationDetails(ctx: AppContext, token: string) {
  const found = await usableConfirmation(ctx.db, token);
  if (!found) return null;
  return { ...(await pageRealm(ctx.db, found.invite.realm_id)), email: found.confirmation.email };
}

/** The confirmation link's form: creates the account for the confirmed address, once. */
export async function completeSignup(ctx: AppContext, token: string, form: SignupForm) {
  checkNewPassword(form.password);
  return transact(ctx, async (trx, events) => {
    const found = await usableConfirmation(trx, token);
    if (!found) throw badRequest('This confirmation link is invalid or has expired.');
    const claimed = await trx
      .updateTable('signup_confirmations')
      .set({ used: 1 })
      .where('id', '=', found.confirmation.id)
      .where('used', '=', 0)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1)
      throw badRequest('This confirmation link has already been used.');
    return createInvitedAccount(ctx, trx, events, found.invite, found.confirmation.email, form);
  });
}

/**
 * Creates the invited account inside the caller's transaction: its role, default streams and
 * streams come from the invitation, and email invitations to the address are used up.
 */
async function createInvitedAccount(
  ctx: AppContext,
  trx: Database,
  events: Delivery[],
  invite: Invite,
  email: string,
  form: SignupForm,
) {
  const realm = await trx
    .selectFrom('realms')
    .selectAll()
    .where('id', '=', invite.realm_id)
    .executeTakeFirstOrThrow();
  const user = await insertUser(
    ctx,
    trx,
    realm,
    {
      email,
      fullName: form.full_name,
      password: form.password,
      role: invite.invited_as,
      defaultStreams: !!invite.include_realm_default_subscriptions,
    },
    events,
  );
  await subscribeToInvitedStreams(ctx, trx, events, realm, invite, user.id);
  await useUpInvitations(trx, events, realm, invite, email);
  await tellReferrer(ctx, trx, events, realm, invite, user);
  return { user_id: user.id, email: user.email, realm_name: realm.name };
}

/** Subscribes the new account to the invitation's streams that are still active. */
async function subscribeToInvitedStreams(
  ctx: AppContext,
  trx: Database,
  events: Delivery[],
  realm: Realm,
  invite: Invite,
  userId: number,
) {
  const streamIds = JSON.parse(invite.stream_ids) as number[];
  const active = streamIds.length
    ? (
        await trx
          .selectFrom('streams')
          .select('id')
          .where('realm_id', '=', realm.id)
          .where('id', 'in', streamIds)
          .where('deactivated', '=', 0)
          .execute()
      ).map((s) => s.id)
    : [];
  if (active.length) await subscribeUsersToStreams(ctx, trx, realm, [userId], active, events);
}

/** Email invitations to the address are accepted; their inviters see their lists change. */
async function useUpInvitations(
  trx: Database,
  events: Delivery[],
  realm: Realm,
  invite: Invite,
  email: string,
) {
  const used = await trx
    .selectFrom('invites')
    .select(['id', 'invited_by'])
    .where('realm_id', '=', realm.id)
    .where('is_multiuse', '=', 0)
    .where('status', '=', STATUS.PENDING)
    .where('email', '=', email)
    .execute();
  if (used.length)
    await trx
      .updateTable('invites')
      .set({ status: STATUS.ACCEPTED })
      .where(
        'id',
        'in',
        used.map((u) => u.id),
      )
      .execute();
  await notifyInvitesChanged(
    trx,
    realm,
    [invite.invited_by, ...used.map((u) => u.invited_by)],
    events,
  );
}

/** The Notification Bot tells the inviter who joined, when the invitation asked for it. */
async function tellReferrer(
  ctx: AppContext,
  trx: Database,
  events: Delivery[],
  realm: Realm,
  invite: Invite,
  user: User,
) {
  const referrer = await trx
    .selectFrom('users')
    .selectAll()
    .where('id', '=', invite.invited_by)
    .executeTakeFirst();
  if (invite.notify_referrer_on_join && referrer?.is_active) {
    const bot = await notificationBot(ctx, trx, realm, events);
    await insertMessage(
      ctx,
      trx,
      events,
      realm,
      bot,
      {
        recipient: { type: 'direct', userIds: [referrer.id] },
        content: `@_**${user.full_name}|${user.id}** accepted your invitation to join ${realm.name}!`,
        client: 'Internal',
      },
      true,
    );
  }
}
