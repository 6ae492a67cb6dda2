// npm run mutation: does the central test notice when an action fails?
//
// First a traced run of server/test/central.test.ts lists the exported functions of
// server/actions/* that its cases call and that emit events, and which cases call each
// (server/test/mutation-setup.ts). Then, one at a time, each of them is made to throw and the
// cases that call it run again, on SQLite only; a mutant is killed when one of them fails. Prints
// a table and exits 1 if any survives.
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

// One vitest instance serves every run: its transformed modules stay in memory, so a mutant costs
// the central test's own time instead of a new process compiling the server again. The mode reaches
// each run's fresh worker through a file (PARLEY_MUTATE=@file, read by mutation-setup.ts).
const modeFile = path.join(tmp, 'mode');
const logFile = path.join(tmp, 'calls.jsonl');
Object.assign(process.env, {
  PARLEY_MUTATE: `@${modeFile}`,
  PARLEY_MUTATE_KIND: kind,
  PARLEY_MUTATE_LOG: logFile,
  // A mutant's failure is logged by the server as an unexpected error; the table says it all.
  LOG_LEVEL: 'silent',
});
delete process.env.TEST_DATABASE_URL;
const { createVitest } = await import('vitest/node');
const vitest = await createVitest(
  'test',
  // One failing case is enough to kill a mutant; stopping there saves most of the run.
  { root, run: true, watch: false, project: ['server'], bail: 1, reporters: [{}] },
  {},
  {},
);
const centralSpec = vitest
  .getProjectByName('server')
  .createSpecification(path.join(root, TEST_FILE));

/** A pattern that selects exactly the named cases (by the end of their full names). */
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const casesPattern = (cases) => new RegExp(cases.map((c) => `${escapeRegExp(c)}$`).join('|'));

/**
 * Runs the central test once in the given mode, all of it or only the named cases; returns its
 * failed cases, counts and the set-up's log.
 */
async function runCentral(mode, cases) {
  fs.writeFileSync(modeFile, mode);
  fs.writeFileSync(logFile, '');
  if (cases) vitest.setGlobalTestNamePattern(casesPattern(cases));
  else vitest.resetGlobalTestNamePattern();
  const { testModules, unhandledErrors } = await vitest.runTestSpecifications([centralSpec]);
  const tests = testModules.flatMap((m) => [...m.children.allTests()]);
  const failed = tests.filter((t) => t.result().state === 'failed').map((t) => t.name);
  const passed = tests.filter((t) => t.result().state === 'passed').length;
  const errors = [...unhandledErrors, ...testModules.flatMap((m) => m.errors())].map(
    (e) => e?.stack ?? e?.message ?? String(e),
  );
  const lines = fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  return { failed, passed, errors, lines };
}

let targets = args.filter((a) => !a.startsWith('--'));
/** The cases that call each traced action: a mutant runs only those (all cases when untraced). */
const casesOf = new Map();
if (!targets.length) {
  console.log(`tracing which actions ${TEST_FILE} reaches...`);
  const trace = await runCentral('trace');
  if (trace.failed.length || trace.errors.length || !trace.passed) {
    console.error([...trace.failed.map((name) => `failed: ${name}`), ...trace.errors].join('\n'));
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

// A mutant runs only the cases that call it, which saves the rest of the file's cases each time.
// Those cases must then pass on their own, unmutated, or a kill could come from a case that needed
// an earlier one: each distinct selection is run once as it is first.
const selectionPassed = new Map();
async function selectionPasses(cases) {
  const key = JSON.stringify(cases);
  if (!selectionPassed.has(key)) {
    const run = await runCentral('', cases);
    const ok = !run.failed.length && !run.errors.length && run.passed === cases.length;
    if (!ok) console.log(`these cases fail when run by themselves: ${cases.join('; ')}`);
    selectionPassed.set(key, ok);
  }
  return selectionPassed.get(key);
}

const rows = [];
for (const [i, target] of targets.entries()) {
  const t0 = Date.now();
  const traced = casesOf.get(target);
  const cases = traced && (await selectionPasses(traced)) ? traced : undefined;
  const run = await runCentral(target, cases);
  const calls = run.lines.find((l) => l.target === target)?.calls ?? 0;
  const failed = run.failed;
  let verdict;
  if (failed.length) verdict = 'yes';
  else if (!run.errors.length) verdict = 'NO';
  else verdict = 'error'; // a crash or a broken import proves nothing about the cases
  rows.push({ target, verdict, calls, by: failed[0] ?? '', seconds: (Date.now() - t0) / 1000 });
  console.log(`[${i + 1}/${targets.length}] ${target}: killed ${verdict} (${calls} calls)`);
  if (verdict === 'error') console.log(run.errors.join('\n').split('\n').slice(-40).join('\n'));
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
await vitest.close();
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(killed === rows.length && rows.length > 0 ? 0 : 1);
