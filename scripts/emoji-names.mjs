// Writes server/markdown/emoji-names.json: the reference server's names for Unicode emoji, as
// `{ "code": ["canonical_name", "alias", …] }` in the reference's order (by canonical name). The
// server (server/markdown/emoji.ts) and the client's emoji table (scripts/emoji-table.mjs) both
// read it, so a `:name:` means the same emoji everywhere, as in the reference.
//
// The source is zulip-terminal's copy of the reference's table (zulipterminal/unicode_emojis.py,
// kept in step with the server): a Python dict of `"name": {'code': '…', 'aliases': […]}` lines,
// read here line by line. The reference's emoji codes are unqualified (no FE0F selectors); the
// copy keeps FE0F in a few ZWJ sequences (`1f441-fe0f-200d-1f5e8-fe0f`), which are dropped here.
// Give the source's path as the argument or in ZULIP_UNICODE_EMOJIS, then rebuild the client's
// table from the new names:
//
//   git -C ../zulip-terminal show HEAD:zulipterminal/unicode_emojis.py > /tmp/unicode_emojis.py
//   node scripts/emoji-names.mjs /tmp/unicode_emojis.py \
//     && node scripts/emoji-table.mjs \
//     && npx prettier --write src/features/emoji/emoji-table.generated.ts
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const EMOJI_NAMES_PATH = path.join(root, 'server/markdown/emoji-names.json');

/** A Python string literal in either quote, without escapes (the table's names have none). */
const STRING = String.raw`(?:"([^"\\]*)"|'([^'\\]*)')`;
const ENTRY = new RegExp(
  String.raw`^\s*${STRING}\s*:\s*\{\s*'code'\s*:\s*${STRING}\s*,\s*'aliases'\s*:\s*\[(.*)\]\s*\}\s*,?\s*$`,
);
const ALIAS = new RegExp(STRING, 'g');
/** What the server's `:name:` pattern accepts (server/markdown/inline.ts). */
const NAME = /^[\p{L}\p{N}_+-]{1,60}$/u;
const CODE = /^[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*$/;

/** An emoji code without its FE0F (variation selector) code points, as the reference writes codes. */
const unqualified = (code) =>
  code
    .split('-')
    .filter((cp) => cp !== 'fe0f')
    .join('-');

/**
 * The entries of the source's EMOJI_DATA dict, as [code, name, ...aliases] in its order. Throws
 * on any line inside the dict that is not one entry, and on a name or code seen twice, so a
 * change of the source's layout is noticed rather than half read.
 */
export function parseUnicodeEmojis(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^EMOJI_DATA\s*=\s*\{\s*$/.test(line));
  if (start < 0) throw new Error('no "EMOJI_DATA = {" line');
  const entries = [];
  const names = new Set();
  const codes = new Set();
  for (let i = start + 1; ; i++) {
    if (i >= lines.length) throw new Error('EMOJI_DATA is not closed');
    const line = lines[i];
    if (/^\}\s*$/.test(line)) break;
    if (/^\s*(?:#.*)?$/.test(line)) continue;
    const m = ENTRY.exec(line);
    if (!m) throw new Error(`line ${i + 1} is not an emoji entry: ${line}`);
    const name = m[1] ?? m[2];
    const code = unqualified(m[3] ?? m[4]);
    const aliases = [...m[5].matchAll(ALIAS)].map((a) => a[1] ?? a[2]);
    if (!CODE.test(code)) throw new Error(`line ${i + 1}: bad code ${code}`);
    if (codes.has(code)) throw new Error(`line ${i + 1}: code ${code} appears twice`);
    codes.add(code);
    for (const n of [name, ...aliases]) {
      if (!NAME.test(n)) throw new Error(`line ${i + 1}: bad name ${n}`);
      if (names.has(n)) throw new Error(`line ${i + 1}: name ${n} appears twice`);
      names.add(n);
    }
    entries.push([code, name, ...aliases]);
  }
  if (!entries.length) throw new Error('EMOJI_DATA has no entries');
  return entries;
}

/**
 * The JSON text of the table, one emoji a line, in prettier's layout: an entry too long for a
 * line of 100 characters has a name a line.
 */
export function emojiNamesJson(entries) {
  const lines = entries.map(([code, ...names], i) => {
    const key = `  ${JSON.stringify(code)}: `;
    const quoted = names.map((n) => JSON.stringify(n));
    const line = `${key}[${quoted.join(', ')}]`;
    const comma = i < entries.length - 1 ? 1 : 0;
    if ([...line].length + comma <= 100) return line;
    return `${key}[\n${quoted.map((q) => `    ${q}`).join(',\n')}\n  ]`;
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const source = process.argv[2] ?? process.env.ZULIP_UNICODE_EMOJIS;
  if (!source) {
    console.error(
      'usage: node scripts/emoji-names.mjs PATH/TO/zulipterminal/unicode_emojis.py (or set ZULIP_UNICODE_EMOJIS)',
    );
    process.exit(2);
  }
  const entries = parseUnicodeEmojis(fs.readFileSync(source, 'utf8'));
  fs.writeFileSync(EMOJI_NAMES_PATH, emojiNamesJson(entries));
  const names = entries.reduce((n, e) => n + e.length - 1, 0);
  console.log(
    `Wrote ${path.relative(root, EMOJI_NAMES_PATH)}: ${entries.length} emoji, ${names} names`,
  );
}
