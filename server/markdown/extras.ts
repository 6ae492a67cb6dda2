import katex from 'katex';
import type { MarkdownIt } from 'markdown-it';
import type { StateInline } from 'markdown-it';
import { emojiCodeForName, emojiNameForCode, emojiSpan } from './emoji.js';
import { escapeHtml } from './links.js';

/** :shortcode: emoji */
function emojiRule(state: StateInline, silent: boolean): boolean {
  const m = /^:([a-z0-9_+-]{1,50}):/.exec(state.src.slice(state.pos));
  if (!m) return false;
  const code = emojiCodeForName(m[1]);
  if (!code) return false;
  if (!silent) state.push('html_inline', '', 0).content = emojiSpan(m[1], code);
  state.pos += m[0].length;
  return true;
}

/** $$ inline math $$ */
function mathRule(state: StateInline, silent: boolean): boolean {
  const m = /^\$\$([^$\n]{1,2000}?)\$\$/.exec(state.src.slice(state.pos));
  if (!m) return false;
  if (!silent) state.push('html_inline', '', 0).content = renderMath(m[1], false);
  state.pos += m[0].length;
  return true;
}

export function renderMath(tex: string, display: boolean): string {
  try {
    return katex.renderToString(tex, { throwOnError: false, displayMode: display, output: 'html', maxSize: 50, maxExpand: 200, trust: false });
  } catch {
    return `<span class="tex-error">${escapeHtml(tex)}</span>`;
  }
}

const EMOJI_CHAR = /\p{Extended_Pictographic}(\u200d\p{Extended_Pictographic}|\ufe0f)*/gu;

/** Typed Unicode emoji get the same markup as shortcodes, so clients style them alike. */
function unicodeEmoji(md: MarkdownIt) {
  const text = md.renderer.rules.text!;
  md.renderer.rules.text = (tokens, idx, options, env, self) => {
    const html = text(tokens, idx, options, env, self);
    return html.replace(EMOJI_CHAR, (ch) => {
      const code = [...ch].map((c) => c.codePointAt(0)!.toString(16)).filter((c) => c !== 'fe0f').join('-');
      const name = emojiNameForCode(code);
      return name ? emojiSpan(name, code).replace(`>:${name}:<`, `>${ch}<`) : ch;
    });
  };
}

/** Fenced blocks: code with a language, ```quote, ```math and ```spoiler. */
function fences(md: MarkdownIt) {
  md.renderer.rules.fence = (tokens, idx, _options, env) => {
    const token = tokens[idx];
    const info = token.info.trim();
    const [lang, ...rest] = info.split(/\s+/);
    const body = token.content;
    switch (lang.toLowerCase()) {
      case 'quote':
        return `<blockquote>\n${md.render(body, env)}</blockquote>\n`;
      case 'math':
      case 'latex':
        return `<p>${renderMath(body, true)}</p>\n`;
      case 'spoiler':
        return `<div class="spoiler-block"><div class="spoiler-header">${rest.length ? md.render(rest.join(' '), env) : ''}</div><div class="spoiler-content" aria-hidden="true">${md.render(body, env)}</div></div>\n`;
      default: {
        const attr = lang ? ` data-code-language="${escapeHtml(lang)}"` : '';
        return `<div class="codehilite"${attr}><pre><span></span><code>${escapeHtml(body)}</code></pre></div>\n`;
      }
    }
  };
  md.renderer.rules.code_block = (tokens, idx) =>
    `<div class="codehilite"><pre><span></span><code>${escapeHtml(tokens[idx].content)}</code></pre></div>\n`;
}

export function extrasPlugin(md: MarkdownIt) {
  md.inline.ruler.before('emphasis', 'zulip_emoji', emojiRule);
  md.inline.ruler.before('escape', 'zulip_math', mathRule);
  unicodeEmoji(md);
  fences(md);
}
