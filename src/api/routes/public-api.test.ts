/**
 * The client must work against any Zulip-compatible server, so every request its bindings make
 * is an operation of the upstream Zulip OpenAPI description (read from ../shared/reference, not
 * from the repository; without that folder those checks step aside and say so). The bindings
 * mirror the API documentation: one function per endpoint, named after the endpoint's page, which
 * its doc comment gives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

const routesDir = path.resolve(__dirname);
const referenceDir = path.resolve(
  routesDir,
  '../../..',
  process.env.PARLEY_REFERENCE_DIR ?? '../shared/reference',
);
const specFile = path.join(referenceDir, 'zulip-openapi.yaml');
const haveSpec = fs.existsSync(specFile);

interface Call {
  file: string;
  method: string;
  path: string;
}

/** `connection.request<T>('METHOD', 'path' | `path`)` and `connection.upload('path')` calls. */
function callsIn(file: string, source = fs.readFileSync(file, 'utf8')): Call[] {
  const calls: Call[] = [];
  const request = /connection\.request(?:<[\s\S]*?>)?\(\s*'([A-Z]+)',\s*(['`])([^'`]*)\2/g;
  for (const m of source.matchAll(request)) calls.push({ file, method: m[1], path: m[3] });
  const upload = /connection\.upload(?:<[\s\S]*?>)?\(\s*(['`])([^'`]*)\1/g;
  for (const m of source.matchAll(upload)) calls.push({ file, method: 'POST', path: m[2] });
  return calls;
}

const bindingFiles = () =>
  fs
    .readdirSync(routesDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(routesDir, f));

/** The call sites of the bindings, found by reading them; dynamic paths are variables. */
function allCalls(): Call[] {
  return bindingFiles().flatMap((file) => callsIn(file));
}

interface Binding {
  file: string;
  name: string;
  /** the first line of its doc comment, `METHOD /path: https://zulip.com/api/page` */
  summary: string;
  calls: Call[];
}

/** Each exported function with its doc comment and the requests its body makes. */
function allBindings(): Binding[] {
  const binding = /(?:\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*)?export function (\w+)[\s\S]*?\n\}\n/g;
  return bindingFiles().flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(binding)].map((m) => ({
      file,
      name: m[2],
      summary:
        (m[1] ?? '')
          .split('\n')
          .map((line) => line.replace(/^\s*\*?\s*/, '').trim())
          .find((line) => line !== '') ?? '',
      calls: callsIn(file, m[0]),
    })),
  );
}

const SUMMARY =
  /^([A-Z]+) (\/\S*?):? (?:https:\/\/zulip\.com\/api\/([a-z0-9-]+)|\(no documentation page)/;

/** A path with each parameter, `{name}` or `${expression}`, replaced by one placeholder. */
const concrete = (apiPath: string) => apiPath.replace(/\$?\{[^}]+\}/g, 'x');

const camelCase = (page: string) => page.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function specOperations(): { method: string; pattern: RegExp; path: string; page: string }[] {
  const spec = YAML.parse(fs.readFileSync(specFile, 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  return Object.entries(spec.paths).flatMap(([specPath, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'post', 'patch', 'delete', 'put'].includes(m))
      .map((m) => ({
        method: m.toUpperCase(),
        path: specPath,
        page: item[m].operationId ?? '',
        pattern: new RegExp(
          '^' + specPath.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$',
        ),
      })),
  );
}

/**
 * Operations the reference server serves (zproject/urls.py) and its own web app uses, which its
 * OpenAPI description leaves out: the administration and profile-editing endpoints. Each is
 * listed with the method; a request outside both lists still fails.
 */
const SERVED_OUTSIDE_OPENAPI: readonly { method: string; path: RegExp }[] = [
  { method: 'PATCH', path: /^\/realm$/ },
  // Widgets' events (polls, to-do lists): zerver/views/submessage.py, "experimental".
  { method: 'POST', path: /^\/submessage$/ },
  { method: 'PATCH', path: /^\/realm\/profile_fields\/[^/]+$/ },
  { method: 'DELETE', path: /^\/realm\/profile_fields\/[^/]+$/ },
  { method: 'PATCH', path: /^\/users\/me\/profile_data$/ },
  { method: 'DELETE', path: /^\/users\/me\/profile_data$/ },
  { method: 'POST', path: /^\/users\/me\/avatar$/ },
  { method: 'DELETE', path: /^\/users\/me\/avatar$/ },
  { method: 'POST', path: /^\/bots$/ },
  { method: 'PATCH', path: /^\/bots\/[^/]+$/ },
  { method: 'DELETE', path: /^\/bots\/[^/]+$/ },
  { method: 'POST', path: /^\/bots\/[^/]+\/api_key\/regenerate$/ },
  { method: 'POST', path: /^\/default_stream_groups\/create$/ },
  { method: 'PATCH', path: /^\/default_stream_groups\/[^/]+$/ },
  { method: 'PATCH', path: /^\/default_stream_groups\/[^/]+\/streams$/ },
  { method: 'DELETE', path: /^\/default_stream_groups\/[^/]+$/ },
  // Servers at the spec's feature level delete a group; newer ones deactivate it instead.
  { method: 'DELETE', path: /^\/user_groups\/[^/]+$/ },
];

/** A binding whose whole path comes from the server (an upload's) makes no literal request. */
const SERVER_GIVEN_PATH = new Set(['getFileTemporaryUrl']);

const repeated = (items: string[]) => items.filter((item, i) => items.indexOf(item) !== i);

describe('the bindings mirror the API documentation', () => {
  it('gives each binding one endpoint, which its doc comment names with its page', () => {
    const bindings = allBindings();
    expect(bindings.length).toBeGreaterThan(30);
    const wrong = bindings
      .filter((b) => {
        const summary = SUMMARY.exec(b.summary);
        if (!summary) return true;
        if (b.calls.length === 0) return !SERVER_GIVEN_PATH.has(b.name);
        const [call] = b.calls;
        return (
          b.calls.length > 1 ||
          call.method !== summary[1] ||
          concrete(call.path) !== concrete(summary[2])
        );
      })
      .map((b) => `${b.name} (${path.basename(b.file)}): ${b.summary}`);
    expect(wrong).toEqual([]);
  });

  it('binds each endpoint once', () => {
    const endpoints = allBindings().flatMap((b) => {
      const summary = SUMMARY.exec(b.summary);
      return summary ? [`${summary[1]} ${concrete(summary[2])}`] : [];
    });
    expect(repeated(endpoints)).toEqual([]);
    expect(repeated(allCalls().map((call) => `${call.method} ${concrete(call.path)}`))).toEqual([]);
  });
});

describe.skipIf(!haveSpec)(
  `the client uses only the public API (needs ${specFile}; skipped without it)`,
  () => {
    it('finds the bindings it checks', () => {
      const calls = allCalls();
      expect(calls.length).toBeGreaterThan(30);
      expect(calls).toContainEqual(expect.objectContaining({ method: 'POST', path: '/register' }));
    });

    it('makes only requests the upstream OpenAPI describes', () => {
      const operations = specOperations();
      const unknown = allCalls()
        // A template's ${…} parts stand for one path segment; a whole-path variable (a server-given
        // upload path) is checked where it is built.
        .filter((call) => call.path.startsWith('/'))
        .map((call) => ({ ...call, concrete: call.path.replace(/\$\{[^}]+\}/g, 'x') }))
        .filter(
          (call) =>
            !operations.some((op) => op.method === call.method && op.pattern.test(call.concrete)),
        )
        .filter(
          (call) =>
            !SERVED_OUTSIDE_OPENAPI.some(
              (op) => op.method === call.method && op.path.test(call.concrete),
            ),
        )
        .map((call) => `${call.method} ${call.path} (${path.basename(call.file)})`);
      expect(unknown).toEqual([]);
    });

    it('names each binding after the documentation page of its endpoint', () => {
      const operations = specOperations();
      const wrong = allBindings().flatMap((b) => {
        const summary = SUMMARY.exec(b.summary);
        if (!summary) return []; // reported by the check of the doc comments
        const [, method, docPath, page] = summary;
        if (page === undefined) {
          const documented = operations.find(
            (op) => op.method === method && concrete(op.path) === concrete(docPath),
          );
          return documented ? [`${b.name}: ${method} ${docPath} is at ${documented.page}`] : [];
        }
        const op = operations.find((o) => o.method === method && o.path === docPath);
        if (!op) return [`${b.name}: no ${method} ${docPath} in the OpenAPI description`];
        if (op.page !== page) return [`${b.name}: ${method} ${docPath} is at ${op.page}`];
        return b.name === camelCase(page)
          ? []
          : [`${b.name}: named ${camelCase(page)} by its page`];
      });
      expect(wrong).toEqual([]);
    });
  },
);
