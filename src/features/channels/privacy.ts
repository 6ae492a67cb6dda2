/**
 * A channel's privacy as people choose it, and the three wire flags it stands for. Who may see and
 * change which channel settings, as the reference server decides it (the server has the last word).
 */
import type { Stream } from '../../api/model';
import { ROLE } from '../../api/model/user';
import { policyPermits } from '../topics/permissions';

export type Privacy = 'public' | 'private-shared' | 'private-protected' | 'web-public';

export const PRIVACIES: readonly Privacy[] = [
  'web-public',
  'public',
  'private-shared',
  'private-protected',
];

export function privacyOf(
  stream: Pick<Stream, 'invite_only' | 'is_web_public' | 'history_public_to_subscribers'>,
): Privacy {
  if (stream.is_web_public) return 'web-public';
  if (!stream.invite_only) return 'public';
  return stream.history_public_to_subscribers ? 'private-shared' : 'private-protected';
}

export function privacyParams(privacy: Privacy) {
  return {
    invite_only: privacy === 'private-shared' || privacy === 'private-protected',
    is_web_public: privacy === 'web-public',
    history_public_to_subscribers: privacy !== 'private-protected',
  };
}

/** The privacies a person may give a channel, from the organization's creation policies. */
export function allowedPrivacies(
  settings: Readonly<Record<string, unknown>>,
  role: number,
): Privacy[] {
  return PRIVACIES.filter((privacy) => {
    if (privacy === 'web-public')
      return (
        settings.enable_spectator_access === true &&
        policyPermits(settings.create_web_public_stream_policy, role)
      );
    if (privacy === 'public') return policyPermits(settings.create_public_stream_policy, role);
    return policyPermits(settings.create_private_stream_policy, role);
  });
}

/** Realm administrators administer every channel (the spec has no per-channel admin group). */
export const mayAdministerChannels = (role: number | undefined) =>
  role !== undefined && role <= ROLE.ADMINISTRATOR;

/** Message retention is changed by owners only. */
export const mayChangeRetention = (role: number | undefined) =>
  role !== undefined && role <= ROLE.OWNER;

/**
 * Who may remove others from a channel: administrators, and members of the channel's
 * `can_remove_subscribers_group` (checked by the caller with the groups at hand).
 */
export const mayRemoveSubscribers = (role: number | undefined, inRemoveGroup: boolean) =>
  mayAdministerChannels(role) || inRemoveGroup;

/** Who may add others: the organization's invite-to-channel policy. */
export const mayAddSubscribers = (
  settings: Readonly<Record<string, unknown>>,
  role: number | undefined,
) => role !== undefined && policyPermits(settings.invite_to_stream_policy, role);

/** The retention choice shown for a stored value (null follows the organization, -1 forever). */
export function retentionChoice(days: number | null): 'realm_default' | 'unlimited' | 'days' {
  if (days === null) return 'realm_default';
  return days === -1 ? 'unlimited' : 'days';
}

/** A colour the colour input accepts (#rrggbb), from what the server stored. */
export function normalColor(color: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  if (short)
    return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  return /^#[0-9a-f]{6}$/i.test(color) ? color.toLowerCase() : '#76ce90';
}

/** The palette offered first, as in the reference app. */
export const PALETTE = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
  '#f5ce6e',
  '#c2726a',
  '#94c849',
  '#bd86e5',
];
