/**
 * How the central test repeats itself for the mutation run (scripts/mutation.mjs).
 *
 * Normally `centralRuns` gives one run per database, with every case. When the mutation run asks
 * for a plan (PARLEY_MUTATE=plan, the plan's file in PARLEY_MUTATE_PLAN), it gives one run per row
 * of the plan instead, on SQLite: each with its own server, only the cases the row names, and, for
 * the row's duration, that row's action broken by the wrappers of mutation-setup.ts. All rows run
 * in one vitest run, so the server's modules are imported once rather than once per mutant.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, it as vitestIt } from 'vitest';
import type { Database } from './fixtures.js';

/** One row of a plan: `target` is `<module>#<export>`, or '' for a run with nothing broken. */
export interface PlanRow {
  target: string;
  /** the cases to run, by name; null for all of them */
  cases: string[] | null;
}

/** What the wrappers read: the action broken now and how often it was called. */
export interface ActiveMutant {
  target: string;
  calls: number;
}

/** Shared with mutation-setup.ts through the global object, whichever copy of either module runs. */
export const ACTIVE_MUTANT = Symbol.for('parley.mutation.active');

type Global = { [ACTIVE_MUTANT]?: ActiveMutant };

export type CaseFn = (name: string, fn: () => unknown, timeout?: number) => void;

export interface CentralRun {
  /** what the describe block's title ends with */
  label: string;
  db: Database;
  row: PlanRow | null;
}

/** The prefix of a plan row's label, which the mutation run reads back from the test names. */
export const rowLabel = (index: number, row: PlanRow) =>
  `plan row ${index}: ${row.target || 'nothing broken'}`;

export function isPlanRun(): boolean {
  return process.env.PARLEY_MUTATE === 'plan' || readMode() === 'plan';
}

function readMode(): string | undefined {
  const setting = process.env.PARLEY_MUTATE;
  return setting?.startsWith('@') ? fs.readFileSync(setting.slice(1), 'utf8').trim() : setting;
}

export function centralRuns(databases: Database[]): CentralRun[] {
  if (!isPlanRun()) return databases.map((db) => ({ label: db, db, row: null }));
  const file = process.env.PARLEY_MUTATE_PLAN;
  if (!file) throw new Error('PARLEY_MUTATE=plan needs PARLEY_MUTATE_PLAN, the plan file');
  const rows = JSON.parse(fs.readFileSync(file, 'utf8')) as PlanRow[];
  return rows.map((row, i) => ({ label: `sqlite, ${rowLabel(i, row)}`, db: 'sqlite', row }));
}

/**
 * Called inside a run's describe block: breaks the row's action while the block runs and returns
 * the `it` that registers only the row's cases.
 */
export function useCentralRun(run: CentralRun): CaseFn {
  const row = run.row;
  if (!row) return (name, fn, timeout) => vitestIt(name, fn, timeout);
  const log = process.env.PARLEY_MUTATE_LOG;
  const active: ActiveMutant = { target: row.target, calls: 0 };
  beforeAll(() => {
    (globalThis as Global)[ACTIVE_MUTANT] = active;
  });
  afterAll(() => {
    delete (globalThis as Global)[ACTIVE_MUTANT];
    if (log && row.target)
      fs.appendFileSync(log, `${JSON.stringify({ target: row.target, calls: active.calls })}\n`);
  });
  return (name, fn, timeout) => {
    if (!row.cases || row.cases.includes(name)) vitestIt(name, fn, timeout);
  };
}

/** The row's action now broken, if any (read by the wrappers at each call). */
export function activeMutant(): ActiveMutant | undefined {
  return (globalThis as Global)[ACTIVE_MUTANT];
}
