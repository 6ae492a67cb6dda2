// npm run mutation: does the central test notice when an action fails?
//
// First a traced run of server/test/central.test.ts lists the exported functions of
// server/actions/* that its cases call and that emit events, and which cases call each
// (server/test/mutation-setup.ts). Then one more run of the file tries each of them in turn, on
// SQLite only: a block per mutant (server/test/mutation-plan.ts), on a server of its own, with
// that action made to throw and only the cases that call it. A mutant is killed when one of them
// fails. Prints a table and exits 1 if any survives.
//
// `npm run mutation -- flags#updateMessageFlags settings#updateSettings` mutates only those;
// `--noop` makes each do nothing instead of throwing (a case must also notice a silent action).
// `--shard=2/3` mutates every third action of the traced list, from the second: npm test runs two
// shards side by side.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TEST_FILE = 'server/test/central.test.ts';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-mutation-'));
const started = Date.now();

// PostgreSQL would double every run for the same answer: the actions are the same code (below).

const args = process.argv.slice(2);
const kind = args.includes('--noop') ? 'noop' : 'throw';
const shardArg = args.find((a) => a.startsWith('--shard='));
const [shard, shards] = shardArg ? shardArg.slice(8).split('/').map(Number) : [1, 1];
if (!(shards >= 1 && shard >= 1 && shard <= shards)) {
  console.error(`${shardArg}: expected --shard=I/N with 1 <= I <= N`);
  process.exit(2);
}

// One vitest instance serves every run. The mode reaches the run's fresh worker through a file
// (PARLEY_MUTATE=@file, read by mutation-setup.ts and mutation-plan.ts).
const modeFile = path.join(tmp, 'mode');
const planFile = path.join(tmp, 'plan.json');
const logFile = path.join(tmp, 'calls.jsonl');
Object.assign(process.env, {
  PARLEY_MUTATE: `@${modeFile}`,
  PARLEY_MUTATE_KIND: kind,
  PARLEY_MUTATE_LOG: logFile,
  PARLEY_MUTATE_PLAN: planFile,
  // A mutant's failure is logged by the server as an unexpected error; the table says it all.
  LOG_LEVEL: 'silent',
});
delete process.env.TEST_DATABASE_URL;
const { createVitest } = await import('vitest/node');
const vitest = await createVitest(
  'test',
  { root, run: true, watch: false, project: ['server'], reporters: [{}] },
  {},
  {},
);
const centralSpec = vitest
  .getProjectByName('server')
  .createSpecification(path.join(root, TEST_FILE));

/** Runs the central test file once in the given mode; returns its cases, errors and log. */
async function runCentral(mode) {
  fs.writeFileSync(modeFile, mode);
  fs.writeFileSync(logFile, '');
  const { testModules, unhandledErrors } = await vitest.runTestSpecifications([centralSpec]);
  const tests = testModules.flatMap((m) => [...m.children.allTests()]);
  const errors = [...unhandledErrors, ...testModules.flatMap((m) => m.errors())].map(
    (e) => e?.stack ?? e?.message ?? String(e),
  );
  const lines = fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  return { tests, errors, lines };
}

/**
 * Runs the rows of a plan (mutation-plan.ts) in one run of the file: each row on its own server,
 * with its cases and its action broken. Returns, per row, the names of its failed cases and how
 * many passed, with the run's unhandled errors (which no row can be blamed for).
 */
async function runPlan(rows) {
  fs.writeFileSync(planFile, JSON.stringify(rows));
  const { tests, errors, lines } = await runCentral('plan');
  const results = rows.map(() => ({ failed: [], passed: 0 }));
  for (const t of tests) {
    const row = /plan row (\d+):/.exec(t.fullName)?.[1];
    if (row === undefined) continue;
    const state = t.result().state;
    if (state === 'failed') results[Number(row)].failed.push(t.name);
    else if (state === 'passed') results[Number(row)].passed++;
  }
  return { results, errors, lines };
}

let targets = args.filter((a) => !a.startsWith('--'));
/** The cases that call each traced action: a mutant runs only those (all cases when untraced). */
const casesOf = new Map();
if (!targets.length) {
  console.log(`tracing which actions ${TEST_FILE} reaches...`);
  const trace = await runCentral('trace');
  const failedCases = trace.tests.filter((t) => t.result().state === 'failed');
  if (failedCases.length || trace.errors.length || !trace.tests.length) {
    console.error([...failedCases.map((t) => `failed: ${t.name}`), ...trace.errors].join('\n'));
    console.error('The central test must pass unmutated before mutants mean anything.');
    process.exit(1);
  }
  const emitters = trace.lines.filter((l) => l.emits).sort((a, b) => a.name.localeCompare(b.name));
  for (const l of emitters) casesOf.set(l.name, l.cases);
  targets = emitters.map((l) => l.name).filter((_, i) => i % shards === shard - 1);
  const quiet = trace.lines.filter((l) => !l.emits).length;
  console.log(
    `${emitters.length} actions emit events; ${quiet} other exported helpers reached are not mutated` +
      (shards > 1 ? `; shard ${shard}/${shards} mutates ${targets.length} of them` : ''),
  );
}

// One run tries every mutant, each against the cases that call it. Those cases must also pass on
// their own, unmutated, or a kill could come from a case that needed an earlier one: the plan
// starts with one unbroken row per distinct selection.
const selections = [...new Set(targets.map((t) => JSON.stringify(casesOf.get(t) ?? null)))]
  .map((key) => JSON.parse(key))
  .filter(Boolean);
const baselines = selections.map((cases) => ({ target: '', cases }));
const mutants = targets.map((target) => ({ target, cases: casesOf.get(target) ?? null }));
console.log(
  `trying ${mutants.length} mutants in one run, after ${baselines.length} unbroken selections`,
);
const planStart = Date.now();
const plan = await runPlan([...baselines, ...mutants]);
const selectionPasses = new Map(
  selections.map((cases, i) => {
    const r = plan.results[i];
    const ok = !r.failed.length && r.passed === cases.length;
    if (!ok) console.log(`these cases fail when run by themselves: ${cases.join('; ')}`);
    return [JSON.stringify(cases), ok];
  }),
);

/** A verdict from one row's result: an unhandled error proves nothing about the cases. */
const verdictOf = (result, errors) =>
  result.failed.length ? 'yes' : errors.length ? 'error' : 'NO';
const callsOf = (lines, target) =>
  lines.filter((l) => l.target === target).reduce((n, l) => n + l.calls, 0);

const rows = [];
for (const [i, mutant] of mutants.entries()) {
  const result = plan.results[baselines.length + i];
  const trusted = !mutant.cases || selectionPasses.get(JSON.stringify(mutant.cases));
  let verdict = trusted ? verdictOf(result, plan.errors) : 'retry';
  let by = result.failed[0] ?? '';
  let calls = callsOf(plan.lines, mutant.target);
  // A mutant whose cases fail on their own, or that survived a run with an unhandled error, runs
  // again by itself on every case, where any error is its own.
  if (verdict === 'retry' || verdict === 'error') {
    const alone = await runPlan([{ target: mutant.target, cases: null }]);
    verdict = verdictOf(alone.results[0], alone.errors);
    by = alone.results[0].failed[0] ?? '';
    calls = callsOf(alone.lines, mutant.target);
    if (verdict === 'error') console.log(alone.errors.join('\n').split('\n').slice(-40).join('\n'));
  }
  rows.push({ target: mutant.target, verdict, calls, by });
  console.log(`[${i + 1}/${mutants.length}] ${mutant.target}: killed ${verdict} (${calls} calls)`);
}
console.log(`the mutants' run took ${Math.round((Date.now() - planStart) / 1000)} s`);

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
await vitest.close();
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(killed === rows.length && rows.length > 0 ? 0 : 1);
