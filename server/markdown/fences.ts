import type { MarkdownIt } from 'markdown-it';
import { renderMath } from './inline.js';
import { codeLanguage, highlightCode } from './highlight.js';
import { escapeHtml } from './links.js';
import { checkBudget } from './budget.js';
import { renderEnv } from './types.js';

/** ```quote / ```spoiler blocks may nest; past this depth they render as plain code. */
const MAX_FENCE_DEPTH = 8;

/** Zulip's shape: the lexer's name in data-code-language, Pygments spans inside <code>. */
function codeBlock(code: string, typed: string): string {
  if (!typed)
    return `<div class="codehilite"><pre><span></span><code>${escapeHtml(code)}</code></pre></div>\n`;
  const { label, grammar } = codeLanguage(typed);
  return (
    `<div class="codehilite" data-code-language="${escapeHtml(label)}"><pre><span></span>` +
    `<code>${highlightCode(code, grammar)}</code></pre></div>\n`
  );
}

/** Display math: each blank-line separated chunk becomes its own paragraph, as Zulip does. */
function mathBlock(tex: string): string {
  return tex
    .split(/\n[ \t]*\n/)
    .filter((chunk) => chunk.trim())
    .map((chunk) => `<p>${renderMath(chunk, true)}</p>\n`)
    .join('');
}

/** Fenced blocks: code (with its language as typed), ```quote, ```math and ```spoiler. */
export function fencesPlugin(md: MarkdownIt): void {
  const nested = (text: string, env: unknown, quote = false): string | null => {
    const e = renderEnv(env);
    if (!e || e.depth >= MAX_FENCE_DEPTH) return null;
    e.depth++;
    if (quote) e.quoteDepth = (e.quoteDepth ?? 0) + 1;
    try {
      return md.render(text, e as unknown as Record<string, unknown>).trim();
    } finally {
      e.depth--;
      if (quote) e.quoteDepth! -= 1;
    }
  };

  md.renderer.rules.fence = (tokens, idx, _options, env) => {
    checkBudget(renderEnv(env));
    const token = tokens[idx]!;
    const info = token.info.trim();
    const space = info.search(/\s/);
    const lang = space < 0 ? info : info.slice(0, space);
    const rest = space < 0 ? '' : info.slice(space + 1).trim();
    const body = token.content;
    switch (lang.toLowerCase()) {
      case 'quote': {
        const inner = nested(body, env, true);
        if (inner === null) break;
        return `<blockquote>\n${inner ? `${inner}\n` : ''}</blockquote>\n`;
      }
      case 'spoiler': {
        const header = rest ? nested(rest, env) : '';
        const content = nested(body, env);
        if (header === null || content === null) break;
        return (
          `<div class="spoiler-block"><div class="spoiler-header">${header}</div>` +
          `<div class="spoiler-content" aria-hidden="true">${content}</div></div>\n`
        );
      }
      case 'math':
      case 'latex':
        return mathBlock(body);
    }
    return codeBlock(body, lang);
  };

  md.renderer.rules.code_block = (tokens, idx) => codeBlock(tokens[idx]!.content, '');
}
