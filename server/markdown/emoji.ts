import { createRequire } from 'node:module';
import { escapeHtml } from './links.js';

interface EmojiEntry {
  unified: string;
  short_name: string;
  short_names: string[];
}

/** Zulip's emoji codes: the code points in lowercase hex joined by '-', without FE0F selectors. */
function zulipCode(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((cp) => cp !== 'fe0f')
    .join('-');
}

/** Names Zulip uses in addition to the data set's; `canonical` ones also name the emoji. */
const ZULIP_NAMES: { name: string; code: string; canonical?: boolean }[] = [
  { name: 'thumbs_up', code: '1f44d' },
  { name: 'thumbs_down', code: '1f44e' },
  { name: 'working_on_it', code: '1f6e0', canonical: true },
  { name: 'slight_smile', code: '1f642', canonical: true },
];

interface EmojiTables {
  codeByName: Map<string, string>;
  nameByCode: Map<string, string>;
}

let tables: EmojiTables | undefined;

/**
 * The name and code tables, built from the emoji data set (1.3 MB of JSON) when a message is
 * first rendered rather than while the server starts.
 */
function emojiTables(): EmojiTables {
  if (tables) return tables;
  const require = createRequire(import.meta.url);
  const data = require('emoji-datasource/emoji.json') as EmojiEntry[];
  const codeByName = new Map<string, string>();
  const nameByCode = new Map<string, string>();
  for (const entry of data) {
    const code = zulipCode(entry.unified);
    if (!nameByCode.has(code)) nameByCode.set(code, entry.short_name);
    for (const name of entry.short_names) if (!codeByName.has(name)) codeByName.set(name, code);
  }
  for (const { name, code, canonical } of ZULIP_NAMES) {
    if (!nameByCode.has(code)) continue;
    if (!codeByName.has(name)) codeByName.set(name, code);
    if (canonical) nameByCode.set(code, name);
  }
  tables = { codeByName, nameByCode };
  return tables;
}

/** 'smile' -> '1f604'; multi-codepoint emoji join their code points with '-' ('us' -> '1f1fa-1f1f8'). */
export function emojiCodeForName(name: string): string | undefined {
  // Skin tone modifiers are parts of emoji, not emoji: upstream has no names for them.
  if (name.startsWith('skin-tone-')) return undefined;
  return emojiTables().codeByName.get(name);
}

/** The primary name of an emoji code ('1f604' -> 'smile'); FE0F selectors are ignored. */
export function emojiNameForCode(code: string): string | undefined {
  return emojiTables().nameByCode.get(zulipCode(code));
}

/**
 * Zulip's markup for an emoji: the name with spaces for underscores as its label and title, the
 * shortcode as its text (clients draw the emoji from the code points in the class).
 */
export function emojiSpan(name: string, code: string): string {
  const label = escapeHtml(name.replace(/_/g, ' '));
  return `<span aria-label="${label}" class="emoji emoji-${code}" role="img" title="${label}">:${escapeHtml(name)}:</span>`;
}

/** Zulip's markup for a custom emoji: the image, with the name's underscores as spaces in the title. */
export function realmEmojiImage(name: string, src: string): string {
  const title = name.replace(/_/g, ' ');
  return `<img alt=":${escapeHtml(name)}:" class="emoji" src="${escapeHtml(src)}" title="${escapeHtml(title)}">`;
}

/**
 * A typed Unicode emoji: a flag (two regional indicators), a keycap, or a pictograph shown as
 * emoji by default (or forced with FE0F, or joined to others with ZWJ), with optional skin tone
 * and ZWJ-joined parts.
 * Text-style pictographs such as © or ™ without FE0F are left alone.
 */
const UNICODE_EMOJI =
  /\p{RI}\p{RI}|[#*0-9]\uFE0F?\u20E3|(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\p{Extended_Pictographic}(?=\u200D))\p{EMod}?(?:\u200D\p{Extended_Pictographic}\uFE0F?\p{EMod}?)*/gu;
const MAYBE_EMOJI = /[\u00a9-\u{10ffff}]/u;

/** Wraps typed Unicode emoji in (already escaped) HTML text in the same markup as :shortcodes:. */
export function wrapUnicodeEmoji(html: string): string {
  if (!MAYBE_EMOJI.test(html)) return html;
  return html.replace(UNICODE_EMOJI, (seq) => {
    const code = zulipCode(
      [...seq].map((c) => c.codePointAt(0)!.toString(16).padStart(4, '0')).join('-'),
    );
    const name = emojiTables().nameByCode.get(code);
    return name ? emojiSpan(name, code) : seq;
  });
}

/**
 * Every emoji code with its names, the primary one first: the body of `server_emoji_data_url`
 * (upstream's emoji_api.json, level 140), from which the mobile apps learn emoji names.
 */
export function emojiCodeToNames(): Record<string, string[]> {
  const { codeByName, nameByCode } = emojiTables();
  const out: Record<string, string[]> = {};
  for (const [code, name] of nameByCode) if (!name.startsWith('skin-tone-')) out[code] = [name];
  for (const [name, code] of codeByName)
    if (out[code] && !out[code].includes(name) && !name.startsWith('skin-tone-'))
      out[code].push(name);
  return out;
}

/** Where `emojiCodeToNames` is served, upstream's path (register's `server_emoji_data_url`). */
export const EMOJI_DATA_PATH = '/static/generated/emoji/emoji_api.json';
