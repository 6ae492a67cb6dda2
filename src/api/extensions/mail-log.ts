/**
 * Parley's own extensions live here, apart from the bindings of the Zulip API (../routes, each an
 * operation of the upstream description): a server announces the ones it offers in
 * /server_settings (`parley_extensions`), and the client uses one only where it is announced.
 *
 * `mail_log`: the organization's outgoing mail, for its administrators.
 * `web_public_events`: the web-public channels' events, live, for visitors (web-public-events.ts).
 */
import type { ApiConnection } from '../connection';

export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed';

export interface OutgoingMail {
  id: number;
  /** what caused it: invitation, email_change, password_reset, login, missed_messages, digest... */
  kind: string;
  to: string;
  subject: string;
  status: MailStatus;
  /** seconds since the epoch */
  created_at: number;
  sent_at: number | null;
  attempts: number;
  last_error: string | null;
  /** the plain-text part, with its links */
  text: string;
}

export interface MailLog {
  mails: OutgoingMail[];
  /** false: no mail server is configured, and mail waits here to be passed on by hand */
  delivery_configured?: boolean;
}

/** GET /parley/mail: the newest mail first. */
export function getMailLog(connection: ApiConnection, limit = 100) {
  return connection.request<MailLog>('GET', '/parley/mail', { limit });
}
