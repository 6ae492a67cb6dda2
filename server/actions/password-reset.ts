import crypto from 'node:crypto';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Realm } from '../db/schema.js';
import { DomainError } from '../domain/errors.js';
import { hashPassword, newPasswordProblem } from '../domain/password.js';
import { nowSeconds } from '../lib/admin-checks.js';
import { parseSettings, REALM_SETTING_DEFAULTS } from '../domain/settings.js';
import { queuePasswordResetMail } from './mail.js';

/**
 * Password reset, as upstream's /accounts/password/reset/: a form takes an address, and an active
 * account of the organization with that address gets a mail with a single-use link, good for an
 * hour, whose page sets a new password. Only the hash of the link's secret is stored.
 *
 * After a reset the API key stays as it was, as upstream keeps it: Parley has no web sessions
 * apart from the API key (the web client logs in with POST /fetch_api_key), so the devices
 * already logged in stay so; changing the API key in the settings logs them out.
 */

/** How long a reset link works. */
export const RESET_SECONDS = 3600;

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

const linkGone = () =>
  new DomainError('This password reset link has been used or has expired.', 'BAD_REQUEST', 400);

/**
 * The form's submission. The same work whichever the address: the account is looked up and a
 * reset row written (without an account, one no link leads to), so that neither the answer nor
 * its time tells whether the address has an account; only a real account's mailbox gets a mail.
 */
export async function requestPasswordReset(ctx: AppContext, realm: Realm, typedEmail: string) {
  const email = typedEmail.trim().toLowerCase();
  const token = crypto.randomBytes(32).toString('hex');
  const now = nowSeconds();
  await transact(ctx, async (trx) => {
    const user = await trx
      .selectFrom('users')
      .selectAll()
      .where('realm_id', '=', realm.id)
      .where('delivery_email', '=', email)
      .where('is_active', '=', 1)
      .where('is_bot', '=', 0)
      .executeTakeFirst();
    const usable = user && !realm.deactivated ? user : null;
    const row = await trx
      .insertInto('password_resets')
      .values({
        realm_id: realm.id,
        user_id: usable?.id ?? null,
        key_hash: sha256(token),
        created: now,
        expiry: now + RESET_SECONDS,
        used: usable ? 0 : 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (usable)
      await queuePasswordResetMail(
        ctx,
        trx,
        realm,
        usable,
        row.id,
        `${ctx.config.externalUrl}/accounts/password/reset/${token}/`,
      );
  });
}

/** The account a reset link is for, while the link works: unused, unexpired, account active. */
export async function passwordResetDetails(ctx: AppContext, token: string) {
  if (!/^[0-9a-f]{64}$/.test(token)) return null;
  const row = await ctx.db
    .selectFrom('password_resets')
    .innerJoin('users', 'users.id', 'password_resets.user_id')
    .innerJoin('realms', 'realms.id', 'password_resets.realm_id')
    .select([
      'password_resets.id as id',
      'password_resets.expiry as expiry',
      'users.delivery_email as email',
      'users.is_active as is_active',
      'realms.id as realmId',
      'realms.name as realmName',
      'realms.settings as realmSettings',
      'realms.deactivated as realmDeactivated',
    ])
    .where('password_resets.key_hash', '=', sha256(token))
    .where('password_resets.used', '=', 0)
    .executeTakeFirst();
  if (!row || row.expiry <= nowSeconds() || !row.is_active || row.realmDeactivated) return null;
  const { realmSettings: settings, ...details } = row;
  return {
    ...details,
    defaultLanguage: parseSettings(REALM_SETTING_DEFAULTS, settings).default_language,
  };
}

/**
 * The link's form: sets the new password (the sign-up's length rules) and uses the link up. A
 * second submission, or one after the hour, is refused.
 */
export async function completePasswordReset(ctx: AppContext, token: string, password: string) {
  const details = await passwordResetDetails(ctx, token);
  if (!details) throw linkGone();
  const problem = newPasswordProblem(password);
  if (problem) throw new DomainError(problem, 'BAD_REQUEST', 400);
  const hash = await hashPassword(password, ctx.config.scryptCost);
  await transact(ctx, async (trx) => {
    const claimed = await trx
      .updateTable('password_resets')
      .set({ used: 1 })
      .where('key_hash', '=', sha256(token))
      .where('used', '=', 0)
      .where('expiry', '>', nowSeconds())
      .returning('user_id')
      .executeTakeFirst();
    if (!claimed?.user_id) throw linkGone();
    await trx
      .updateTable('users')
      .set({ password_hash: hash })
      .where('id', '=', claimed.user_id)
      .where('is_active', '=', 1)
      .execute();
  });
  return { email: details.email };
}
