// npm test: type check, lint, import structure, unit and integration tests (vitest), end-to-end
// tests (Playwright in Debian's Chromium) and, in CI, the mutation check. Ends with one plain
// "N passed, N failed" line.
//
// PARLEY_TEST_LANES=2 runs the browser tests in a second lane beside the checks and vitest, and
// splits the mutation check between the lanes. On a loaded two-core machine the lanes slowed each
// other into timeouts, so one lane is the default. The first lane
// prints as it goes; the other prints each step's output whole when it ends, so lines never
// interleave.
import { spawn } from 'node:child_process';
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
const started = performance.now();
const elapsed = () => ((performance.now() - started) / 1000).toFixed(1);

/** Runs one command; `live` streams its output, otherwise it is printed whole at the end. */
function run(name, cmd, args, { env = {}, live = true } = {}) {
  return new Promise((resolve) => {
    const stepStart = performance.now();
    const header = `\n=== ${name}: ${cmd} ${args.join(' ')}`;
    if (live) console.log(`${header} (at ${elapsed()} s)`);
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    const chunks = [];
    child.stdout?.on('data', (d) => chunks.push(d));
    child.stderr?.on('data', (d) => chunks.push(d));
    child.on('close', (code) => {
      const seconds = (performance.now() - stepStart) / 1000;
      durations.push({ name, seconds });
      if (!live) {
        console.log(`${header} (started at ${((stepStart - started) / 1000).toFixed(1)} s)`);
        process.stdout.write(Buffer.concat(chunks));
      }
      console.log(`=== ${name}: ${code === 0 ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s`);
      resolve(code === 0);
    });
  });
}

async function check(name, cmd, args, options) {
  if (await run(name, cmd, args, options)) return;
  failed++;
  failures.push(name);
}

/** Tests by name, for the last lines of the output (all that a CI log's tail may show). */
const failedTests = [];
const flakyTests = [];

/**
 * Independent single-process checks run two at a time, one per core; the second of each pair
 * prints its output whole when it ends.
 */
async function staticChecks(live) {
  await Promise.all([
    check('type check', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit'], { live }),
    check('type check (server)', 'npx', ['tsc', '-p', 'server/tsconfig.json', '--noEmit'], {
      live: false,
    }),
  ]);
  await Promise.all([
    check('lint', 'npx', ['eslint', '.', '--max-warnings', '0'], { live }),
    check('format (prettier --check)', 'npx', ['prettier', '--check', '.'], { live: false }),
  ]);
  await check('imports (layers, no circles)', 'node', ['scripts/check-imports.mjs'], { live });
}

async function unitTests(live) {
  const vitestJson = path.join(tmp, 'vitest.json');
  const ok = await run(
    'unit and integration tests',
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
    { live },
  );
  if (!fs.existsSync(vitestJson)) {
    if (!ok) {
      failed++;
      failures.push('vitest (no report)');
    }
    return;
  }
  const r = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  for (const file of r.testResults ?? []) {
    for (const t of file.assertionResults ?? [])
      if (t.status === 'failed')
        failedTests.push(`${path.relative(root, file.name)} › ${t.fullName ?? t.title}`);
    // A file can fail with no failed case: a hook that threw or timed out, an import that broke.
    if (
      file.status === 'failed' &&
      !(file.assertionResults ?? []).some((t) => t.status === 'failed')
    )
      failedTests.push(
        `${path.relative(root, file.name)} (the file itself): ${String(file.message ?? '').split('\n')[0]}`,
      );
  }
  if (r.numFailedTests === 0 && !ok) {
    failed++;
    failures.push(
      'vitest (suite error: a failed file is named under "Failed tests", else an unhandled error is printed above)',
    );
  }
}

async function endToEnd(live) {
  const hasE2e =
    fs.existsSync(path.join(root, 'e2e')) &&
    fs.readdirSync(path.join(root, 'e2e')).some((f) => f.endsWith('.spec.ts'));
  if (!hasE2e) return;
  if (!fs.existsSync('/usr/bin/chromium') && !fs.existsSync('/usr/bin/chromium-headless-shell')) {
    if (process.getuid?.() === 0) {
      await run(
        'install chromium',
        'bash',
        [
          '-c',
          'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null',
        ],
        { live },
      );
    } else {
      console.error(
        'End-to-end tests need Chromium: run "sudo apt-get install chromium-headless-shell" (Debian) and npm test again.',
      );
    }
  }
  const pwJson = path.join(tmp, 'playwright.json');
  const ok = await run('end-to-end tests', 'npx', ['playwright', 'test'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson, PARLEY_E2E_REPORT: pwJson },
    live,
  });
  if (!fs.existsSync(pwJson)) {
    if (!ok) {
      failed++;
      failures.push('playwright (no report)');
    }
    return;
  }
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
}

// The mutation run (every action the central test reaches, made to throw in turn, must fail a
// case): CI always runs it; locally set PARLEY_MUTATION=1 or run `npm run mutation`.
const mutationShard = (shard, shards) =>
  async function mutation(live) {
    if (process.env.CI || process.env.PARLEY_MUTATION === '1')
      await check(
        `mutation check${shards > 1 ? ` ${shard}/${shards}` : ''}`,
        'node',
        ['scripts/mutation.mjs', `--shard=${shard}/${shards}`],
        { live },
      );
  };

const lanes =
  process.env.PARLEY_TEST_LANES !== '2'
    ? [[staticChecks, unitTests, endToEnd, mutationShard(1, 1)]]
    : [
        [staticChecks, unitTests, mutationShard(1, 2)],
        [endToEnd, mutationShard(2, 2)],
      ];
await Promise.all(
  lanes.map(async (steps, i) => {
    for (const step of steps) await step(i === 0);
  }),
);

console.log('\nStep times:');
for (const { name, seconds } of durations)
  console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${name}`);
console.log(`  ${elapsed().padStart(7)} s  in all`);

if (flakyTests.length)
  console.log(
    `\nFlaky (failed, then passed on retry):\n${flakyTests.map((t) => `  ${t}`).join('\n')}`,
  );
if (failedTests.length)
  console.log(`\nFailed tests:\n${failedTests.map((t) => `  ${t}`).join('\n')}`);
if (failures.length) console.log(`\nFailed steps: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
