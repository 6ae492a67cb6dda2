import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Database } from './index.js';

/** Where a value goes in a query built once: replaced by the caller's value at each execution. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query of fixed shape with `arity` values, compiled once per dialect; each run substitutes
 * its values for the placeholders among the compiled parameters.
 */
function compileOnce<O>(arity: number, build: (db: Database, values: unknown[]) => Compilable<O>) {
  const byAdapter = new WeakMap<object, { query: CompiledQuery<O>; slots: (number | null)[] }>();
  const compiled = (db: Database) => {
    const adapter = db.getExecutor().adapter;
    let entry = byAdapter.get(adapter);
    if (!entry) {
      const values = Array.from({ length: arity }, (_, i) => new Slot(i));
      const query = build(db, values).compile();
      const slots = query.parameters.map((p) => (p instanceof Slot ? p.index : null));
      for (let i = 0; i < arity; i++)
        if (!slots.includes(i)) throw new Error(`compiledQuery: value ${i} is not a parameter`);
      byAdapter.set(adapter, (entry = { query, slots }));
    }
    return entry;
  };
  return (db: Database, values: readonly unknown[]): Promise<QueryResult<O>> => {
    const { query, slots } = compiled(db);
    const parameters = slots.map((slot, i) => (slot === null ? query.parameters[i] : values[slot]));
    return db.executeQuery<O>({ ...query, parameters });
  };
}

/**
 * A query of fixed shape, built and compiled once per dialect and then run with new values: the
 * hot statements of a request (authentication, sending a message) otherwise pay Kysely's
 * building and compiling at every execution, which costs about as much as SQLite running them.
 *
 * `build` receives one placeholder per value (typed as the value, so that Kysely checks the
 * query as usual) and must use each only as a plain value (`where(col, '=', v)`, `values`,
 * `limit`): a placeholder used in JavaScript or turned into SQL text would not be replaced, and
 * each must appear among the compiled query's parameters, which is checked.
 */
export function compiledQuery<P extends unknown[], O>(
  build: (db: Database, ...values: P) => Compilable<O>,
) {
  const run = compileOnce<O>(build.length - 1, (db, values) => build(db, ...(values as P)));
  return {
    async all(db: Database, ...values: P): Promise<O[]> {
      return (await run(db, values)).rows;
    },
    async first(db: Database, ...values: P): Promise<O | undefined> {
      return (await run(db, values)).rows[0];
    },
  };
}

/**
 * A query built from a list of values (`in` lists, rows to insert), compiled once per length up
 * to `maxCached` values and built anew beyond: a message's recipients are usually a handful,
 * sometimes thousands.
 */
export function compiledForLength<T, O>(
  build: (db: Database, values: T[]) => Compilable<O>,
  maxCached = 64,
) {
  const byLength = new Map<number, ReturnType<typeof compileOnce<O>>>();
  return async (db: Database, values: T[]): Promise<O[]> => {
    if (values.length > maxCached) return (await db.executeQuery(build(db, values))).rows;
    let run = byLength.get(values.length);
    if (!run)
      byLength.set(
        values.length,
        (run = compileOnce<O>(values.length, (db, slots) => build(db, slots as T[]))),
      );
    return (await run(db, values)).rows;
  };
}
