import type { User } from '../db/schema.js';
import { isAdmin, isGuest, isModeratorOrAbove } from './roles.js';
import { parseSettings, USER_SETTING_DEFAULTS } from './settings.js';

/**
 * Who may see a person's real address (`delivery_email`), by that person's own
 * `email_address_visibility`, and the API address (`email`) everyone else gets instead.
 */
export const EMAIL_VISIBILITY = {
  EVERYONE: 1,
  MEMBERS: 2,
  ADMINS: 3,
  NOBODY: 4,
  MODERATORS: 5,
} as const;

type Target = Pick<User, 'id' | 'is_bot' | 'settings'>;

/** Bots always show their address, as upstream. */
export function emailVisibilityOf(user: Target): number {
  if (user.is_bot) return EMAIL_VISIBILITY.EVERYONE;
  // Serializing every user for a register reads this per user: skip the parse when unset.
  if (!user.settings.includes('email_address_visibility'))
    return Number(USER_SETTING_DEFAULTS.email_address_visibility);
  return Number(parseSettings(USER_SETTING_DEFAULTS, user.settings).email_address_visibility);
}

/** May `viewer` (null: a spectator) read `target`'s real address? Upstream `can_access_delivery_email`. */
export function mayReadDeliveryEmail(
  viewer: Pick<User, 'id' | 'role'> | null,
  target: Target,
): boolean {
  if (viewer === null) return false;
  if (viewer.id === target.id) return true;
  switch (emailVisibilityOf(target)) {
    case EMAIL_VISIBILITY.EVERYONE:
      return true;
    case EMAIL_VISIBILITY.MEMBERS:
      return !isGuest(viewer);
    case EMAIL_VISIBILITY.MODERATORS:
      return isModeratorOrAbove(viewer);
    case EMAIL_VISIBILITY.ADMINS:
      return isAdmin(viewer);
    default:
      return false;
  }
}

/**
 * The domain of stand-in addresses: the organization's host when it is a DNS name, else a
 * reserved domain (an address at an IP literal or "localhost" is not one clients accept).
 */
export function fakeEmailDomain(externalUrl: string): string {
  let host = '';
  try {
    host = new URL(externalUrl).hostname.toLowerCase();
  } catch {
    /* a broken URL: the reserved domain */
  }
  const isDnsName = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) && !/^[\d.]+$/.test(host);
  return isDnsName ? host : 'parley.invalid';
}

/** The address the API shows everyone: the real one when visible to all, else `user<ID>@<domain>`. */
export function apiEmailFor(user: Target & Pick<User, 'delivery_email'>, domain: string): string {
  return emailVisibilityOf(user) === EMAIL_VISIBILITY.EVERYONE
    ? user.delivery_email
    : `user${user.id}@${domain}`;
}
