/**
 * The `content_html_diff` of a message's edit history: the new rendering with the words that
 * went marked as deleted and the words that came marked as inserted, in the reference server's
 * classes (`highlight_text_deleted`, `highlight_text_inserted`), wrapped in a <div>.
 *
 * Tags and words are the units. Inserted tags are kept (they are the new structure); deleted tags
 * are dropped, and only their words are shown struck through. Clients sanitise the result like
 * any message HTML, which also closes anything an unusual edit leaves open.
 */

/** Tags, character references (never split), whitespace, words, and single other characters. */
const TOKEN = /<[^>]*>|&#?\w+;|\s+|[\p{L}\p{N}_]+|[^<\s]/gu;

/** Above this many cells the comparison is not worth its time: the whole middle is replaced. */
const MAX_TABLE = 4_000_000;

type Op = { kind: 'same' | 'deleted' | 'inserted'; token: string };

function tokens(html: string): string[] {
  return html.match(TOKEN) ?? [];
}

const isTag = (token: string) => token.startsWith('<');

/** The edit script between two token lists (longest common subsequence). */
function diffTokens(before: string[], after: string[]): Op[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  const a = before.slice(start, endBefore);
  const b = after.slice(start, endAfter);
  const same = (list: string[]): Op[] => list.map((token) => ({ kind: 'same', token }));
  const middle: Op[] = [];
  if ((a.length + 1) * (b.length + 1) > MAX_TABLE) {
    middle.push(...a.map((token): Op => ({ kind: 'deleted', token })));
    middle.push(...b.map((token): Op => ({ kind: 'inserted', token })));
  } else {
    // lengths[i][j]: the common subsequence of a[i..] and b[j..], in one flat array.
    const width = b.length + 1;
    const lengths = new Uint32Array((a.length + 1) * width);
    for (let i = a.length - 1; i >= 0; i--)
      for (let j = b.length - 1; j >= 0; j--)
        lengths[i * width + j] =
          a[i] === b[j]
            ? lengths[(i + 1) * width + j + 1] + 1
            : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i] === b[j]) {
        middle.push({ kind: 'same', token: a[i] });
        i++;
        j++;
      } else if (
        j < b.length &&
        (i === a.length || lengths[i * width + j + 1] > lengths[(i + 1) * width + j])
      ) {
        middle.push({ kind: 'inserted', token: b[j++] });
      } else {
        middle.push({ kind: 'deleted', token: a[i++] });
      }
    }
  }
  return [...same(before.slice(0, start)), ...middle, ...same(before.slice(endBefore))];
}

/** The rendered diff from `before` to `after` (both server-rendered message HTML). */
export function htmlDiff(before: string, after: string): string {
  let out = '';
  let open: 'deleted' | 'inserted' | null = null;
  const close = () => {
    if (open) out += '</span>';
    open = null;
  };
  for (const op of diffTokens(tokens(before), tokens(after))) {
    if (op.kind === 'same') {
      close();
      out += op.token;
    } else if (isTag(op.token)) {
      close();
      if (op.kind === 'inserted') out += op.token;
    } else {
      if (open !== op.kind) {
        close();
        // Whitespace alone between changes is not worth a mark of its own.
        if (/^\s+$/.test(op.token)) {
          out += op.kind === 'inserted' ? op.token : '';
          continue;
        }
        out += `<span class="highlight_text_${op.kind}">`;
        open = op.kind;
      }
      out += op.token;
    }
  }
  close();
  return `<div>${out}</div>`;
}
