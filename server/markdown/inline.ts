import katex from 'katex';
import type { MarkdownIt, StateInline } from 'markdown-it';
import { checkBudget } from './budget.js';
import { emojiCodeForName, emojiSpan, realmEmojiImage } from './emoji.js';
import { escapeText } from './links.js';
import { renderEnv, type MarkdownRealmEmoji } from './types.js';

/**
 * The token type carrying HTML that this module generated (and escaped) itself, or a character
 * reference checked to be one (`&amp;`, `&#60;`). Source HTML is never parsed (html: false), so
 * these are the only tokens rendered without escaping.
 */
export const RAW_HTML = 'zulip_html';

export function pushHtml(state: StateInline, html: string): void {
  state.push(RAW_HTML, '', 0).content = html;
}

/** Matches `re` (a sticky regex) at the current position. */
export function matchHere(state: StateInline, re: RegExp): RegExpExecArray | null {
  re.lastIndex = state.pos;
  const m = re.exec(state.src);
  return m && m.index + m[0].length <= state.posMax ? m : null;
}

/** True when the character before the current position is not a letter, digit or '_'. */
export function atWordStart(state: StateInline): boolean {
  if (state.pos === 0) return true;
  return !/[\p{L}\p{N}_]/u.test(state.src[state.pos - 1]!);
}

const EMOJI_SHORTCODE = /:([\p{L}\p{N}_+-]{1,60}):/uy;

/** The organization's active custom emoji named `name`, indexed once per render. */
function realmEmojiNamed(state: StateInline, name: string): MarkdownRealmEmoji | undefined {
  const env = renderEnv(state.env);
  const list = env?.ctx.realmEmoji;
  if (!env || !list?.length) return undefined;
  let index = env.lookups.realmEmoji;
  if (!index) index = env.lookups.realmEmoji = new Map(list.map((e) => [e.name, e]));
  return index.get(name);
}

/** The reference's own `:zulip:` emoji, an image it serves with its static files. */
const ZULIP_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/zulip.png';

/**
 * :shortcode: emoji, custom ones first as upstream. A shortcode that names no emoji stays as
 * typed, and its colons are used up (`:nope:smile:` stays text), as upstream.
 */
function emojiRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const m = matchHere(state, EMOJI_SHORTCODE);
  if (!m) return false;
  const name = m[1]!;
  const custom = realmEmojiNamed(state, name);
  const code = custom ? undefined : emojiCodeForName(name);
  if (!silent) {
    if (custom) pushHtml(state, realmEmojiImage(custom.name, custom.source_url));
    else if (name === 'zulip') pushHtml(state, realmEmojiImage('zulip', ZULIP_EMOJI_URL));
    else if (code) pushHtml(state, emojiSpan(name, code));
    else state.pending += m[0];
  }
  state.pos += m[0].length;
  return true;
}

/**
 * Emoticons, for senders who turned on translate_emoticons: `:)` and friends, standing between
 * spaces or punctuation, become the emoji the reference translates them to, by its names.
 */
const EMOTICONS: Record<string, string> = {
  ':)': 'smile',
  '(:': 'smile',
  ':(': 'frown',
  '<3': 'heart',
  ':|': 'neutral',
  ':/': 'confused',
  ';)': 'wink',
  ':D': 'grinning',
  ':o': 'open_mouth',
  ':O': 'open_mouth',
  ':p': 'stuck_out_tongue',
  ':P': 'stuck_out_tongue',
};
const EMOTICON_EDGE = /[\s,.;?!()[\]"']/;

function emoticonRule(state: StateInline, silent: boolean): boolean {
  const env = renderEnv(state.env);
  if (!env?.ctx.translateEmoticons) return false;
  const pair = state.src.slice(state.pos, state.pos + 2);
  const name = EMOTICONS[pair];
  if (!name) return false;
  const before = state.pos > 0 ? state.src[state.pos - 1]! : ' ';
  const after = state.pos + 2 < state.posMax ? state.src[state.pos + 2]! : ' ';
  if (!EMOTICON_EDGE.test(before) || !EMOTICON_EDGE.test(after)) return false;
  const code = emojiCodeForName(name);
  if (!code) return false;
  if (!silent) pushHtml(state, emojiSpan(name, code));
  state.pos += 2;
  return true;
}

/** $$ TeX $$ as upstream: not after a letter or digit, not starting with `_`, on one line. */
const INLINE_MATH = /\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)/y;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** $$ inline TeX $$ */
function mathRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x24 /* $ */) return false;
  const prev = state.pos > 0 ? state.src[state.pos - 1]! : '';
  if (prev === '$' || WORD_CHAR.test(prev)) return false;
  const m = matchHere(state, INLINE_MATH);
  if (!m || m[1]!.length > 2000) return false;
  const next = state.src[state.pos + m[0].length] ?? '';
  if (WORD_CHAR.test(next)) return false;
  if (!silent) {
    checkBudget(renderEnv(state.env));
    pushHtml(
      state,
      renderMath(m[1]!, false) ?? `<span class="tex-error">${escapeText(m[0])}</span>`,
    );
  }
  state.pos += m[0].length;
  return true;
}

/**
 * `code`, as upstream: a run of backticks, then anything on the same line up to the same run;
 * the spaces inside are kept.
 */
const CODE_SPAN = /(`+)([^\n]+?)(?<!`)\1(?!`)/y;

function backtickRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x60 /* ` */) return false;
  if (state.pos > 0 && state.src.charCodeAt(state.pos - 1) === 0x60) return false;
  const m = matchHere(state, CODE_SPAN);
  if (!m) {
    let end = state.pos;
    while (state.src.charCodeAt(end) === 0x60) end++;
    if (!silent) state.pending += state.src.slice(state.pos, end);
    state.pos = end;
    return true;
  }
  if (!silent) pushHtml(state, `<code>${escapeText(m[2]!)}</code>`);
  state.pos += m[0].length;
  return true;
}

/** Character references stay as typed (`&amp;` stays `&amp;`), as upstream; other `&`s are text. */
const ENTITY = /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/y;

function entityRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x26 /* & */) return false;
  const m = matchHere(state, ENTITY);
  if (!m) return false;
  if (!silent) pushHtml(state, m[0]);
  state.pos += m[0].length;
  return true;
}

/**
 * Zulip has no underscore emphasis (snake_case and __dunder__ stay as typed): runs of '_' are
 * consumed as plain text before the emphasis rule can see them.
 */
function underscoreRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5f /* _ */) return false;
  let end = state.pos;
  while (end < state.posMax && state.src.charCodeAt(end) === 0x5f) end++;
  if (!silent) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

const mathCache = new Map<string, string | null>();

/** KaTeX 0.19 prefixes these classes with `katex-`; the reference's KaTeX (0.16) does not. */
const KATEX_RENAMED = new Set(
  'accent base fix hdashline hline inner newline overlay overline root rule sizing smash sout stretchy strut tag thinbox underline vbox'.split(
    ' ',
  ),
);

function unprefixKatexClasses(html: string): string {
  return html.replace(/ class="([^"]*)"/g, (_whole, classes: string) => {
    const renamed = classes
      .split(' ')
      .map((c) => (c.startsWith('katex-') && KATEX_RENAMED.has(c.slice(6)) ? c.slice(6) : c))
      .join(' ');
    return ` class="${renamed}"`;
  });
}

/**
 * KaTeX's HTML and MathML for TeX source, as the reference renders it (the MathML carries the
 * source in its `annotation`); null when KaTeX cannot render it. Never throws.
 */
export function renderMath(tex: string, display: boolean): string | null {
  const key = (display ? 'D' : 'I') + tex;
  const cached = mathCache.get(key);
  if (cached !== undefined) return cached;
  let html: string | null;
  try {
    html = unprefixKatexClasses(
      katex.renderToString(tex, {
        displayMode: display,
        throwOnError: true,
        output: 'htmlAndMathml',
        trust: false,
        maxSize: 50,
        maxExpand: 200,
        strict: 'ignore',
      }),
    );
  } catch {
    html = null;
  }
  if (mathCache.size >= 500) mathCache.delete(mathCache.keys().next().value!);
  mathCache.set(key, html);
  return html;
}

export function inlinePlugin(md: MarkdownIt): void {
  md.disable(['backticks', 'entity', 'escape']);
  md.inline.ruler.before('emphasis', 'zulip_backticks', backtickRule);
  md.inline.ruler.before('zulip_backticks', 'zulip_math', mathRule);
  md.inline.ruler.before('emphasis', 'zulip_entity', entityRule);
  md.inline.ruler.before('emphasis', 'zulip_emoji', emojiRule);
  md.inline.ruler.before('emphasis', 'zulip_emoticon', emoticonRule);
  md.inline.ruler.before('emphasis', 'zulip_underscore', underscoreRule);
  md.renderer.rules[RAW_HTML] = (tokens, idx) => tokens[idx]!.content;
}
