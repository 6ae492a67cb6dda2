/** Bindings for the API documentation's "Invitations" section. */
import type { ApiConnection } from '../connection';

/** An invitation as GET /invites lists it: by email, or a reusable link. */
export interface PendingInvite {
  id: number;
  invited_by_user_id: number;
  /** seconds since the epoch */
  invited: number;
  /** seconds since the epoch; null: never expires */
  expiry_date: number | null;
  invited_as: number;
  is_multiuse: boolean;
  email?: string;
  link_url?: string;
}

/** GET /invites: https://zulip.com/api/get-invites (those the caller may manage) */
export function getInvites(connection: ApiConnection) {
  return connection.request<{ invites: PendingInvite[] }>('GET', '/invites');
}

/**
 * POST /invites: https://zulip.com/api/send-invites
 * `invitee_emails` holds comma- or newline-separated addresses.
 */
export function sendInvites(
  connection: ApiConnection,
  options: {
    invitee_emails: string;
    invite_as: number;
    stream_ids: number[];
    invite_expires_in_minutes: number | null;
    include_realm_default_subscriptions: boolean;
  },
) {
  return connection.request<object>('POST', '/invites', options);
}

/** POST /invites/multiuse: https://zulip.com/api/create-invite-link */
export function createInviteLink(
  connection: ApiConnection,
  options: {
    invite_as: number;
    invite_expires_in_minutes: number | null;
    include_realm_default_subscriptions: boolean;
  },
) {
  return connection.request<{ invite_link: string }>('POST', '/invites/multiuse', options);
}

/** POST /invites/{invite_id}/resend: https://zulip.com/api/resend-email-invite */
export function resendEmailInvite(connection: ApiConnection, inviteId: number) {
  return connection.request<object>('POST', `/invites/${inviteId}/resend`);
}

/** DELETE /invites/{invite_id}: https://zulip.com/api/revoke-email-invite */
export function revokeEmailInvite(connection: ApiConnection, inviteId: number) {
  return connection.request<object>('DELETE', `/invites/${inviteId}`);
}

/** DELETE /invites/multiuse/{invite_id}: https://zulip.com/api/revoke-invite-link */
export function revokeInviteLink(connection: ApiConnection, inviteId: number) {
  return connection.request<object>('DELETE', `/invites/multiuse/${inviteId}`);
}
