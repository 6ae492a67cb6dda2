/**
 * A conservative check for regular expressions that can backtrack exponentially in JavaScript's
 * engine (Zulip runs linkifiers with RE2, which cannot): a repeated group (`*`, `+`, `{n,}`,
 * `{n,m}` with m > 1) that itself contains a quantifier or an alternation, as in `(a+)+`,
 * `(\w*x)*` or `(a|ab)+`. Such linkifiers are skipped rather than risking a hung server.
 */
export function hasNestedRepetition(source: string): boolean {
  interface Frame {
    quantified: boolean;
    alternation: boolean;
  }
  const stack: Frame[] = [{ quantified: false, alternation: false }];
  const top = () => stack[stack.length - 1]!;
  let i = 0;
  /** Reads a quantifier at i; returns whether it repeats (more than once), or null if none. */
  const quantifier = (): boolean | null => {
    const c = source[i];
    if (c === '*' || c === '+' || c === '?') {
      i++;
      if (source[i] === '?') i++;
      return c !== '?';
    }
    const m = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24)) : null;
    if (!m) return null;
    i += m[0].length;
    if (source[i] === '?') i++;
    return m[2] !== undefined ? m[3] === '' || Number(m[3]) > 1 : Number(m[1]) > 1;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      i += 2;
    } else if (c === '[') {
      i++;
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      stack.push({ quantified: false, alternation: false });
      i++;
      if (source[i] === '?') {
        const m = /^\?(?:<[A-Za-z_$][\w$]*>|<[=!]|[:=!]|[a-z-]+:)/.exec(source.slice(i, i + 64));
        i += m ? m[0].length : 1;
      }
      continue;
    } else if (c === ')') {
      i++;
      const frame = stack.length > 1 ? stack.pop()! : top();
      const repeats = quantifier();
      if (repeats && (frame.quantified || frame.alternation)) return true;
      if (frame.quantified || repeats !== null) top().quantified = true;
      continue;
    } else if (c === '|') {
      top().alternation = true;
      i++;
      continue;
    } else {
      i++;
    }
    // after an atom (escape, class or character): an optional quantifier
    if (quantifier() !== null) top().quantified = true;
  }
  return false;
}
