import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './server';

/** A mail as the catcher received it, parsed. */
export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server on a free port of this machine, for the end-to-end tests: the Parley server
 * under test sends to it through PARLEY_SMTP_URL, and a test reads what arrived.
 */
export class MailCatcher {
  readonly received: CaughtMail[] = [];
  private server: SMTPServer | null = null;
  port = 0;

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start() {
    this.port = await freePort();
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.received.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
            });
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop() {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The first mail to `to` whose subject matches, once it has arrived (within a minute). */
  async waitFor(to: string, subject: RegExp): Promise<CaughtMail> {
    const end = Date.now() + 60_000;
    for (;;) {
      const mail = this.received.find((m) => m.to.includes(to) && subject.test(m.subject));
      if (mail) return mail;
      if (Date.now() > end) throw new Error(`no mail to ${to} about ${subject} within a minute`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** The path (and hash) of the first link in a mail's text that matches `pattern`. */
export function linkIn(mail: CaughtMail, pattern: RegExp): string {
  const link = (mail.text.match(/https?:\/\/\S+/g) ?? []).find((l) => pattern.test(l));
  if (!link) throw new Error(`no link matching ${pattern} in "${mail.subject}"`);
  const url = new URL(link);
  return url.pathname + url.search + url.hash;
}
