import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIR, repoRoot } from './openapi.js';
import { splitRow } from './doc-tables.js';

/**
 * Keeps server/CONFORMANCE.md honest: every row names tests that exist and is done, and every item
 * of api-spec.md that can be found mechanically (endpoints, their parameters and numbered rules,
 * conventions, resources, transitions, authentication, events, errors, limits, versioning) has
 * its row. Row ids are derived from the spec, so deleting a row makes this test fail.
 */

const TABLE_FILE = path.join(repoRoot, 'server/CONFORMANCE.md');
const SPEC_FILE = path.join(REFERENCE_DIR, 'api-spec.md');

export interface Row {
  id: string;
  item: string;
  tests: string;
  state: string;
  line: number;
}

/** The rows of every table in CONFORMANCE.md whose header is `| id | item | test(s) | state |`. */
export function parseRows(markdown: string): Row[] {
  const rows: Row[] = [];
  let inTable = false;
  markdown.split('\n').forEach((line, i) => {
    const cells = splitRow(line);
    if (!cells) {
      inTable = false;
      return;
    }
    if (cells[0] === 'id' && cells[1] === 'item') {
      inTable = true;
      return;
    }
    if (!inTable || cells.every((c) => /^:?-+:?$/.test(c))) return;
    const [id, item, tests, state] = cells;
    rows.push({ id, item, tests: tests ?? '', state: state ?? '', line: i + 1 });
  });
  return rows;
}

/** `file.test.ts › title part` references of a test cell, separated by `<br>` (titles may hold `;`). */
export function testRefs(cell: string): { file: string; title: string }[] {
  return cell
    .split(/<br>/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((ref) => {
      const m = /^`?([\w./-]+\.(?:test|spec)\.tsx?)`?\s*›\s*(.+)$/.exec(ref);
      if (!m) return { file: '', title: ref };
      return { file: m[1], title: m[2].trim().replace(/^`|`$/g, '') };
    });
}

/** Where a referenced test file lives: src/ and e2e/ from the repository root, others in server/test/. */
function testFilePath(file: string): string {
  return /^(src|e2e|server)\//.test(file)
    ? path.join(repoRoot, file)
    : path.join(repoRoot, 'server/test', file);
}

/** The literal text of the first argument of every it/test/describe call (templates keep ${...}). */
export function testTitles(source: string): string[] {
  const titles: string[] = [];
  const call =
    /\b(?:it|test|describe)(?:\.(?:each\([^)]*\)|skipIf\([^)]*\)|only|skip|concurrent))*\(\s*(['"`])/g;
  let m: RegExpExecArray | null;
  while ((m = call.exec(source))) {
    const quote = m[1];
    let i = call.lastIndex;
    let raw = '';
    while (i < source.length && source[i] !== quote) {
      if (source[i] === '\\') {
        raw += source.slice(i, i + 2);
        i += 2;
      } else raw += source[i++];
    }
    titles.push(unescape(raw));
  }
  return titles;
}

function unescape(raw: string): string {
  return raw.replace(/\\u([0-9a-fA-F]{4})|\\(.)/g, (_, hex, ch) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : ch,
  );
}

/** A quoted title part matches when it lies inside the title (for a template title, inside one literal piece). */
export function titleMatches(title: string, part: string): boolean {
  return title.split(/\$\{[^}]*\}/).some((piece) => piece.includes(part));
}

// ---------------------------------------------------------------------------------------------
// What api-spec.md requires rows for.

export interface Expected {
  id: string;
  /** text the row's item must quote (a path, a code, an event, a limit, a parameter) */
  quotes?: string[];
  from: string;
}

interface Section {
  title: string;
  level: number;
  lines: string[];
}

function sections(markdown: string): Section[] {
  const out: Section[] = [];
  let current: Section = { title: '', level: 1, lines: [] };
  for (const line of markdown.split('\n')) {
    const h = /^(#{2,3}) (.+)$/.exec(line);
    if (h) {
      out.push(current);
      current = { title: h[2].trim(), level: h[1].length, lines: [] };
    } else current.lines.push(line);
  }
  out.push(current);
  return out;
}

/** `PATCH /messages/{message_id}` → `E-PATCH-messages`: path parameters dropped, segments joined. */
export function endpointId(method: string, pathText: string): string {
  const segments = pathText.split('/').filter((s) => s && !s.startsWith('{'));
  return `E-${method}-${segments.join('-')}`;
}

/** A table cell or heading as an id part: backticks and parentheses gone, other punctuation as dashes. */
export function slug(text: string, lower = false): string {
  let s = text.replace(/\([^)]*\)/g, ' ').replace(/`/g, '');
  if (lower) s = s.toLowerCase();
  return s
    .replace(/[^A-Za-z0-9_]+/g, '-')
    .replace(/_-|-_/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
}

function tableBody(lines: string[]): string[][] {
  const rows: string[][] = [];
  let seenHeader = false;
  for (const line of lines) {
    const cells = splitRow(line);
    if (!cells) {
      seenHeader = false;
      continue;
    }
    if (!seenHeader) {
      seenHeader = true;
      continue;
    }
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    rows.push(cells);
  }
  return rows;
}

const numbered = (lines: string[]) =>
  lines.filter((l) => /^\d+\. /.test(l)).map((l) => l.replace(/^\d+\. /, ''));
const ENDPOINT = /^(GET|POST|PATCH|DELETE|PUT) (\/\S+)$/;

export function expectedRows(spec: string): Expected[] {
  const out: Expected[] = [];
  const all = sections(spec);
  let part = '';
  for (const s of all) {
    if (s.level === 2) part = s.title;
    const from = `${part} › ${s.title}`;
    if (s.level === 2 && s.title === 'What the service does') {
      numbered(s.lines).forEach((_, i) => out.push({ id: `CONV-${i + 1}`, from }));
    } else if (part === 'Resources and their fields' && s.level === 3) {
      out.push({ id: `RES-${slug(s.title, true)}`, from });
    } else if (s.title === 'States and transitions') {
      tableBody(s.lines).forEach((_, i) => out.push({ id: `ST-${i + 1}`, from }));
    } else if (part === 'Endpoints' && s.level === 3) {
      out.push(...endpointRows(s, from));
    } else if (s.title === 'Authentication') {
      numbered(s.lines).forEach((_, i) => out.push({ id: `AUTH-${i + 1}`, from }));
      for (const [n, count] of nestedBullets(s.lines))
        for (let m = 1; m <= count; m++) out.push({ id: `AUTH-${n}-${m}`, from });
    } else if (s.title === 'Events') {
      numbered(s.lines).forEach((_, i) => out.push({ id: `EV-RULE-${i + 1}`, from }));
      for (const [event] of tableBody(s.lines)) {
        const name = event.replace(/`/g, '');
        out.push({ id: `EV-${slug(name)}`, quotes: [name], from });
      }
    } else if (s.title === 'Errors') {
      for (const [code] of tableBody(s.lines)) {
        const name = code.replace(/`/g, '');
        out.push({ id: `ERR-${name}`, quotes: [name], from });
      }
    } else if (s.title === 'Limits') {
      for (const [limit] of tableBody(s.lines))
        out.push({ id: `LIM-${slug(limit, true)}`, quotes: [limit], from });
    } else if (s.title === 'Versioning') {
      numbered(s.lines).forEach((_, i) => out.push({ id: `VER-${i + 1}`, from }));
      for (const [level] of tableBody(s.lines)) out.push({ id: `VER-LEVEL-${slug(level)}`, from });
    }
  }
  return out;
}

/**
 * One endpoint section: the endpoint itself (by heading, or by `- \`METHOD /path\`` bullets as in
 * Drafts and Other endpoints), its numbered rules, its table rows, and every parameter or field
 * listed as a `- \`name\`` bullet, which some row of the endpoint must quote.
 */
function endpointRows(s: Section, from: string): Expected[] {
  const out: Expected[] = [];
  const heading = ENDPOINT.exec(s.title.split(' — ')[0]);
  const endpoints: { id: string; quote: string }[] = [];
  if (heading)
    endpoints.push({
      id: endpointId(heading[1], heading[2]),
      quote: `${heading[1]} ${heading[2]}`,
    });
  for (const line of s.lines) {
    for (const m of line.matchAll(/`(GET|POST|PATCH|DELETE|PUT) (\/[^`\s]+)`/g)) {
      const isBullet = /^\s*- `(GET|POST|PATCH|DELETE|PUT) /.test(line);
      if (isBullet || s.title === 'Other endpoints') {
        const id = endpointId(m[1], m[2]);
        if (!endpoints.some((e) => e.id === id)) endpoints.push({ id, quote: `${m[1]} ${m[2]}` });
      }
    }
  }
  for (const e of endpoints) out.push({ id: e.id, quotes: [e.quote], from });
  if (!heading) return out;
  const base = endpoints[0].id;
  numbered(s.lines).forEach((_, i) => out.push({ id: `${base}-${i + 1}`, from }));
  for (const [first] of tableBody(s.lines)) {
    // A cell naming several fields gets one row, named after the first and quoting them all.
    const names = first
      .replace(/`/g, '')
      .split(',')
      .map((n) => n.trim());
    out.push({
      id: `${base}-${slug(names[0])}`,
      quotes: names.length > 1 ? names : undefined,
      from,
    });
  }
  const bullets = new Set<string>();
  for (const line of s.lines) {
    const m = /^\s*- `([A-Za-z_][A-Za-z0-9_ ]*)`/.exec(line);
    if (m && !ENDPOINT.test(m[1])) bullets.add(m[1]);
  }
  for (const name of bullets)
    out.push({ id: base, quotes: [name], from: `${from} (bullet \`${name}\`)` });
  for (const [label, count] of ruleLists(s.lines))
    for (let n = 1; n <= count; n++) out.push({ id: `${base}-${label}-${n}`, from });
  return out;
}

/** Bullets nested under numbered items: item number → how many. */
function nestedBullets(lines: string[]): Map<number, number> {
  const out = new Map<number, number>();
  let item = 0;
  for (const line of lines) {
    const n = /^(\d+)\. /.exec(line);
    if (n) item = Number(n[1]);
    else if (item && /^\s+- /.test(line)) out.set(item, (out.get(item) ?? 0) + 1);
    else if (line.trim() && !/^\s/.test(line)) item = 0;
  }
  return out;
}

/**
 * Bulleted rule lists introduced by "<Word> rules ...:" (Capability rules, Client rules for a muted
 * user): label (the word, lower case) → how many rules. Rules are the bullets below the
 * introduction, deeper than it when it is itself a bullet.
 */
function ruleLists(lines: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const intro = /^(\s*)(- )?(\w+) rules\b[^:]*:$/.exec(lines[i]);
    if (!intro) continue;
    const depth = intro[2] ? intro[1].length : -1;
    let count = 0;
    for (let j = i + 1; j < lines.length; j++) {
      const bullet = /^(\s*)- /.exec(lines[j]);
      if (bullet && bullet[1].length > depth) count++;
      else if (lines[j].trim() === '' && count === 0) continue;
      else break;
    }
    if (count) out.set(intro[3].toLowerCase(), count);
  }
  return out;
}

const quotes = (item: string, word: string) =>
  new RegExp(
    `(^|[^A-Za-z0-9_])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`,
    'i',
  ).test(item);

/** What the table lacks for the expected items: a row by id, or a row that quotes the item's name. */
export function coverageProblems(rows: Row[], expected: Expected[]): string[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const problems: string[] = [];
  for (const e of expected) {
    const exact = byId.get(e.id);
    if (!e.quotes) {
      if (!exact) problems.push(`${e.id} (${e.from})`);
      continue;
    }
    // Parameters listed as bullets may be quoted by any row of their endpoint.
    const bullet = e.from.includes('(bullet');
    const candidates = !bullet
      ? exact
        ? [exact]
        : []
      : rows.filter((r) => r.id === e.id || r.id.startsWith(`${e.id}-`));
    if (!candidates.length) problems.push(`${e.id} (${e.from})`);
    else if (
      !e.quotes.every((q) => candidates.some((r) => r.item.includes(q) || quotes(r.item, q)))
    )
      problems.push(`${e.id} must quote ${e.quotes.map((q) => `"${q}"`).join(', ')} (${e.from})`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------

describe('server/CONFORMANCE.md', () => {
  const rows = parseRows(fs.readFileSync(TABLE_FILE, 'utf8'));

  it('has per-item rows with unique ids, each with a test and a done state', () => {
    expect(rows.length).toBeGreaterThan(150);
    const seen = new Map<string, number>();
    for (const r of rows) {
      expect(seen.has(r.id), `row ${r.id} (line ${r.line}) repeats line ${seen.get(r.id)}`).toBe(
        false,
      );
      seen.set(r.id, r.line);
      expect(r.id, `line ${r.line}`).toMatch(/^[A-Z]+(-[\w.]+)+$/);
      expect(r.item.length, `${r.id}: item`).toBeGreaterThan(0);
      expect(testRefs(r.tests).length, `${r.id}: no test named`).toBeGreaterThan(0);
      expect(r.state, `${r.id}: state`).toMatch(/^done(, differs: .{10,})?$/);
      expect(r.state, `${r.id}: state`).not.toMatch(
        /not implemented|partial|todo|placeholder|unfinished/i,
      );
    }
  });

  it('names only tests that exist, by file and by (part of) their title', () => {
    const sources = new Map<string, string[]>();
    const problems: string[] = [];
    for (const r of rows) {
      for (const ref of testRefs(r.tests)) {
        if (!ref.file) {
          problems.push(`${r.id}: "${ref.title}" is not \`file.test.ts › title\``);
          continue;
        }
        const file = testFilePath(ref.file);
        if (!sources.has(file))
          sources.set(file, fs.existsSync(file) ? testTitles(fs.readFileSync(file, 'utf8')) : []);
        const titles = sources.get(file)!;
        if (!titles.length) problems.push(`${r.id}: ${ref.file} does not exist or has no tests`);
        else if (!titles.some((t) => titleMatches(t, ref.title)))
          problems.push(`${r.id}: no test in ${ref.file} is titled "…${ref.title}…"`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('reads titles as written, template pieces and escapes included', () => {
    const src =
      "it('a \\u2019b', () => {}); describe.each(DB)(`on ${'x'} %s`, () => {}); test(\"don\\\"t\", () => {});";
    expect(testTitles(src)).toEqual(['a \u2019b', "on ${'x'} %s", 'don"t']);
    expect(titleMatches("on ${'x'} %s", 'on ')).toBe(true);
    expect(titleMatches('deletes a queue', 'deletes a cue')).toBe(false);
    expect(
      testRefs(
        'core.test.ts › names a missing parameter<br>src/model/typing.test.ts › expires; stops',
      ),
    ).toEqual([
      { file: 'core.test.ts', title: 'names a missing parameter' },
      { file: 'src/model/typing.test.ts', title: 'expires; stops' },
    ]);
  });

  const specPresent = fs.existsSync(SPEC_FILE);
  if (!specPresent)
    console.warn(
      `conformance table: ${SPEC_FILE} is absent, so the spec-coverage check steps aside`,
    );

  it.skipIf(!specPresent)(
    'has a row for every item of api-spec.md, quoting its path, code, event, limit or parameter',
    () => {
      expect(coverageProblems(rows, expectedRows(fs.readFileSync(SPEC_FILE, 'utf8')))).toEqual([]);
    },
  );

  it.skipIf(!specPresent)(
    'derives enough items from the spec that deleting any of their rows is noticed',
    () => {
      const expected = expectedRows(fs.readFileSync(SPEC_FILE, 'utf8'));
      const ids = new Set(expected.map((e) => e.id));
      for (const id of [
        'CONV-7',
        'ST-13',
        'E-PATCH-messages-8',
        'E-POST-typing-7',
        'ERR-RATE_LIMIT_HIT',
        'EV-typing',
        'LIM-topic-length',
        'E-GET-events',
        'E-PATCH-realm-filters',
        'E-POST-drafts',
        'E-PATCH-drafts',
        'VER-LEVEL-222',
        'AUTH-11',
        'AUTH-9-6',
        'RES-stream-object',
        'E-POST-register-capability-3',
        'E-POST-users-me-muted_users-client-5',
      ])
        expect(ids, id).toContain(id);
      expect(expected.filter((e) => e.id.startsWith('ERR-'))).toHaveLength(11);
      expect(
        expected.filter((e) => e.id.startsWith('EV-') && !e.id.startsWith('EV-RULE')),
      ).toHaveLength(15);
      expect(expected.filter((e) => e.id.startsWith('LIM-'))).toHaveLength(9);
      const unnoticed = rows
        .filter((r) => ids.has(r.id))
        .filter(
          (r) =>
            coverageProblems(
              rows.filter((x) => x !== r),
              expected,
            ).length === 0,
        );
      expect(unnoticed.map((r) => r.id)).toEqual([]);
      expect(rows.filter((r) => ids.has(r.id)).length).toBeGreaterThan(200);
    },
  );
});
