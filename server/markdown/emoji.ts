import { escapeHtml } from './links.js';
import EMOJI_NAMES from './emoji-names.json' with { type: 'json' };

/**
 * The reference server's names for Unicode emoji, by code: the canonical name first, then its
 * aliases (`1f642` is `smile`, `1f604` is `big_smile`, `1f44d` is `+1`, `thumbs_up` and `like`).
 * Written by scripts/emoji-names.mjs; the client's emoji table is made from the same file. An
 * emoji the table does not name has no name, as in the reference.
 */
const NAMES_BY_CODE: Readonly<Record<string, readonly string[]>> = EMOJI_NAMES;

/** Zulip's emoji codes: the code points in lowercase hex joined by '-', without FE0F selectors. */
function zulipCode(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((cp) => cp !== 'fe0f')
    .join('-');
}

let codeByName: Map<string, string> | undefined;

/**
 * The code a name or alias means ('smile' -> '1f642', 'big_smile' -> '1f604', 'like' -> '1f44d');
 * multi-codepoint emoji join their code points with '-' ('flag_united_states' -> '1f1fa-1f1f8').
 */
export function emojiCodeForName(name: string): string | undefined {
  if (!codeByName) {
    codeByName = new Map();
    for (const [code, names] of Object.entries(NAMES_BY_CODE))
      for (const alias of names) codeByName.set(alias, code);
  }
  return codeByName.get(name);
}

/** The canonical name of an emoji code ('1f642' -> 'smile'); FE0F selectors are ignored. */
export function emojiNameForCode(code: string): string | undefined {
  const key = zulipCode(code);
  return Object.hasOwn(NAMES_BY_CODE, key) ? NAMES_BY_CODE[key]![0] : undefined;
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
    const name = emojiNameForCode(code);
    return name ? emojiSpan(name, code) : seq;
  });
}

/**
 * Every emoji code with its names, the canonical one first: the body of `server_emoji_data_url`
 * (upstream's emoji_api.json, level 140), from which the mobile apps learn emoji names.
 */
export function emojiCodeToNames(): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(NAMES_BY_CODE).map(([code, names]) => [code, [...names]]),
  );
}

/** Where `emojiCodeToNames` is served, upstream's path (register's `server_emoji_data_url`). */
export const EMOJI_DATA_PATH = '/static/generated/emoji/emoji_api.json';
