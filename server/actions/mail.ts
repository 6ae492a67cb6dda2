import crypto from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { parseSettings, USER_SETTING_DEFAULTS } from '../domain/settings.js';
import { nowSeconds, requireAdmin } from '../lib/admin-checks.js';
import { realmIconUrl, realmSettings } from '../lib/realm.js';
import { topicNarrowUrl } from '../markdown/links.js';
import { composeMail, type MailFrame, type MailSpec, type QuotedMessage } from '../pages/mail.js';
import { mailTranslator } from '../pages/strings.js';
import { supportedLanguage } from '../../src/i18n/languages.js';

/**
 * The mail the server sends, queued in the database (`mail_queue`) in the transaction of the
 * change that causes it, so that a change that is rolled back sends nothing and one that is
 * committed is not forgotten by a crash. The worker (mail-worker.ts) sends it when a mail server
 * is configured; until then administrators read it at GET /parley/mail.
 */

export type MailKind =
  | 'invitation'
  | 'signup_confirmation'
  | 'already_member'
  | 'email_change'
  | 'password_reset'
  | 'login'
  | 'missed_messages'
  | 'digest';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/**
 * Queues a mail in `trx`. `cause` names what made it (`invitation:<id>:<created>`): a cause
 * already queued queues nothing more, so one cause never makes two mails. Returns whether the
 * mail was queued.
 */
export async function enqueueMail(
  trx: Database,
  mail: {
    realmId: number;
    kind: MailKind;
    to: string;
    cause: string;
    frame: MailFrame;
    spec: MailSpec;
  },
): Promise<boolean> {
  const content = composeMail(mail.frame, mail.spec);
  const now = nowSeconds();
  const result = await trx
    .insertInto('mail_queue')
    .values({
      realm_id: mail.realmId,
      kind: mail.kind,
      recipient: mail.to,
      subject: content.subject,
      text_body: content.text,
      html_body: content.html,
      cause: mail.cause,
      status: 'queued',
      attempts: 0,
      next_attempt_at: now,
      claimed_until: 0,
      last_error: null,
      created_at: now,
      sent_at: null,
    })
    .onConflict((oc) => oc.column('cause').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The frame of a mail about `realm` in `language` (a user's or the organization's). */
function mailFrame(ctx: AppContext, realm: Realm, language: string | undefined): MailFrame {
  return {
    language: supportedLanguage(language),
    realmName: realm.name,
    realmUrl: ctx.config.externalUrl,
    iconUrl: realmIconUrl(ctx, realm),
  };
}

/** A person's language for mail: their `default_language`. */
const userLanguage = (user: User) =>
  parseSettings(USER_SETTING_DEFAULTS, user.settings).default_language as string;
/** Someone without an account yet reads the organization's language. */
const realmLanguage = (realm: Realm) => realmSettings(realm).default_language;

/**
 * An invitation by email: to `to`, from `inviterName`, its link (the invitation's key). Its
 * cause counts the invitation's mails (`invitation:<id>:<n>`): each resend is a mail of its own.
 */
export async function queueInvitationMail(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  invite: { id: number; email: string },
  inviterName: string,
  link: string,
) {
  const prefix = `invitation:${invite.id}:`;
  const { n } = await trx
    .selectFrom('mail_queue')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('realm_id', '=', realm.id)
    .where('kind', '=', 'invitation')
    .where('recipient', '=', invite.email)
    .where('cause', 'like', `${prefix}%`)
    .executeTakeFirstOrThrow();
  return enqueueMail(trx, {
    realmId: realm.id,
    kind: 'invitation',
    to: invite.email,
    cause: `${prefix}${Number(n) + 1}`,
    frame: mailFrame(ctx, realm, realmLanguage(realm)),
    spec: {
      subject: 'invitation.subject',
      values: { inviter: inviterName },
      paragraphs: ['invitation.body'],
      action: { label: 'invitation.button', url: link },
      notes: ['invitation.ignore'],
    },
  });
}

/** The link that confirms the address typed into a reusable invitation link's form. */
export function queueSignupConfirmationMail(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  to: string,
  confirmationKeyHash: string,
  link: string,
) {
  return enqueueMail(trx, {
    realmId: realm.id,
    kind: 'signup_confirmation',
    to,
    cause: `signup_confirmation:${confirmationKeyHash}`,
    frame: mailFrame(ctx, realm, realmLanguage(realm)),
    spec: {
      subject: 'signupConfirmation.subject',
      values: {},
      paragraphs: ['signupConfirmation.body'],
      action: { label: 'signupConfirmation.button', url: link },
      notes: ['signupConfirmation.ignore'],
    },
  });
}

/** Someone asked to join with an address that has an account already: its mailbox is told. */
export function queueAlreadyMemberMail(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  to: string,
  user: User,
) {
  return enqueueMail(trx, {
    realmId: realm.id,
    kind: 'already_member',
    to,
    cause: `already_member:${user.id}:${crypto.randomUUID()}`,
    frame: mailFrame(ctx, realm, userLanguage(user)),
    spec: {
      subject: 'alreadyMember.subject',
      values: {},
      paragraphs: ['alreadyMember.body'],
      action: { label: 'alreadyMember.button', url: `${ctx.config.externalUrl}/` },
    },
  });
}

/** The link confirming `user`'s new address, sent to that address. */
export function queueEmailChangeMail(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  user: User,
  newEmail: string,
  token: string,
  link: string,
) {
  return enqueueMail(trx, {
    realmId: realm.id,
    kind: 'email_change',
    to: newEmail,
    cause: `email_change:${sha256(token)}`,
    frame: mailFrame(ctx, realm, userLanguage(user)),
    spec: {
      subject: 'emailChange.subject',
      values: { email: newEmail },
      paragraphs: ['emailChange.body'],
      action: { label: 'emailChange.button', url: link },
      notes: ['emailChange.ignore'],
    },
  });
}

/** A password reset link; `resetId` is its row in password_resets. */
export function queuePasswordResetMail(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  user: User,
  resetId: number,
  link: string,
) {
  return enqueueMail(trx, {
    realmId: realm.id,
    kind: 'password_reset',
    to: user.delivery_email,
    cause: `password_reset:${resetId}`,
    frame: mailFrame(ctx, realm, userLanguage(user)),
    spec: {
      subject: 'passwordReset.subject',
      values: { email: user.delivery_email },
      paragraphs: ['passwordReset.body'],
      action: { label: 'passwordReset.button', url: link },
      notes: ['passwordReset.expires', 'passwordReset.ignore'],
    },
  });
}

/** What a login mail says of the client that logged in. */
export interface LoginClient {
  userAgent: string;
  ip: string;
}

/** The browser or app a User-Agent names, in a few words ("Firefox on Linux"), else its start. */
export function shortUserAgent(userAgent: string): string {
  const ua = userAgent.trim();
  if (!ua) return 'unknown';
  const zulip = /^(Zulip\w*|ZulipMobile|ZulipElectron|ZulipTerminal)\/([\w.]+)/.exec(ua);
  const browser = /(Edg|OPR|Firefox|Chrome|Safari)\/([\d.]+)/.exec(ua) && browserName(ua);
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad|iOS/.test(ua)
        ? 'iOS'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  const name = zulip ? `${zulip[1]} ${zulip[2]}` : browser;
  if (name) return os ? `${name} (${os})` : name;
  return ua.length > 60 ? `${ua.slice(0, 57)}...` : ua;
}

function browserName(ua: string): string {
  if (/\bEdg\//.test(ua)) return 'Edge';
  if (/\bOPR\//.test(ua)) return 'Opera';
  if (/\bFirefox\//.test(ua)) return 'Firefox';
  // HeadlessChrome/… too: the browser of scripts and tests is Chrome all the same.
  if (/Chrome\//.test(ua)) return 'Chrome';
  return 'Safari';
}

/** The time of a login as the person reads it: their language and time zone. */
function loginTime(language: string, timezone: string, at: Date): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'full', timeStyle: 'long' };
  try {
    return new Intl.DateTimeFormat(language, { ...options, timeZone: timezone || 'UTC' }).format(
      at,
    );
  } catch {
    return new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(at);
  }
}

/**
 * POST /fetch_api_key succeeded: the account's owner hears of it when `enable_login_emails` is
 * on (upstream's "new login" mail). Never for bots.
 */
export async function queueLoginMail(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  user: User,
  client: LoginClient,
) {
  if (user.is_bot) return false;
  const settings = parseSettings(USER_SETTING_DEFAULTS, user.settings);
  if (!settings.enable_login_emails) return false;
  const frame = mailFrame(ctx, realm, userLanguage(user));
  return enqueueMail(trx, {
    realmId: realm.id,
    kind: 'login',
    to: user.delivery_email,
    cause: `login:${user.id}:${crypto.randomUUID()}`,
    frame,
    spec: {
      subject: 'login.subject',
      values: { email: user.delivery_email },
      paragraphs: ['login.body'],
      facts: [
        { label: 'login.time', value: loginTime(frame.language, user.timezone, new Date()) },
        { label: 'login.client', value: shortUserAgent(client.userAgent) },
        { label: 'login.ip', value: client.ip },
      ],
      notes: ['login.notYou'],
      action: { label: 'login.button', url: `${ctx.config.externalUrl}/` },
    },
  });
}

/** A conversation with messages someone missed (missed-messages.ts), oldest first. */
export interface MissedConversation {
  stream: { id: number; name: string } | null;
  topic: string;
  /** a direct conversation's other participants */
  others: { id: number; name: string }[];
  messages: { id: number; senderName: string; dateSent: number; html: string; text: string }[];
}

/** The names of a direct conversation's others, joined as a list of the mail's language. */
function nameList(language: string, names: string[]) {
  try {
    return new Intl.ListFormat(language, { type: 'conjunction' }).format(names);
  } catch {
    return names.join(', ');
  }
}

/**
 * A message's HTML as a mail shows it: links relative to the organization (`/user_uploads/…`,
 * `#narrow/…`) made absolute, and the few styles mail readers need inline (they drop the app's
 * stylesheet): code and quotes set apart, wide blocks scrolling rather than widening the mail.
 */
function mailReadyHtml(html: string, base: string) {
  return html
    .replace(
      /\b(href|src)="(\/(?!\/)|#)/g,
      (_, attribute: string, start: string) => `${attribute}="${base}${start === '#' ? '/#' : '/'}`,
    )
    .replace(
      /<pre>/g,
      '<pre style="margin:8px 0;padding:8px 10px;background:#f4f5f8;color:#1f2329;border:1px solid #e3e6ec;border-radius:6px;overflow-x:auto;font-size:13px;white-space:pre-wrap">',
    )
    .replace(
      /<code>/g,
      '<code style="padding:1px 4px;background:#f4f5f8;color:#1f2329;border-radius:4px;font-size:13px">',
    )
    .replace(
      /<blockquote>/g,
      '<blockquote style="margin:8px 0;padding:0 0 0 10px;border-left:3px solid #c9ced8;color:#4b5260">',
    );
}

/**
 * The mail about one conversation's missed messages (upstream's missed-message email): what was
 * said, by whom and when, a link that opens the conversation at the first of them, and where to
 * change the settings that sent it. One mail per batch of a conversation: its cause is the first
 * message's id for this person.
 */
export async function queueMissedMessagesMail(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  user: User,
  conversation: MissedConversation,
  { withContent }: { withContent: boolean },
) {
  const base = ctx.config.externalUrl;
  const frame = mailFrame(ctx, realm, userLanguage(user));
  const first = conversation.messages[0]!;
  const { stream, topic, others } = conversation;
  const ids = others.map((o) => o.id);
  const url = stream
    ? `${base}${topicNarrowUrl(stream.id, stream.name, topic)}/near/${first.id}`
    : `${base}/#narrow/dm/${[...ids, ...(ids.length > 1 ? [user.id] : [])].sort((a, b) => a - b).join(',')}-${ids.length > 1 ? 'group' : 'dm'}/near/${first.id}`;
  const names = nameList(
    frame.language,
    others.map((o) => o.name),
  );
  const kind = stream ? 'stream' : others.length > 1 ? 'group' : 'dm';
  const time = (seconds: number) =>
    messageTime(frame.language, user.timezone, new Date(seconds * 1000));
  const messages: QuotedMessage[] = conversation.messages.map((m) => ({
    sender: m.senderName,
    time: time(m.dateSent),
    html: withContent ? mailReadyHtml(m.html, base) : null,
    text: withContent ? m.text : null,
  }));
  return enqueueMail(trx, {
    realmId: realm.id,
    kind: 'missed_messages',
    to: user.delivery_email,
    cause: `missed_messages:${user.id}:${first.id}`,
    frame,
    spec: {
      subject: `missed.subject.${kind}`,
      values: {
        channel: stream?.name ?? '',
        topic,
        names,
      },
      paragraphs: [`missed.body.${kind}`],
      messages,
      action: { label: 'missed.button', url },
      notes: [...(withContent ? [] : ['missed.noContent']), 'missed.why'],
      footnoteLink: { label: 'missed.settings', url: `${base}/#settings/notifications` },
    },
  });
}

/** A conversation a digest lists: where, since which message, how busy, and who spoke. */
export interface DigestConversation {
  stream: { id: number; name: string };
  topic: string;
  firstId: number;
  unread: number;
  senders: string[];
}

/**
 * The weekly digest (upstream's digest email): the busiest conversations `user` has not read this
 * week, each a link into it. One per person and week: the cause names the week.
 */
export function queueDigestMail(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  user: User,
  conversations: DigestConversation[],
  week: string,
) {
  const base = ctx.config.externalUrl;
  const frame = mailFrame(ctx, realm, userLanguage(user));
  const t = mailTranslator(frame.language);
  return enqueueMail(trx, {
    realmId: realm.id,
    kind: 'digest',
    to: user.delivery_email,
    cause: `digest:${user.id}:${week}`,
    frame,
    spec: {
      subject: 'digest.subject',
      values: {},
      paragraphs: ['digest.body'],
      topics: conversations.map((c) => ({
        title: `#${c.stream.name} > ${c.topic}`,
        summary: t.text('digest.summary', {
          count: c.unread,
          names: nameList(frame.language, c.senders.slice(0, 3)),
        }),
        url: `${base}${topicNarrowUrl(c.stream.id, c.stream.name, c.topic)}/near/${c.firstId}`,
      })),
      action: { label: 'digest.button', url: `${base}/` },
      notes: ['digest.why'],
      footnoteLink: { label: 'missed.settings', url: `${base}/#settings/notifications` },
    },
  });
}

/** A message's time as the person reads it: their language and time zone. */
function messageTime(language: string, timezone: string, at: Date): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return new Intl.DateTimeFormat(language, { ...options, timeZone: timezone || 'UTC' }).format(
      at,
    );
  } catch {
    return new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(at);
  }
}

/** Password reset links are keys to accounts, administrators' included: the list hides them. */
const RESET_LINK = /\/accounts\/password\/reset\/[^/\s"<>]+\/?/g;
export const hideResetLinks = (text: string) =>
  text.replace(RESET_LINK, '/accounts/password/reset/[hidden]/');

/** GET /parley/mail: the organization's mail, newest first, for its administrators. */
export async function listMail(ctx: AppContext, realm: Realm, actor: User, limit = 100) {
  requireAdmin(actor);
  const rows = await ctx.db
    .selectFrom('mail_queue')
    .select([
      'id',
      'kind',
      'recipient',
      'subject',
      'status',
      'created_at',
      'sent_at',
      'attempts',
      'last_error',
      'text_body',
    ])
    .where('realm_id', '=', realm.id)
    .orderBy('id', 'desc')
    .limit(Math.max(1, Math.min(limit, 1000)))
    .execute();
  return {
    // Without a mail server, nothing leaves: the page says so, and that links are passed on by hand.
    delivery_configured: Boolean(ctx.config.smtpUrl),
    mails: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      to: r.recipient,
      subject: r.subject,
      status: r.status,
      created_at: r.created_at,
      sent_at: r.sent_at,
      attempts: r.attempts,
      last_error: r.last_error,
      text: r.kind === 'password_reset' ? hideResetLinks(r.text_body) : r.text_body,
    })),
  };
}
