import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { User } from '../db/schema.js';
import { DomainError, badRequest } from '../domain/errors.js';

/**
 * The phones a person registers for push notifications (upstream
 * zerver/views/push_notifications.py): the mobile apps send their token after logging in and
 * remove it when logging out. The server keeps them; it sends no push notifications itself
 * (`push_notifications_enabled` is false: that needs a push bouncer, which this server has not).
 */

export const PUSH_KIND = { APNS: 1, GCM: 2 } as const;
export type PushKind = (typeof PUSH_KIND)[keyof typeof PUSH_KIND];
/** The reference's ZULIP_IOS_APP_ID, the app id an iOS token is for when the app names none. */
export const DEFAULT_IOS_APP_ID = 'org.zulip.Zulip';

/** Upstream `validate_token`: not empty, at most 4096 characters, hexadecimal for APNs. */
function validateToken(token: string, kind: PushKind) {
  if (token === '' || token.length > 4096) throw badRequest('Empty or invalid length token');
  if (kind === PUSH_KIND.APNS && !/^([0-9a-fA-F]{2})+$/.test(token))
    throw badRequest('Invalid APNS token');
}

/** Registers a token (again: registering one the person has is no error). */
export async function addPushDevice(
  ctx: AppContext,
  user: User,
  kind: PushKind,
  token: string,
  iosAppId: string | null,
) {
  validateToken(token, kind);
  return transact(ctx, async (trx) => {
    await trx
      .insertInto('push_device_tokens')
      .values({
        user_id: user.id,
        kind,
        token,
        ios_app_id: kind === PUSH_KIND.APNS ? (iosAppId ?? DEFAULT_IOS_APP_ID) : null,
        last_updated: Math.floor(Date.now() / 1000),
      })
      .onConflict((oc) => oc.columns(['user_id', 'kind', 'token']).doNothing())
      .execute();
    return {};
  });
}

export async function removePushDevice(ctx: AppContext, user: User, kind: PushKind, token: string) {
  validateToken(token, kind);
  return transact(ctx, async (trx) => {
    const gone = await trx
      .deleteFrom('push_device_tokens')
      .where('user_id', '=', user.id)
      .where('kind', '=', kind)
      .where('token', '=', token)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) throw badRequest('Token does not exist');
    return {};
  });
}

/**
 * POST /mobile_push/test_notification (level 217): a test notification to one of the person's
 * phones, or to all of them. Push notifications are not configured on this server, so, as the
 * reference without a push service, it checks the device and sends nothing.
 */
export async function testPushNotification(ctx: AppContext, user: User, token: string | undefined) {
  if (token === undefined) return {};
  const device = await ctx.db
    .selectFrom('push_device_tokens')
    .select('token')
    .where('user_id', '=', user.id)
    .where('token', '=', token)
    .executeTakeFirst();
  if (!device) throw new DomainError('Device not recognized', 'INVALID_PUSH_DEVICE_TOKEN', 400);
  return {};
}
