/**
 * JSON that clients send (parameters, request bodies). JSON.parse itself reads any nesting, but
 * every recursive walk of the result afterwards (JSON.stringify, validation, narrow parsing)
 * overflows the stack on a value nested 100,000 levels deep, which answered 500. Nothing in the
 * API nests more than a few levels; the reference server's parser refuses deep input as invalid
 * JSON too (pydantic's recursion limit), and so does this one, past MAX_JSON_DEPTH.
 */
export const MAX_JSON_DEPTH = 100;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

export interface JsonShape {
  /** the deepest nesting reached, up to MAX_JSON_DEPTH + 1 (the scan stops there) */
  depth: number;
  /** members of the outermost object or array, at most: its commas, plus one */
  members: number;
}

/**
 * How deep the text nests and how many members its outermost container has, read in one pass
 * that skips strings and stops as soon as either passes its limit. Malformed text gives some
 * answer; JSON.parse judges it afterwards.
 */
export function jsonShape(text: string, maxMembers = Infinity): JsonShape {
  let depth = 0;
  let deepest = 0;
  let commas = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // to the closing quote, past escaped characters
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++)
        if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > deepest) deepest = depth;
      if (deepest > MAX_JSON_DEPTH) break;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    } else if (c === COMMA && depth === 1 && ++commas >= maxMembers) {
      break;
    }
  }
  return { depth: deepest, members: commas + 1 };
}

/** JSON.parse for text from clients: a SyntaxError, like any invalid JSON, when it nests too deep. */
export function parseClientJson(text: string): unknown {
  if (jsonShape(text).depth > MAX_JSON_DEPTH)
    throw new SyntaxError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  return JSON.parse(text);
}
