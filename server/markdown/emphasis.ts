import type { MarkdownIt, StateInline } from 'markdown-it';
import { matchHere } from './inline.js';

/**
 * Bold, italics and strike-through as the reference writes them (its own patterns, not
 * CommonMark's delimiter runs): each stays on one line; `***x***` is bold italics, `**x**` bold,
 * `*x*` italics when no space touches the inside and no `*` is in it (so `char *x = (char *)y`
 * stays as typed), and `~~x~~` is struck through, spaces inside allowed. Underscores never
 * emphasize (inline.ts).
 */

const STRONG_EM = /\*\*\*(?!\s)([^*^\n]+)(?<!\s)\*\*\*/y;
/** A mention or channel link inside is one piece: `**@**Name****` is a bold mention, as upstream. */
const STRONG = /\*\*((?:@_?\*\*[^*\n]+\*\*|#\*\*[^*\n]+\*\*|[^\n])+?)\*\*/y;
const EM = /\*(?!\s)([^*^\n]+)(?<!\s)\*/y;
const DEL = /~~([^~\n]+?)~~(?!~)/y;

/** Pushes `tags` around the inline Markdown of the match's first group. */
function wrap(
  state: StateInline,
  silent: boolean,
  m: RegExpExecArray,
  markup: string,
  tags: [open: string, tag: string][],
): boolean {
  const start = state.pos;
  const end = start + m[0].length;
  if (!silent) {
    for (const [type, tag] of tags) state.push(`${type}_open`, tag, 1).markup = markup;
    const max = state.posMax;
    state.pos = start + markup.length;
    state.posMax = end - markup.length;
    state.md.inline.tokenize(state);
    state.posMax = max;
    for (const [type, tag] of [...tags].reverse())
      state.push(`${type}_close`, tag, -1).markup = markup;
  }
  state.pos = end;
  return true;
}

function starRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x2a /* * */) return false;
  let m = matchHere(state, STRONG_EM);
  if (m)
    return wrap(state, silent, m, '***', [
      ['strong', 'strong'],
      ['em', 'em'],
    ]);
  m = matchHere(state, STRONG);
  if (m) return wrap(state, silent, m, '**', [['strong', 'strong']]);
  m = matchHere(state, EM);
  if (m) return wrap(state, silent, m, '*', [['em', 'em']]);
  // Not emphasis: the whole run of stars is text, so that no later star pairs with part of it.
  let end = state.pos;
  while (state.src.charCodeAt(end) === 0x2a) end++;
  if (!silent) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

function tildeRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x7e /* ~ */) return false;
  if (state.pos > 0 && state.src.charCodeAt(state.pos - 1) === 0x7e) return false;
  const m = matchHere(state, DEL);
  if (m) return wrap(state, silent, m, '~~', [['s', 's']]);
  let end = state.pos;
  while (state.src.charCodeAt(end) === 0x7e) end++;
  if (!silent) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

export function emphasisPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('emphasis', 'zulip_stars', starRule);
  md.inline.ruler.before('emphasis', 'zulip_tildes', tildeRule);
  md.disable(['emphasis', 'strikethrough']);
}
