import MarkdownIt from 'markdown-it';
import { wrapUnicodeEmoji } from './emoji.js';
import { STASH_CHARS, fencesPlugin, preprocessFences } from './fences.js';
import { hangingLists, listIndentation, listStartsPlugin } from './lists.js';
import { rewriteQuotes } from './quotes.js';
import { inlineImagesPlugin } from './images.js';
import { inlinePlugin } from './inline.js';
import { escapeHtml, escapeText, isSafeUrl } from './links.js';
import { autolinksPlugin } from './autolinks.js';
import { emphasisPlugin } from './emphasis.js';
import { linkifierPlugin } from './linkifiers.js';
import {
  RENDER_BUDGET_MS,
  RenderBudgetExceeded,
  checkBudget,
  startBudget,
  unableToRender,
} from './budget.js';
import { mentionsPlugin } from './mentions.js';
import { globalTimesPlugin } from './times.js';
import { renderEnv, type MarkdownContext, type RenderEnv, type RenderResult } from './types.js';

export type {
  MarkdownContext,
  MarkdownLinkifier,
  MarkdownRealmEmoji,
  MarkdownStream,
  MarkdownUserGroup,
  MentionableUser,
  RenderResult,
} from './types.js';
export { EMOJI_DATA_PATH, emojiCodeForName, emojiCodeToNames, emojiNameForCode } from './emoji.js';
export { hashEncode, isSafeUrl, streamNarrowUrl, streamSlug, topicNarrowUrl } from './links.js';
export { expandUrlTemplate, parseLinkifierPattern } from './linkifiers.js';
export { RENDER_BUDGET_MS } from './budget.js';
export { markdownReferences, type MarkdownReferences } from './mentions.js';

/**
 * The one markdown-it instance, built at module load. Source HTML is never parsed (html: false):
 * it is escaped like any text. Links are limited to safe schemes (validateLink), and the only
 * unescaped output is markup this module builds itself from escaped parts.
 */
const md = new MarkdownIt('default', {
  html: false,
  linkify: false,
  breaks: true,
  typographer: false,
  maxNesting: 30,
});
// Zulip has no images, reference links or setext headings.
md.disable(['image', 'reference', 'lheading']);
md.validateLink = isSafeUrl;

// Block parsing and inline parsing are each one step; past the budget, stop before the next.
md.core.ruler.after('block', 'zulip_budget_blocks', (state) => checkBudget(renderEnv(state.env)));
md.core.ruler.after('inline', 'zulip_budget_inline', (state) => checkBudget(renderEnv(state.env)));

mentionsPlugin(md);
inlinePlugin(md);
emphasisPlugin(md);
globalTimesPlugin(md);
fencesPlugin(md);
linkifierPlugin(md);
autolinksPlugin(md);
inlineImagesPlugin(md);
listStartsPlugin(md);

// markdown-it keeps `[x]()` (an empty destination) as a link to the current page; render the
// source text instead, as for any other refused destination.
md.core.ruler.after('inline', 'zulip_empty_links', (state) => {
  for (const block of state.tokens) {
    const refused: boolean[] = [];
    for (const token of block.children ?? []) {
      if (token.type === 'link_open') {
        const bad = !isSafeUrl(String(token.attrGet('href') ?? ''));
        refused.push(bad);
        if (bad)
          Object.assign(token, { type: 'text', tag: '', nesting: 0, attrs: null, content: '[' });
      } else if (token.type === 'link_close' && refused.pop()) {
        Object.assign(token, { type: 'text', tag: '', nesting: 0, content: ']()' });
      }
    }
  }
});

const rules = md.renderer.rules;
rules.text = (tokens, idx) => wrapUnicodeEmoji(escapeText(tokens[idx]!.content));
rules.s_open = () => '<del>';
rules.s_close = () => '</del>';
// Links carry their href only (no title); clients add target and rel themselves.
rules.link_open = (tokens, idx) =>
  `<a href="${escapeHtml(String(tokens[idx]!.attrGet('href') ?? ''))}">`;
// Unreachable with html: false, but never let source HTML through regardless.
rules.html_block = (tokens, idx) => `<p>${escapeHtml(tokens[idx]!.content)}</p>\n`;
rules.html_inline = (tokens, idx) => escapeHtml(tokens[idx]!.content);

/**
 * The reference's line preprocessors, before block parsing: lists that hang off a paragraph get
 * the blank line CommonMark wants (lists.ts), fenced blocks are taken out (fences.ts), and list
 * indentation is read in steps of two spaces (lists.ts).
 */
function preprocess(src: string, env: RenderEnv): string {
  const lines = src.replace(/\r\n?/g, '\n').replace(STASH_CHARS, '\uFFFD').split('\n');
  const fenced = preprocessFences(hangingLists(lines), env);
  return listIndentation(rewriteQuotes(fenced, env), (env.listStarts = new Map())).join('\n');
}

function newEnv(ctx: MarkdownContext, budgetMs: number): RenderEnv {
  return {
    budget: startBudget(budgetMs),
    ctx,
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
    depth: 0,
    lookups: {},
  };
}

/**
 * Zulip-flavoured Markdown to safe HTML, with the mentions it makes. Throws only the reference
 * server's "Unable to render message" (a DomainError), when rendering outlasts its budget.
 */
export function renderMarkdown(
  content: string,
  ctx: MarkdownContext,
  opts: { budgetMs?: number } = {},
): RenderResult {
  const budgetMs = opts.budgetMs ?? RENDER_BUDGET_MS;
  let env = newEnv(ctx, budgetMs);
  let html: string;
  try {
    const src = typeof content === 'string' ? content : '';
    html = src.trim()
      ? md.render(preprocess(src, env), env as unknown as Record<string, unknown>).trim()
      : '';
    // A single step that ran long (one huge formula) is caught here, after the fact.
    checkBudget(env);
  } catch (err) {
    if (err instanceof RenderBudgetExceeded) throw unableToRender();
    // markdown-it does not throw on text; this is a last line of defence (no mentions then).
    env = newEnv(ctx, budgetMs);
    html = `<p>${escapeHtml(String(content)).replace(/\r?\n/g, '<br>\n')}</p>`;
  }
  return {
    html,
    mentionedUserIds: [...env.mentionedUserIds],
    mentionedGroupIds: [...env.mentionedGroupIds],
    streamWildcard: env.streamWildcard,
    topicWildcard: env.topicWildcard,
  };
}

/** A stream description, rendered like a message. */
export function renderStreamDescription(text: string, ctx: MarkdownContext): string {
  return renderMarkdown(text, ctx).html;
}
