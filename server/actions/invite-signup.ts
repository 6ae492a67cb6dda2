import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import { badRequest } from '../http/errors.js';
import { nowSeconds } from './admin-checks.js';
import { notifyInvitesChanged, STATUS, type Invite } from './invites.js';
import { insertMessage } from './send-message.js';
import { subscribeUsersToStreams } from './subscriptions.js';
import { notificationBot } from './system-bots.js';
import { insertUser, validateEmail } from './users.js';

export const MIN_PASSWORD_LENGTH = 6;

/** A pending, unexpired invitation of an active organization, by the key in its link. */
async function usableInvite(db: Database, key: string): Promise<Invite | null> {
  if (!/^[0-9a-f]{8,64}$/.test(key)) return null;
  const invite = await db.selectFrom('invites').selectAll().where('link_key', '=', key)
    .where('status', '=', STATUS.PENDING).executeTakeFirst();
  if (!invite || (invite.expiry !== null && invite.expiry <= nowSeconds())) return null;
  const realm = await db.selectFrom('realms').select('deactivated').where('id', '=', invite.realm_id).executeTakeFirst();
  return realm && !realm.deactivated ? invite : null;
}

/** What the sign-up page shows for an invitation link, or null when the link is no good. */
export async function invitationDetails(ctx: AppContext, key: string) {
  const invite = await usableInvite(ctx.db, key);
  if (!invite) return null;
  const realm = await ctx.db.selectFrom('realms').select('name').where('id', '=', invite.realm_id).executeTakeFirstOrThrow();
  return { realmName: realm.name, email: invite.email, invitedAs: invite.invited_as };
}

export interface SignupForm {
  email?: string;
  full_name: string;
  password: string;
}

/**
 * Creates the invited account: its role, default streams and streams come from the invitation.
 * An email invitation is used up (with any others to the same address); a reusable link stays.
 */
export async function acceptInvitation(ctx: AppContext, key: string, form: SignupForm) {
  if (form.password.length < MIN_PASSWORD_LENGTH)
    throw badRequest(`The password is too short (at least ${MIN_PASSWORD_LENGTH} characters).`);
  return transact(ctx, async (trx, events) => {
    const invite = await usableInvite(trx, key);
    if (!invite) throw badRequest('This invitation link is invalid or has expired.');
    const realm = await trx.selectFrom('realms').selectAll().where('id', '=', invite.realm_id).executeTakeFirstOrThrow();
    const email = invite.email ?? validateEmail(form.email ?? '');
    const user = await insertUser(ctx, trx, realm, {
      email, fullName: form.full_name, password: form.password, role: invite.invited_as,
      defaultStreams: !!invite.include_realm_default_subscriptions,
    }, events);
    const streamIds = JSON.parse(invite.stream_ids) as number[];
    const active = streamIds.length
      ? (await trx.selectFrom('streams').select('id').where('realm_id', '=', realm.id).where('id', 'in', streamIds)
          .where('deactivated', '=', 0).execute()).map((s) => s.id)
      : [];
    if (active.length) await subscribeUsersToStreams(ctx, trx, realm, [user.id], active, events);

    const used = await trx.selectFrom('invites').select(['id', 'invited_by']).where('realm_id', '=', realm.id)
      .where('is_multiuse', '=', 0).where('status', '=', STATUS.PENDING).where('email', '=', email).execute();
    if (used.length) await trx.updateTable('invites').set({ status: STATUS.ACCEPTED }).where('id', 'in', used.map((u) => u.id)).execute();
    await notifyInvitesChanged(trx, realm, [invite.invited_by, ...used.map((u) => u.invited_by)], events);

    const referrer = await trx.selectFrom('users').selectAll().where('id', '=', invite.invited_by).executeTakeFirst();
    if (invite.notify_referrer_on_join && referrer?.is_active) {
      const bot = await notificationBot(ctx, trx, realm, events);
      await insertMessage(ctx, trx, events, realm, bot, {
        recipient: { type: 'direct', userIds: [referrer.id] },
        content: `@_**${user.full_name}|${user.id}** accepted your invitation to join ${realm.name}!`,
        client: 'Internal',
      }, true);
    }
    return { user_id: user.id, email: user.email, realm_name: realm.name };
  });
}
