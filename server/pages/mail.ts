import type { LanguageCode } from '../../src/i18n/languages.js';
import { escapeHtml } from './page.js';
import { mailTranslator } from './strings.js';

/** A mail as it is queued: one subject, a plain-text part and an HTML part of the same words. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** Whom a mail speaks to and for which organization. */
export interface MailFrame {
  language: LanguageCode;
  realmName: string;
  /** the organization's address, where its name links to */
  realmUrl: string;
  /** the organization's icon, absolute */
  iconUrl?: string;
}

/**
 * What a mail says, as keys of the `mail` catalog (each with the values put into it): its
 * paragraphs, the one link it leads to (drawn as a button, with the address spelt out beneath for
 * mail readers that show no buttons), facts as label and value lines, and notes after them.
 */
export interface MailSpec {
  subject: string;
  values: Record<string, string>;
  paragraphs: string[];
  action?: { label: string; url: string };
  facts?: { label: string; value: string }[];
  /** messages quoted in the mail: their sender, time, rendered HTML and Markdown source */
  messages?: QuotedMessage[];
  notes?: string[];
  /** conversations listed as links, each with a line about it (a digest's) */
  topics?: { title: string; summary: string; url: string }[];
  /** a small link after the notes (where to change which mails one gets) */
  footnoteLink?: { label: string; url: string };
}

/**
 * A message as a mail quotes it. `html` is the server's own rendering (its Markdown renderer
 * allows no markup of the sender's), with relative links made absolute; null leaves the content
 * out, as the settings may ask.
 */
export interface QuotedMessage {
  sender: string;
  time: string;
  html: string | null;
  text: string | null;
}

const FONT =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

// Mail readers drop <style> often and keep inline styles; the few rules in <style> only darken
// the mail for readers that follow `prefers-color-scheme` (the inline colours are the light ones).
const DARK_STYLE =
  ':root{color-scheme:light dark;supported-color-schemes:light dark}' +
  '@media (prefers-color-scheme: dark){' +
  '.mail-body{background:#111418 !important;color:#e3e6ea !important}' +
  '.mail-card{background:#1d2127 !important;color:#e3e6ea !important;border-color:#2e343c !important}' +
  '.mail-muted{color:#9aa3ad !important}' +
  '.mail-link{color:#8fb3ff !important}}';

/** Words in both forms: plain for the text part, escaped for the HTML part. */
interface Words {
  text: string;
  html: string;
}

/** What a mail says, translated: the parts both forms are made of. */
interface Said {
  subject: string;
  paragraphs: Words[];
  facts: { label: string; value: string }[];
  messages: QuotedMessage[];
  topics: { title: string; summary: string; url: string }[];
  action: { label: Words; url: string; fallback: string } | undefined;
  notes: Words[];
  footnote: { label: string; url: string } | undefined;
  footer: Words;
}

/** A mail's subject, text and HTML from what it says, in the frame's language. */
export function composeMail(frame: MailFrame, spec: MailSpec): MailContent {
  const t = mailTranslator(frame.language);
  const values = { ...spec.values, realm: frame.realmName };
  const words = (key: string): Words => ({ text: t.text(key, values), html: t.html(key, values) });
  const said: Said = {
    subject: t.text(spec.subject, values).replace(/[\r\n]+/g, ' '),
    paragraphs: spec.paragraphs.map(words),
    facts: (spec.facts ?? []).map((f) => ({ label: t.text(f.label, values), value: f.value })),
    messages: spec.messages ?? [],
    topics: spec.topics ?? [],
    action: spec.action && {
      label: words(spec.action.label),
      url: spec.action.url,
      fallback: t.html('common.fallback'),
    },
    notes: (spec.notes ?? []).map(words),
    footnote: spec.footnoteLink && {
      label: t.text(spec.footnoteLink.label, values),
      url: spec.footnoteLink.url,
    },
    footer: words('common.footer'),
  };
  return { subject: said.subject, text: mailText(frame, said), html: mailHtml(frame, said) };
}

function mailText(frame: MailFrame, said: Said): string {
  const { paragraphs, facts, messages, topics, action, notes, footnote, footer } = said;
  return [
    frame.realmName,
    '',
    ...paragraphs.flatMap((p) => [p.text, '']),
    ...(facts.length ? [...facts.map((f) => `${f.label}: ${f.value}`), ''] : []),
    ...messages.flatMap((m) => [
      `${m.sender} (${m.time}):`,
      ...(m.text === null ? [] : m.text.split('\n').map((line) => `> ${line}`)),
      '',
    ]),
    ...topics.flatMap((c) => [`${c.title}`, `  ${c.summary}`, `  ${c.url}`, '']),
    ...(action ? [`${action.label.text}:`, action.url, ''] : []),
    ...notes.flatMap((n) => [n.text, '']),
    ...(footnote ? [`${footnote.label}: ${footnote.url}`, ''] : []),
    '-- ',
    footer.text,
    '',
  ].join('\n');
}

const p = (html: string, style = '') =>
  `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;${style}">${html}</p>`;
const muted = (html: string, style: string) =>
  p(html, `${style};color:#6b7280`).replace('<p ', '<p class="mail-muted" ');

function mailHeader(frame: MailFrame): string {
  const icon = frame.iconUrl
    ? `<img src="${escapeHtml(frame.iconUrl)}" alt="" width="48" height="48" style="display:block;width:48px;height:48px;border:0;border-radius:10px;margin:0 0 12px">`
    : '';
  return (
    icon +
    `<p style="margin:0 0 20px;font-size:20px;font-weight:600;line-height:1.3">` +
    `<a class="mail-link" href="${escapeHtml(frame.realmUrl)}" style="color:inherit;text-decoration:none">${escapeHtml(frame.realmName)}</a></p>`
  );
}

/** A digest's conversations: each a link, with a line about it beneath. */
const topicsHtml = (topics: Said['topics']) =>
  topics
    .map(
      (c) =>
        `<p style="margin:0 0 14px;font-size:16px;line-height:1.4">` +
        `<a class="mail-link" href="${escapeHtml(c.url)}" style="color:#3b6fd4;font-weight:600;text-decoration:none">${escapeHtml(c.title)}</a>` +
        `<br><span class="mail-muted" style="font-size:14px;color:#6b7280">${escapeHtml(c.summary)}</span></p>`,
    )
    .join('');

/** The quoted messages, each under its sender and time; their HTML is the server's own. */
const quotedHtml = (messages: QuotedMessage[]) =>
  messages
    .map(
      (m) =>
        `<div style="margin:0 0 16px;padding:0 0 0 12px;border-left:3px solid #c9ced8">` +
        `<p class="mail-muted" style="margin:0 0 4px;font-size:14px;color:#6b7280"><strong style="color:inherit">${escapeHtml(m.sender)}</strong> · ${escapeHtml(m.time)}</p>` +
        (m.html === null
          ? ''
          : `<div style="font-size:15px;line-height:1.5;overflow-wrap:anywhere">${m.html}</div>`) +
        `</div>`,
    )
    .join('');

function mailBody(said: Said): string {
  const { paragraphs, facts, messages, topics, action, notes, footnote } = said;
  const button = action
    ? `<p style="margin:8px 0 24px"><a class="mail-button" href="${escapeHtml(action.url)}" style="display:inline-block;background:#3b6fd4;color:#ffffff;font-size:16px;font-weight:600;line-height:1.2;padding:12px 20px;border-radius:6px;text-decoration:none">${action.label.html}</a></p>` +
      muted(
        `${action.fallback}<br><a class="mail-link" href="${escapeHtml(action.url)}" style="color:#3b6fd4;word-break:break-all">${escapeHtml(action.url)}</a>`,
        'font-size:13px',
      )
    : '';
  const factLines = facts.length
    ? p(
        facts
          .map((f) => `<strong>${escapeHtml(f.label)}:</strong> ${escapeHtml(f.value)}`)
          .join('<br>'),
      )
    : '';
  const footnoteLine = footnote
    ? muted(
        `<a class="mail-link" href="${escapeHtml(footnote.url)}" style="color:#3b6fd4">${escapeHtml(footnote.label)}</a>`,
        'font-size:13px',
      )
    : '';
  return (
    paragraphs.map((x) => p(x.html)).join('') +
    factLines +
    quotedHtml(messages) +
    topicsHtml(topics) +
    button +
    notes.map((x) => muted(x.html, 'font-size:14px')).join('') +
    footnoteLine
  );
}

function mailHtml(frame: MailFrame, said: Said): string {
  return (
    `<!doctype html><html lang="${escapeHtml(frame.language)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">` +
    `<title>${escapeHtml(said.subject)}</title><style>${DARK_STYLE}</style></head>` +
    `<body class="mail-body" style="margin:0;padding:0;background:#f2f4f7;color:#1f2329;font-family:${FONT}">` +
    `<div style="max-width:560px;margin:0 auto;padding:24px 12px">` +
    `<div class="mail-card" style="background:#ffffff;color:#1f2329;border:1px solid #e2e5ea;border-radius:10px;padding:24px 20px">` +
    mailHeader(frame) +
    mailBody(said) +
    `</div>` +
    `<p class="mail-muted" style="margin:16px 8px 0;font-size:12px;line-height:1.5;color:#6b7280">${said.footer.html}</p>` +
    `</div></body></html>`
  );
}
