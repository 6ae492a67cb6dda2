import { hold } from './fences.js';
import type { RenderEnv } from './types.js';

/**
 * Block quotes as the reference reads them, brought to CommonMark: in a block of lines (between
 * blank lines) a quote starts at the first `>` line and takes the rest of the block, lines
 * without `>` included; a block whose `>` lines are all empty to its end is no quote at all, and
 * its `>` stays text (`>` alone is the paragraph `&gt;`). Nested quotes are read the same way
 * inside. Every line keeps its place, so the line count does not change.
 */

const QUOTE_LINE = /^ {0,3}>/;
const EMPTY_QUOTE_LINE = /^ {0,3}>\s*$/;
const QUOTE_MARKER = /^ {0,3}> ?/;
/** Deeper than this, `>` is read as CommonMark does. */
const MAX_QUOTE_DEPTH = 30;

/**
 * A quote repeats what someone said: its mentions of people and groups are silent, so that quoting
 * a message does not notify its mentions again (the reference's quote processor does the same).
 */
const QUOTED_MENTION = /(^|[\s'"({[/<])@(\*\*[^*\n]+?\*\*|\*[^*\n]+?\*)/g;
export function silenceMentions(line: string): string {
  return line.includes('@') ? line.replace(QUOTED_MENTION, '$1@_$2') : line;
}

function rewriteBlock(block: string[], env: RenderEnv, depth: number): string[] {
  const start = block.findIndex(
    (line, i) => QUOTE_LINE.test(line) && !block.slice(i).every((l) => EMPTY_QUOTE_LINE.test(l)),
  );
  if (start < 0) {
    // `>` lines that quote nothing are text: their `>` is held aside as text.
    return block.map((line) =>
      QUOTE_LINE.test(line) ? line.replace('>', hold(env, '&gt;')) : line,
    );
  }
  const inner = block.slice(start).map((line) => silenceMentions(line.replace(QUOTE_MARKER, '')));
  return [...block.slice(0, start), ...rewriteQuotes(inner, env, depth + 1).map((l) => `> ${l}`)];
}

export function rewriteQuotes(lines: readonly string[], env: RenderEnv, depth = 0): string[] {
  if (depth > MAX_QUOTE_DEPTH || !lines.some((l) => QUOTE_LINE.test(l))) return [...lines];
  const out: string[] = [];
  let block: string[] = [];
  const flush = () => {
    if (block.length) out.push(...rewriteBlock(block, env, depth));
    block = [];
  };
  for (const line of lines) {
    if (line.trim()) block.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}
