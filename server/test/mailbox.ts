import type { RunningServer } from '../server.js';

/** A mail the server queued (mail_queue), with the first link of its text part. */
export interface QueuedMail {
  id: number;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  status: string;
  /** the first address of the server's own in the text, '' when there is none */
  link: string;
}

/**
 * Every mail the server queued, oldest first (read from its database); without `logins`, not the
 * mails that tell of a new login (every test logs in).
 */
export async function queuedMails(
  server: RunningServer,
  { logins = false } = {},
): Promise<QueuedMail[]> {
  let query = server.ctx.db.selectFrom('mail_queue').selectAll().orderBy('id');
  if (!logins) query = query.where('kind', '!=', 'login');
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    to: r.recipient,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    status: r.status,
    link: firstLink(r.text_body, server.ctx.config.externalUrl),
  }));
}

/** The first link to `base` in a mail's text. */
export function firstLink(text: string, base: string): string {
  const links = text.match(/https?:\/\/\S+/g) ?? [];
  return links.find((l) => l.startsWith(base)) ?? '';
}

/** The newest mail to `to`; throws when there is none. */
export async function lastMailTo(server: RunningServer, to: string): Promise<QueuedMail> {
  const mail = (await queuedMails(server)).filter((m) => m.to === to).pop();
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}
