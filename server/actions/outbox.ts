import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  /** the mail's link: a secret (an invitation, a confirmation) kept out of the log */
  link: string;
}

/**
 * No mail server is configured: a mail is appended to `outbox.jsonl` in the data directory, where
 * an administrator can read it and pass its link on. The log says only that a mail is waiting, for
 * whom and about what: logs travel further than the data directory, and the link is a key.
 */
export function putInOutbox(ctx: AppContext, mail: OutgoingMail) {
  const entry = { ...mail, at: new Date().toISOString() };
  ctx.log.info(
    { to: mail.to, subject: mail.subject },
    `A mail waits in the outbox (${path.join(ctx.config.dataDir, 'outbox.jsonl')})`,
  );
  try {
    fs.mkdirSync(ctx.config.dataDir, { recursive: true });
    fs.appendFileSync(path.join(ctx.config.dataDir, 'outbox.jsonl'), JSON.stringify(entry) + '\n');
  } catch (err) {
    ctx.log.error({ err }, 'Writing to the outbox failed');
  }
}
