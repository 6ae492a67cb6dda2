import type { MarkdownIt } from 'markdown-it';
import { FENCE } from './fences.js';
import { renderEnv } from './types.js';

/**
 * Lists as the reference server reads them (Python-Markdown with its list processors set to a
 * two-space indent), brought to the CommonMark that markdown-it parses, line by line:
 *
 * - a list may hang off a paragraph, and a bulleted list off a numbered one, with no blank line
 *   between them (upstream's `hanging_lists` preprocessor inserts one; so does this);
 * - every two spaces of indentation inside a list are one level of nesting, where CommonMark
 *   wants the width of the parent's marker: indentation is widened to four spaces a level;
 * - `*`, `-` and `+` items make one list, where CommonMark starts a new list at each change.
 */

const LIST_ITEM = /^[ ]*([*+-]|\d\.)[ ]+(.*)/;

/** Upstream's `hanging_lists`: a blank line before a list item that follows other text. */
export function hangingLists(lines: readonly string[]): string[] {
  const out: string[] = [];
  const open: { fence: string; code: boolean }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    out.push(line);
    const fence = FENCE.exec(line);
    if (fence) {
      const lang = (fence[2] ?? '').toLowerCase();
      const closes = !lang && open.length > 0 && open[open.length - 1]!.fence === fence[1];
      if (closes) open.pop();
      else open.push({ fence: fence[1]!, code: lang !== 'quote' && lang !== 'quoted' });
    }
    if (i + 1 >= lines.length || !line || open.some((f) => f.code)) continue;
    const here = LIST_ITEM.exec(line);
    const next = LIST_ITEM.exec(lines[i + 1]!);
    if (next && (!here || (here[1]!.length === 1) !== (next[1]!.length === 1))) out.push('');
  }
  return out;
}

const ITEM_START = /^( *)([*+-]|\d{1,9}[.)])( +|$)/;
/** Deeper indentation is read as this many levels (markdown-it stops nesting past 30 anyway). */
const MAX_LEVEL = 10;
const indentFor = (spaces: number) => '    '.repeat(Math.min(Math.floor(spaces / 2), MAX_LEVEL));
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE_PREFIX = /^(?: {0,3}> ?)*/;

/**
 * Two-space list indentation as CommonMark nesting, and one bullet for every bulleted item.
 * Numbered items are all written `1.` (CommonMark lets only a list starting at 1 interrupt a
 * paragraph, which a nested list does), and `starts` records each one's number by line, for
 * the list's `start` (see listStartsPlugin).
 */
export function listIndentation(lines: readonly string[], starts: Map<number, number>): string[] {
  let inList = false;
  let previousBlank = true;
  return lines.map((line, index) => {
    const prefix = QUOTE_PREFIX.exec(line)![0];
    const rest = line.slice(prefix.length);
    const blank = !rest.trim();
    const indent = rest.length - rest.trimStart().length;
    const item = ITEM_START.exec(rest);
    let result = line;
    if (blank) {
      // a blank line keeps the list open; what follows decides
    } else if (item && !THEMATIC_BREAK.test(rest) && (inList || indent < 4)) {
      inList = true;
      const marker = item[2]!;
      let bullet = '*';
      if (!/^[*+-]$/.test(marker)) {
        starts.set(index, Number(marker.slice(0, -1)));
        bullet = `1${marker.slice(-1)}`;
      }
      result = `${prefix}${indentFor(indent)}${bullet}${rest.slice(indent + item[2]!.length)}`;
    } else if (inList && indent >= 2) {
      result = `${prefix}${indentFor(indent)}${rest.slice(indent)}`;
    } else if (previousBlank) {
      inList = false;
    }
    previousBlank = blank;
    return result;
  });
}

/** The `start` of each numbered list, from the number its first item had as typed. */
export function listStartsPlugin(md: MarkdownIt): void {
  md.core.ruler.push('zulip_list_starts', (state) => {
    const starts = renderEnv(state.env)?.listStarts;
    if (!starts?.size) return;
    for (const token of state.tokens) {
      if (token.type !== 'ordered_list_open' || !token.map) continue;
      const start = starts.get(token.map[0]);
      if (start === undefined) continue;
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'start');
      if (start !== 1) token.attrSet('start', String(start));
    }
  });
}
