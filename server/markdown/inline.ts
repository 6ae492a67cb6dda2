import katex from 'katex';
import type { MarkdownIt, StateInline } from 'markdown-it';
import { checkBudget } from './budget.js';
import { emojiCodeForName, emojiSpan, realmEmojiImage } from './emoji.js';
import { escapeHtml } from './links.js';
import { renderEnv, type MarkdownRealmEmoji } from './types.js';

/**
 * The token type carrying HTML that this module generated (and escaped) itself. Source HTML is
 * never parsed (html: false), so these are the only tokens rendered without escaping.
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

const EMOJI_SHORTCODE = /:([a-z0-9_+-]{1,60}):/y;

/** The organization's active custom emoji named `name`, indexed once per render. */
function realmEmojiNamed(state: StateInline, name: string): MarkdownRealmEmoji | undefined {
  const env = renderEnv(state.env);
  const list = env?.ctx.realmEmoji;
  if (!env || !list?.length) return undefined;
  let index = env.lookups.realmEmoji;
  if (!index) index = env.lookups.realmEmoji = new Map(list.map((e) => [e.name, e]));
  return index.get(name);
}

/** :shortcode: emoji, custom ones first as upstream; unknown names stay as typed. */
function emojiRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const m = matchHere(state, EMOJI_SHORTCODE);
  if (!m) return false;
  const custom = realmEmojiNamed(state, m[1]!);
  const code = custom ? undefined : emojiCodeForName(m[1]!);
  if (!custom && !code) return false;
  if (!silent)
    pushHtml(
      state,
      custom ? realmEmojiImage(custom.name, custom.source_url) : emojiSpan(m[1]!, code!),
    );
  state.pos += m[0].length;
  return true;
}

const INLINE_MATH = /\$\$((?:[^$\n\\]|\\[^\n]){1,2000})\$\$(?!\$)/y;

/** $$ inline TeX $$ */
function mathRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x24 /* $ */) return false;
  if (state.pos > 0 && state.src.charCodeAt(state.pos - 1) === 0x24) return false;
  const m = matchHere(state, INLINE_MATH);
  if (!m || !m[1]!.trim()) return false;
  if (!silent) {
    checkBudget(renderEnv(state.env));
    pushHtml(state, renderMath(m[1]!, false));
  }
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

const mathCache = new Map<string, string>();

/** KaTeX HTML for TeX source; errors render as KaTeX's own error span, never throw. */
export function renderMath(tex: string, display: boolean): string {
  const key = (display ? 'D' : 'I') + tex;
  const cached = mathCache.get(key);
  if (cached !== undefined) return cached;
  let html: string;
  try {
    html = katex.renderToString(tex, {
      displayMode: display,
      throwOnError: false,
      output: 'html',
      trust: false,
      maxSize: 50,
      maxExpand: 200,
      strict: 'ignore',
    });
  } catch {
    html = `<span class="tex-error">${escapeHtml(tex)}</span>`;
  }
  if (mathCache.size >= 500) mathCache.delete(mathCache.keys().next().value!);
  mathCache.set(key, html);
  return html;
}

export function inlinePlugin(md: MarkdownIt): void {
  md.inline.ruler.before('escape', 'zulip_math', mathRule);
  md.inline.ruler.before('emphasis', 'zulip_emoji', emojiRule);
  md.inline.ruler.before('emphasis', 'zulip_underscore', underscoreRule);
  md.renderer.rules[RAW_HTML] = (tokens, idx) => tokens[idx]!.content;
}
