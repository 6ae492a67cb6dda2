/**
 * The client must work against any Zulip-compatible server, so every request its bindings make
 * is an operation of the upstream Zulip OpenAPI description (read from ../shared/reference, not
 * from the repository; without that folder this test steps aside and says so).
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
function callsIn(file: string): Call[] {
  const source = fs.readFileSync(file, 'utf8');
  const calls: Call[] = [];
  const request = /connection\.request(?:<[\s\S]*?>)?\(\s*'([A-Z]+)',\s*(['`])([^'`]*)\2/g;
  for (const m of source.matchAll(request)) calls.push({ file, method: m[1], path: m[3] });
  const upload = /connection\.upload(?:<[\s\S]*?>)?\(\s*(['`])([^'`]*)\1/g;
  for (const m of source.matchAll(upload)) calls.push({ file, method: 'POST', path: m[2] });
  return calls;
}

/** The call sites of the bindings, found by reading them; dynamic paths are variables. */
function allCalls(): Call[] {
  return fs
    .readdirSync(routesDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .flatMap((f) => callsIn(path.join(routesDir, f)));
}

function specOperations(): { method: string; pattern: RegExp; path: string }[] {
  const spec = YAML.parse(fs.readFileSync(specFile, 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(spec.paths).flatMap(([specPath, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'post', 'patch', 'delete', 'put'].includes(m))
      .map((m) => ({
        method: m.toUpperCase(),
        path: specPath,
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
  },
);
