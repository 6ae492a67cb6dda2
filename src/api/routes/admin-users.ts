/** Bindings for administering people, bots and invitations. */
import type { ApiConnection } from '../connection';

/** PATCH /users/{user_id}: an administrator changes someone's name or role. */
export function updateUser(
  connection: ApiConnection,
  userId: number,
  changes: { full_name?: string; role?: number },
) {
  return connection.request<object>('PATCH', `/users/${userId}`, changes);
}

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

/** GET /invites: the pending invitations the caller may manage. */
export function getInvites(connection: ApiConnection) {
  return connection.request<{ invites: PendingInvite[] }>('GET', '/invites');
}

/** POST /invites: invitations by email (comma- or newline-separated addresses). */
export function inviteByEmail(
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

/** DELETE /invites/{id} or /invites/multiuse/{id} */
export function revokeInvite(connection: ApiConnection, id: number, multiuse: boolean) {
  return connection.request<object>(
    'DELETE',
    multiuse ? `/invites/multiuse/${id}` : `/invites/${id}`,
  );
}

/** POST /invites/{id}/resend: mails an email invitation again. */
export function resendInvite(connection: ApiConnection, id: number) {
  return connection.request<object>('POST', `/invites/${id}/resend`);
}

/** POST /bots: a new bot owned by the caller; answers with its id and API key. */
export function createBot(
  connection: ApiConnection,
  options: { full_name: string; short_name: string; bot_type: number },
) {
  return connection.request<{ user_id: number; api_key: string }>('POST', '/bots', options);
}

/** PATCH /bots/{bot_id}: rename a bot or give it to someone else. */
export function updateBot(
  connection: ApiConnection,
  botId: number,
  changes: { full_name?: string; bot_owner_id?: number },
) {
  return connection.request<object>('PATCH', `/bots/${botId}`, changes);
}

/** POST /bots/{bot_id}/api_key/regenerate: the old key stops working at once. */
export function regenerateBotKey(connection: ApiConnection, botId: number) {
  return connection.request<{ api_key: string }>('POST', `/bots/${botId}/api_key/regenerate`);
}

/** DELETE /bots/{bot_id}: its owner or an administrator deactivates a bot. */
export function deactivateBot(connection: ApiConnection, botId: number) {
  return connection.request<object>('DELETE', `/bots/${botId}`);
}
