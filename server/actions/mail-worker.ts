import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import { nowSeconds } from '../lib/admin-checks.js';
import { hideResetLinks } from './mail.js';

/**
 * Sends the queued mail (actions/mail.ts) through the mail server of PARLEY_SMTP_URL, in id order,
 * a few at a time. Each mail is claimed before it is sent: one conditional UPDATE moves it from
 * `queued` (or from a `sending` whose lease ran out) to `sending`, so that of two processes
 * sharing a PostgreSQL database (or two overlapping ticks) exactly one takes it.
 *
 * Delivery is at most once except in one window: a process that dies after the mail server
 * accepted a mail and before it recorded `sent` leaves the row `sending`, and once its lease
 * expires another try sends it again. At-least-once there is deliberate: losing a mail is worse
 * than a rare duplicate after a crash.
 */

const BATCH = 10;
/** how long a worker holds a mail it took; longer than the transport's time-outs added up */
const LEASE_SECONDS = 300;
/** tries before a mail is given up: with the back-off capped at an hour, about a day */
export const MAX_ATTEMPTS = 30;
const MAX_DELAY_MS = 3600_000;

/** What sends one mail; nodemailer's transport in the server, anything in tests. */
export interface MailSender {
  send(mail: {
    from: { name: string; address: string };
    to: string;
    subject: string;
    text: string;
    html: string;
  }): Promise<void>;
  close(): void;
}

/** The sender address: PARLEY_NOREPLY_EMAIL, else noreply@ the host of the external URL. */
export function noreplyAddress(ctx: AppContext): string {
  return ctx.config.noreplyEmail ?? `noreply@${new URL(ctx.config.externalUrl).hostname}`;
}

/** The wait before try `attempts + 1`: the base (30 s), doubled after each failure, an hour at most. */
export function retryDelaySeconds(ctx: AppContext, attempts: number): number {
  const ms = Math.min(ctx.config.mailRetryMs * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
  return Math.max(1, Math.round(ms / 1000));
}

/** nodemailer's SMTP transport for PARLEY_SMTP_URL, loaded only when mail is configured. */
export async function smtpSender(smtpUrl: string): Promise<MailSender> {
  const { default: nodemailer } = await import('nodemailer');
  const url = new URL(smtpUrl);
  const transport = nodemailer.createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : undefined,
    // smtps:// speaks TLS from the start; smtp:// upgrades with STARTTLS when the server offers it.
    secure: url.protocol === 'smtps:',
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  return {
    async send(mail) {
      await transport.sendMail(mail);
    },
    close: () => transport.close(),
  };
}

interface Due {
  id: number;
  realm_id: number;
  kind: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
}

/**
 * Sends the mail that is due, each claimed first; returns how many it took. `now` is for tests.
 */
export async function sendDueMail(
  ctx: AppContext,
  sender: MailSender,
  now = nowSeconds(),
): Promise<number> {
  const due = await ctx.db
    .selectFrom('mail_queue')
    .select([
      'id',
      'realm_id',
      'kind',
      'recipient',
      'subject',
      'text_body',
      'html_body',
      'attempts',
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<=', now)]),
      ]),
    )
    .orderBy('id')
    .limit(BATCH)
    .execute();
  let taken = 0;
  for (const mail of due) {
    if (!(await claim(ctx, mail, now))) continue;
    taken++;
    await deliver(ctx, sender, { ...mail, attempts: mail.attempts + 1 });
  }
  return taken;
}

/** Moves the mail to `sending` if nobody else did meanwhile; counts the try. */
async function claim(ctx: AppContext, mail: Due, now: number): Promise<boolean> {
  const result = await transact(ctx, (trx) =>
    trx
      .updateTable('mail_queue')
      .set({ status: 'sending', claimed_until: now + LEASE_SECONDS, attempts: mail.attempts + 1 })
      .where('id', '=', mail.id)
      // The attempts seen when it was read: another worker's claim in between changed them.
      .where('attempts', '=', mail.attempts)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<=', now)]),
        ]),
      )
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) === 1;
}

async function deliver(ctx: AppContext, sender: MailSender, mail: Due) {
  const realm = await ctx.db
    .selectFrom('realms')
    .select('name')
    .where('id', '=', mail.realm_id)
    .executeTakeFirst();
  try {
    await sender.send({
      from: { name: realm?.name ?? 'Parley', address: noreplyAddress(ctx) },
      to: mail.recipient,
      subject: mail.subject,
      text: mail.text_body,
      html: mail.html_body,
    });
  } catch (err) {
    await recordFailure(ctx, mail, err);
    return;
  }
  const now = nowSeconds();
  await transact(ctx, (trx) =>
    trx
      .updateTable('mail_queue')
      .set({
        status: 'sent',
        sent_at: now,
        claimed_until: 0,
        last_error: null,
        // Once sent, a reset link's secret is kept only in the recipient's mailbox.
        ...(mail.kind === 'password_reset'
          ? {
              text_body: hideResetLinks(mail.text_body),
              html_body: hideResetLinks(mail.html_body),
            }
          : {}),
      })
      .where('id', '=', mail.id)
      .where('status', '=', 'sending')
      .execute(),
  );
  ctx.log.info({ mail: mail.id, kind: mail.kind }, 'Sent a mail');
}

/**
 * A failed try: tried again after the back-off, unless the mail server refused the mail for
 * good (a 5xx answer) or the tries are used up, when the mail is `failed`.
 */
async function recordFailure(ctx: AppContext, mail: Due, err: unknown) {
  const e = err as { message?: string; responseCode?: number };
  const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500;
  const giveUp = permanent || mail.attempts >= MAX_ATTEMPTS;
  const message = String(e.message ?? err).slice(0, 500);
  const now = nowSeconds();
  await transact(ctx, (trx) =>
    trx
      .updateTable('mail_queue')
      .set({
        status: giveUp ? 'failed' : 'queued',
        last_error: message,
        claimed_until: 0,
        next_attempt_at: giveUp ? now : now + retryDelaySeconds(ctx, mail.attempts),
      })
      .where('id', '=', mail.id)
      .where('status', '=', 'sending')
      .execute(),
  );
  ctx.log.warn(
    { mail: mail.id, kind: mail.kind, attempts: mail.attempts, err: message },
    giveUp ? 'A mail could not be sent; giving up' : 'A mail could not be sent; trying again later',
  );
}

/**
 * Runs sendDueMail every `intervalMs` (config.mailPollMs) while PARLEY_SMTP_URL is set. Returns
 * the function that stops it and waits for a tick in progress (call it before closing the
 * database). Without a mail server it does nothing: mail stays queued.
 */
export function startMailWorker(
  ctx: AppContext,
  opts: { intervalMs?: number; sender?: MailSender } = {},
): () => Promise<void> {
  const smtpUrl = ctx.config.smtpUrl;
  if (!smtpUrl && !opts.sender) {
    ctx.log.info(
      'PARLEY_SMTP_URL is not set: mail is queued, not sent; administrators read it in the app (Organization › Outgoing mail)',
    );
    return async () => {};
  }
  let sender: Promise<MailSender> | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    sender ??= opts.sender ? Promise.resolve(opts.sender) : smtpSender(smtpUrl!);
    running = sender
      .then((s) => sendDueMail(ctx, s))
      .catch((err) => ctx.log.error({ err }, 'The mail worker failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, opts.intervalMs ?? ctx.config.mailPollMs);
  timer.unref();
  tick();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
    if (sender) (await sender.catch(() => null))?.close();
  };
}
