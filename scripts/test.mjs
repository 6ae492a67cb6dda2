// npm test: type check, lint, import structure, unit and integration tests (vitest), then
// end-to-end tests (Playwright in Debian's Chromium). Ends with one plain "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
let passed = 0;
let failed = 0;
const failures = [];

/** Each step's duration, printed at the end, so that a slow CI run shows where its time went. */
const durations = [];

function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = performance.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = (performance.now() - started) / 1000;
  durations.push({ name, seconds });
  console.log(`=== ${name}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s`);
  return r.status === 0;
}

function step(name, cmd, args) {
  if (run(name, cmd, args)) return;
  failed++;
  failures.push(name);
}

step('type check', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
step('type check (server)', 'npx', ['tsc', '-p', 'server/tsconfig.json', '--noEmit']);
step('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
step('imports (no circles, no HTTP in the domain)', 'node', ['scripts/check-imports.mjs']);
step('format (prettier --check)', 'npx', ['prettier', '--check', '.']);

const vitestJson = path.join(tmp, 'vitest.json');
const vitestOk = run('unit and integration tests', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
/** Tests by name, for the last lines of the output (all that a CI log's tail may show). */
const failedTests = [];
const flakyTests = [];
if (fs.existsSync(vitestJson)) {
  const r = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  for (const file of r.testResults ?? [])
    for (const t of file.assertionResults ?? [])
      if (t.status === 'failed')
        failedTests.push(`${path.relative(root, file.name)} › ${t.fullName ?? t.title}`);
  if (r.numFailedTests === 0 && !vitestOk) {
    failed++;
    failures.push('vitest (suite error)');
  }
} else if (!vitestOk) {
  failed++;
  failures.push('vitest (no report)');
}

const hasE2e =
  fs.existsSync(path.join(root, 'e2e')) &&
  fs.readdirSync(path.join(root, 'e2e')).some((f) => f.endsWith('.spec.ts'));
if (hasE2e) {
  if (!fs.existsSync('/usr/bin/chromium')) {
    if (process.getuid?.() === 0) {
      run('install chromium', 'bash', [
        '-c',
        'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null',
      ]);
    } else {
      console.error(
        'End-to-end tests need Chromium: run "sudo apt-get install chromium" (Debian) and npm test again.',
      );
    }
  }
  const pwJson = path.join(tmp, 'playwright.json');
  const ok = run('end-to-end tests', 'npx', ['playwright', 'test'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
    PARLEY_E2E_REPORT: pwJson,
  });
  if (fs.existsSync(pwJson)) {
    const report = JSON.parse(fs.readFileSync(pwJson, 'utf8'));
    const s = report.stats ?? {};
    const visit = (suite, titles) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? []) {
          const name = `${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`;
          if (t.status === 'unexpected') failedTests.push(name);
          else if (t.status === 'flaky') flakyTests.push(name);
        }
      for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
    };
    for (const suite of report.suites ?? []) visit(suite, []);
    passed += s.expected ?? 0;
    // A flaky test (CI retries once: playwright.config.ts) passed, and is named at the end.
    passed += s.flaky ?? 0;
    failed += s.unexpected ?? 0;
    if (!ok && !s.unexpected) {
      failed++;
      failures.push('playwright (run error)');
    }
  } else if (!ok) {
    failed++;
    failures.push('playwright (no report)');
  }
}

// The mutation run (every action the central test reaches, made to throw in turn, must fail a
// case) takes about seven minutes: CI always runs it, locally set PARLEY_MUTATION=1 or run
// `npm run mutation`.
if (process.env.CI || process.env.PARLEY_MUTATION === '1')
  step('mutation check', 'node', ['scripts/mutation.mjs']);

console.log('\nStep times:');
for (const { name, seconds } of durations)
  console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${name}`);

if (flakyTests.length)
  console.log(
    `\nFlaky (failed, then passed on retry):\n${flakyTests.map((t) => `  ${t}`).join('\n')}`,
  );
if (failedTests.length)
  console.log(`\nFailed tests:\n${failedTests.map((t) => `  ${t}`).join('\n')}`);
if (failures.length) console.log(`\nFailed steps: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
