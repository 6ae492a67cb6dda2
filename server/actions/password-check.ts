import type { AppContext } from '../context.js';
import { verifyPassword } from '../domain/password.js';

/**
 * The one place a typed password is checked against an account (login, and the old password when
 * changing it): counted against the account's budget of failures, which throws RATE_LIMIT_HIT
 * once spent, and as slow when there is no account or no password as when there is one.
 */
export async function passwordMatches(
  ctx: AppContext,
  realmId: number,
  loginName: string,
  storedHash: string | null,
  password: string,
): Promise<boolean> {
  const attempt = await ctx.loginAttempts.begin(realmId, loginName);
  const ok = await verifyPassword(password, storedHash, ctx.config.scryptCost);
  if (ok) await attempt.succeeded();
  return ok;
}
