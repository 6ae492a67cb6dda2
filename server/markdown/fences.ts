import type { MarkdownIt, StateCore, StateInline, Token } from 'markdown-it';
import { checkBudget } from './budget.js';
import { codeLanguage, highlightCode } from './highlight.js';
import { RAW_HTML, renderMath } from './inline.js';
import { escapeHtml } from './links.js';
import { renderEnv, type RenderEnv } from './types.js';

/**
 * Fenced blocks, as the reference server reads them: line by line, before any other Markdown.
 * A fence opens on a line of its own (``` or ~~~, three or more, then an optional language and,
 * for spoilers, a header) and closes on a line that is exactly the same fence. Code and math
 * become finished HTML held aside behind a placeholder; ```quote becomes `> ` lines and
 * ```spoiler its header and content between placeholders, so their contents are ordinary
 * Markdown of the same document (which is how quotes and spoilers nest in each other).
 */

/**
 * Placeholders are `%`, then two control characters around the index of the HTML held aside
 * (`%` because markdown-it stops its runs of plain text there, so the inline rule sees it).
 */
const STASH_OPEN = '%\u0002';
const STASH_CLOSE = '\u0003';
/** Holds `html` aside and returns the placeholder that stands for it in the text. */
export function hold(env: RenderEnv, html: string): string {
  const stash = (env.stash ??= []);
  stash.push(html);
  return `${STASH_OPEN}${stash.length - 1}${STASH_CLOSE}`;
}

/** What a message cannot contain, so that it cannot forge a placeholder. */
export const STASH_CHARS = /[\u0002\u0003]/g;

export const FENCE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+,\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;

/** Quote and spoiler blocks nest; past this depth a fence line is kept as text. */
const MAX_FENCE_DEPTH = 8;

type Kind = 'outer' | 'code' | 'quote' | 'spoiler' | 'math';

interface Handler {
  kind: Kind;
  fence: string;
  lang: string;
  header: string | null;
  lines: string[];
  /** where the finished block goes: the enclosing block's lines, or the document */
  target: string[];
}

/** A line of code that says its language: `#!python`, `#!/usr/bin/python` or `:::python`. */
const SHEBANG = /^(?:::+|#!)(?:(?:\/\w+)*[/ ])?([\w#.+-]*)/;

/**
 * A code block in the reference's shape: Pygments' classes inside
 * `<div class="codehilite" data-code-language="…"><pre><span></span><code>`. The language is the
 * lexer's name when known, else the name as typed; a block without one is highlighted after its
 * first line when that line names a language, and then carries no data-code-language.
 */
export function codeBlockHtml(code: string, typed: string): string {
  const source = code.replace(/^\n+|\n+$/g, '');
  let highlightAs = typed;
  if (!typed) highlightAs = SHEBANG.exec(source.split('\n', 1)[0]!)?.[1]?.toLowerCase() ?? '';
  const { label, grammar } = codeLanguage(highlightAs);
  const attr = typed ? ` data-code-language="${escapeHtml(label)}"` : '';
  return (
    `<div class="codehilite"${attr}><pre><span></span>` +
    `<code>${highlightCode(`${source}\n`, highlightAs ? grammar : null)}</code></pre></div>`
  );
}

/** Display math: each blank-line separated chunk rendered on its own. */
function mathHtml(tex: string): string {
  return tex
    .split('\n\n')
    .map(
      (chunk) =>
        renderMath(chunk, true) ??
        `<span class="tex-error">${escapeHtml(chunk).replace(/&#39;/g, '&#x27;')}</span>`,
    )
    .join('\n\n');
}

function format(env: RenderEnv, h: Handler, text: string): string {
  switch (h.kind) {
    case 'code':
      return hold(env, codeBlockHtml(text, h.lang));
    case 'math':
      return hold(env, mathHtml(text));
    case 'quote':
      return text
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
    case 'spoiler': {
      const parts = [hold(env, '<div class="spoiler-block"><div class="spoiler-header">')];
      if (h.header !== null) parts.push(h.header);
      parts.push(hold(env, '</div><div class="spoiler-content" aria-hidden="true">'));
      parts.push(text, hold(env, '</div></div>'));
      return parts.join('\n\n');
    }
    default:
      return text;
  }
}

/** Rewrites the fenced blocks of `lines` (see above); the HTML held aside goes to env.stash. */
export function preprocessFences(lines: readonly string[], env: RenderEnv): string[] {
  const output: string[] = [];
  const stack: Handler[] = [
    { kind: 'outer', fence: '', lang: '', header: null, lines: [], target: output },
  ];

  const open = (line: string, target: string[]) => {
    const m = stack.length <= MAX_FENCE_DEPTH ? FENCE.exec(line) : null;
    if (!m) {
      target.push(line);
      return;
    }
    const lang = (m[2] ?? '').toLowerCase();
    const kind: Kind =
      lang === 'quote' || lang === 'quoted'
        ? 'quote'
        : lang === 'math'
          ? 'math'
          : lang === 'spoiler'
            ? 'spoiler'
            : 'code';
    stack.push({ kind, fence: m[1]!, lang, header: m[3] ?? null, lines: [], target });
  };

  const done = () => {
    const h = stack.pop()!;
    if (h.kind === 'outer' || !h.lines.length) return;
    checkBudget(env);
    const text = format(env, h, h.lines.join('\n'));
    h.target.push('', ...text.split('\n'), '');
  };

  for (const line of lines) {
    const h = stack[stack.length - 1]!;
    if (h.kind === 'outer') open(line, output);
    else if (line.trimEnd() === h.fence) done();
    else if (h.kind === 'quote' || h.kind === 'spoiler') open(line, h.lines);
    else h.lines.push(line.trimEnd());
  }
  while (stack.length) done();
  return output;
}

const BLOCK_HTML =
  /^<\/?(?:address|article|aside|blockquote|details|div|dl|fieldset|figure|footer|form|h[1-6]|header|hr|main|nav|ol|p|pre|section|table|ul)[\s>]/;

/** A placeholder in the text: the HTML it holds, as built above (escaped when it was built). */
function stashRule(state: StateInline, silent: boolean): boolean {
  if (!state.src.startsWith(STASH_OPEN, state.pos)) return false;
  const close = state.src.indexOf(STASH_CLOSE, state.pos);
  const env = renderEnv(state.env);
  if (close < 0 || !env) return false;
  const html = env.stash?.[Number(state.src.slice(state.pos + 2, close))];
  if (html === undefined) return false;
  if (!silent) state.push(RAW_HTML, '', 0).content = html;
  state.pos = close + 1;
  return true;
}

/** A paragraph that is one placeholder of block-level HTML is that HTML alone, as upstream. */
function unwrapBlocks(state: StateCore): void {
  const tokens = state.tokens;
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const inline = tokens[i + 1];
    const children = inline?.children ?? [];
    if (
      t.type === 'paragraph_open' &&
      children.length === 1 &&
      children[0]!.type === RAW_HTML &&
      BLOCK_HTML.test(children[0]!.content)
    ) {
      const raw = new state.Token('zulip_html_block', '', 0);
      raw.content = children[0]!.content;
      raw.block = true;
      out.push(raw);
      i += 2;
      continue;
    }
    out.push(t);
  }
  state.tokens = out;
}

export function fencesPlugin(md: MarkdownIt): void {
  md.disable(['fence']);
  md.inline.ruler.before('escape', 'zulip_stash', stashRule);
  md.core.ruler.after('inline', 'zulip_unwrap_blocks', unwrapBlocks);
  md.renderer.rules.zulip_html_block = (tokens, idx) => `${tokens[idx]!.content}\n`;
  md.renderer.rules.code_block = (tokens, idx) => `${codeBlockHtml(tokens[idx]!.content, '')}\n`;
}
