import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** The packages a file imports by name (not relative paths, not Node's own modules). */
function packagesImportedBy(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const names = new Set<string>();
  for (const m of text.matchAll(
    /(?:^|\n)\s*import\s[^'"]*?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith('.') || spec.startsWith('node:') || builtinModules.includes(spec)) continue;
    const parts = spec.split('/');
    names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return [...names];
}

describe('a production install (npm ci --omit=dev) runs npm start', () => {
  // npm start builds the client (vite.config.ts) and the server (scripts/build-server.mjs) when
  // they are missing; what those load must be installed without the development tools.
  it.each(['scripts/start.mjs', 'scripts/build-server.mjs', 'vite.config.ts'])(
    'everything %s imports is a dependency, not a development tool',
    (file) => {
      const imported = packagesImportedBy(file);
      expect(imported.length).toBeGreaterThan(0);
      const missing = imported.filter((name) => !(name in pkg.dependencies));
      expect(missing).toEqual([]);
    },
  );

  it('installs without a warning that a package needs another Node.js', () => {
    const r = spawnSync('npm', ['ci', '--dry-run', '--no-audit', '--no-fund'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_config_loglevel: 'warn' },
    });
    expect(r.status).toBe(0);
    const warnings = `${r.stdout}\n${r.stderr}`
      .split('\n')
      .filter((line) => line.includes('EBADENGINE') && line.includes('package:'));
    expect(warnings).toEqual([]);
  });
});
