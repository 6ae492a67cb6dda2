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
        .map((call) => `${call.method} ${call.path} (${path.basename(call.file)})`);
      expect(unknown).toEqual([]);
    });
  },
);
