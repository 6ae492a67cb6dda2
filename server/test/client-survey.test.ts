import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes, splitRow } from './doc-tables.js';

/**
 * Keeps docs/clients-survey.md honest: what real Zulip clients use of the API, one row per item
 * with our state. Every endpoint row marked done must be a route the server registers, every
 * endpoint row whose note says "No route" must not be one (so adding the route makes the row
 * stale and this test says so), every row has one of the four states, and the summary's counts
 * and list of missing rows match the table.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SURVEY_FILE = path.join(repoRoot, 'docs/clients-survey.md');
const HEADER = ['client', 'kind', 'item', 'our state', 'note'];
const STATES = ['done', 'missing', 'above our level', 'as upstream'] as const;
const KINDS = ['endpoint', 'parameter', 'register key', 'event', 'capability'];
const API = '/api/v1';

export interface SurveyRow {
  client: string;
  kind: string;
  item: string;
  state: string;
  note: string;
  line: number;
}

/** The rows of every table whose header is `| client | kind | item | our state | note |`. */
export function parseSurvey(markdown: string): SurveyRow[] {
  const rows: SurveyRow[] = [];
  let inTable = false;
  markdown.split('\n').forEach((text, i) => {
    const cells = splitRow(text);
    if (!cells) {
      inTable = false;
      return;
    }
    if (cells.join('|') === HEADER.join('|')) {
      inTable = true;
      return;
    }
    if (!inTable || cells.every((c) => /^:?-+:?$/.test(c))) return;
    const [client = '', kind = '', item = '', state = '', note = ''] = cells;
    rows.push({ client, kind, item, state, note, line: i + 1 });
  });
  return rows;
}

/**
 * `GET /users/{user_id}` (in backticks) as a method and a concrete path under /api/v1; a path
 * under /static/ (a file the register snapshot points to) stays at the site root.
 */
export function endpointOf(item: string): { method: string; path: string } | null {
  const m = /^`(GET|POST|PATCH|PUT|DELETE) (\/[^`\s]*)`/.exec(item.trim());
  if (!m) return null;
  const path = m[2].replace(/\{[a-z_]+\}/g, '1');
  return { method: m[1], path: path.startsWith('/static/') ? path : API + path };
}

/** The registered routes with a pattern each, to match the table's concrete paths against. */
async function routePatterns(): Promise<{ method: string; pattern: RegExp }[]> {
  return (await registeredRoutes()).map(({ method, url }) => ({
    method,
    pattern: new RegExp('^' + url.replace(/:[a-z_]+/g, '[^/]+').replace(/\*$/, '.+') + '/?$'),
  }));
}

const where = (row: SurveyRow) => `docs/clients-survey.md:${row.line} ${row.item}`;

describe('docs/clients-survey.md', () => {
  const markdown = fs.readFileSync(SURVEY_FILE, 'utf8');
  const rows = parseSurvey(markdown);
  let routes: Awaited<ReturnType<typeof routePatterns>>;
  const isRegistered = (e: { method: string; path: string }) =>
    routes.some((r) => r.method === e.method && r.pattern.test(e.path));

  beforeAll(async () => {
    routes = await routePatterns();
  });

  it('has a table of rows', () => {
    expect(rows.length).toBeGreaterThan(50);
  });

  it('gives every row a client, a known kind, an item and one of the four states', () => {
    const bad = rows
      .filter(
        (r) =>
          !r.client ||
          !r.item ||
          !KINDS.includes(r.kind) ||
          !(STATES as readonly string[]).includes(r.state),
      )
      .map((r) => `${where(r)}: client "${r.client}", kind "${r.kind}", state "${r.state}"`);
    expect(bad).toEqual([]);
  });

  it('says how for every row that is not done', () => {
    const bare = rows.filter((r) => r.state !== 'done' && !r.note).map(where);
    expect(bare).toEqual([]);
  });

  it('registers a route for every endpoint row marked done', () => {
    const done = rows.filter((r) => r.kind === 'endpoint' && r.state === 'done');
    expect(done.length).toBeGreaterThan(30);
    const unparsed = done.filter((r) => !endpointOf(r.item)).map(where);
    expect(unparsed).toEqual([]);
    const unregistered = done.filter((r) => !isRegistered(endpointOf(r.item)!)).map(where);
    expect(unregistered).toEqual([]);
  });

  it('registers no route for an endpoint row whose note says there is none', () => {
    const absent = rows.filter(
      (r) => r.kind === 'endpoint' && r.state !== 'done' && /\bno route\b/i.test(r.note),
    );
    expect(absent.length).toBeGreaterThan(0);
    const unparsed = absent.filter((r) => !endpointOf(r.item)).map(where);
    expect(unparsed).toEqual([]);
    const stale = absent.filter((r) => isRegistered(endpointOf(r.item)!)).map(where);
    expect(stale).toEqual([]);
  });

  it('counts the states in its summary as the table has them', () => {
    const summary = new Map<string, number>();
    let inCounts = false;
    for (const text of markdown.split('\n')) {
      const cells = splitRow(text);
      if (!cells) {
        inCounts = false;
        continue;
      }
      if (cells[0] === 'state' && cells[1] === 'rows') inCounts = true;
      else if (inCounts && /^\d+$/.test(cells[1] ?? '')) summary.set(cells[0], Number(cells[1]));
    }
    const actual = new Map<string, number>(STATES.map((s) => [s, 0]));
    for (const r of rows) actual.set(r.state, (actual.get(r.state) ?? 0) + 1);
    actual.set('total', rows.length);
    expect(Object.fromEntries(summary)).toEqual(Object.fromEntries(actual));
  });

  it('lists every missing row in the summary, most important first', () => {
    const listed = [...markdown.matchAll(/^\d+\. \*\*P(\d)\*\* /gm)].map((m) => Number(m[1]));
    expect(listed.length).toBe(rows.filter((r) => r.state === 'missing').length);
    expect(listed).toEqual([...listed].sort((a, b) => a - b));
  });
});
