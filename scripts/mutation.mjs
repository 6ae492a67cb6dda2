// npm run mutation: does the central test notice when an action fails?
//
// First a traced run of server/test/central.test.ts lists the exported functions of
// server/actions/* that its cases call and that emit events (server/test/mutation-setup.ts).
// Then, one at a time, each of them is made to throw and the central test runs again, on SQLite
// only; a mutant is killed when some case fails. Prints a table and exits 1 if any survives.
//
// `npm run mutation -- flags#updateMessageFlags settings#updateSettings` mutates only those;
// `--noop` makes each do nothing instead of throwing (a case must also notice a silent action).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TEST_FILE = 'server/test/central.test.ts';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-mutation-'));
const started = Date.now();

// PostgreSQL would double every run for the same answer: the actions are the same code.
const baseEnv = { ...process.env };
delete baseEnv.TEST_DATABASE_URL;

const args = process.argv.slice(2);
const kind = args.includes('--noop') ? 'noop' : 'throw';

/** Runs the central test once under PARLEY_MUTATE=`mode`; returns its JSON report and the set-up's log. */
function runCentral(mode, extraArgs = []) {
  const slug = mode.replace(/[^\w-]+/g, '_');
  const report = path.join(tmp, `${slug}.json`);
  const log = path.join(tmp, `${slug}.log`);
  const r = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      TEST_FILE,
      '--project',
      'server',
      '--reporter=json',
      `--outputFile=${report}`,
      ...extraArgs,
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...baseEnv, PARLEY_MUTATE: mode, PARLEY_MUTATE_KIND: kind, PARLEY_MUTATE_LOG: log },
    },
  );
  const json = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : null;
  const lines = fs.existsSync(log)
    ? fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  return { status: r.status, output: `${r.stdout}\n${r.stderr}`, json, lines };
}

const failedCases = (json) =>
  (json?.testResults ?? []).flatMap((f) =>
    f.assertionResults.filter((a) => a.status === 'failed').map((a) => a.title),
  );

let targets = args.filter((a) => !a.startsWith('--'));
if (!targets.length) {
  console.log(`tracing which actions ${TEST_FILE} reaches...`);
  const trace = runCentral('trace');
  if (
    trace.status !== 0 ||
    !trace.json ||
    trace.json.numFailedTests ||
    !trace.json.numPassedTests
  ) {
    console.error(trace.output);
    console.error('The central test must pass unmutated before mutants mean anything.');
    process.exit(1);
  }
  targets = trace.lines
    .filter((l) => l.emits)
    .map((l) => l.name)
    .sort();
  const quiet = trace.lines.filter((l) => !l.emits).length;
  console.log(
    `${targets.length} actions emit events; ${quiet} other exported helpers reached are not mutated`,
  );
}

const rows = [];
for (const [i, target] of targets.entries()) {
  const t0 = Date.now();
  // One failing case is enough to kill a mutant; stopping there saves most of the run.
  const run = runCentral(target, ['--bail=1']);
  const calls = run.lines.find((l) => l.target === target)?.calls ?? 0;
  const failed = failedCases(run.json);
  let verdict;
  if (failed.length) verdict = 'yes';
  else if (run.status === 0) verdict = 'NO';
  else verdict = 'error'; // a crash or a broken import proves nothing about the cases
  rows.push({ target, verdict, calls, by: failed[0] ?? '', seconds: (Date.now() - t0) / 1000 });
  console.log(`[${i + 1}/${targets.length}] ${target}: killed ${verdict} (${calls} calls)`);
  if (verdict === 'error') console.log(run.output.split('\n').slice(-40).join('\n'));
}

const width = Math.max(6, ...rows.map((r) => r.target.length));
console.log(`\n${'action'.padEnd(width)}  killed  calls  first failing case`);
for (const r of rows)
  console.log(
    `${r.target.padEnd(width)}  ${r.verdict.padEnd(6)}  ${String(r.calls).padStart(5)}  ${r.by}`,
  );
const killed = rows.filter((r) => r.verdict === 'yes').length;
const seconds = Math.round((Date.now() - started) / 1000);
console.log(
  `\n${rows.length} actions made to ${kind === 'noop' ? 'do nothing' : 'throw'}, ${killed} killed, ${rows.length - killed} not, in ${seconds} s`,
);
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(killed === rows.length && rows.length > 0 ? 0 : 1);
