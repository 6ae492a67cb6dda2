/**
 * Test set-up for the mutation run (scripts/mutation.mjs); inert unless PARLEY_MUTATE is set.
 *
 * PARLEY_MUTATE=<module>#<export> (`flags#updateMessageFlags`: server/actions/flags.ts) replaces
 * that export, for every module that imports it, with one that throws, so a test that still
 * passes never noticed the action fail. With PARLEY_MUTATE_KIND=noop the replacement does
 * nothing instead and answers undefined (a resolved promise for an async function): a test
 * that passes then never checked that the action had an effect.
 *
 * PARLEY_MUTATE=trace instead wraps every exported function of server/actions and records which
 * ones the tests call, from which cases, and which of them emit events: the list the run then
 * mutates one by one, each against the cases that call it.
 *
 * PARLEY_MUTATE=plan wraps every one of them too, and each wrapper breaks its function while the
 * central test's current plan row names it (mutation-plan.ts): one run of the file then tries
 * every mutant in turn, each on a server of its own.
 *
 * Both act only while a test body runs: a mutant that broke `beforeAll` (server start, demo
 * seed, logins) would fail every case without showing that any of them checks the action.
 * Calls within a module bypass its exports, so only calls across modules are traced or broken,
 * the same set in both modes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import type { Delivery } from '../events/types.js';
import { activeMutant } from './mutation-plan.js';

/**
 * `@<file>` names a file holding the mode: the mutation run keeps one vitest instance and writes the
 * next target there before each run, since every run's fresh worker reads this module again.
 */
const modeSetting = process.env.PARLEY_MUTATE;
const mode = modeSetting?.startsWith('@')
  ? fs.readFileSync(modeSetting.slice(1), 'utf8').trim()
  : modeSetting;
const kind = process.env.PARLEY_MUTATE_KIND ?? 'throw';
if (kind !== 'throw' && kind !== 'noop')
  throw new Error(`PARLEY_MUTATE_KIND=${kind}: expected throw or noop`);
const log = process.env.PARLEY_MUTATE_LOG;
const actionsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../actions');

type Fn = (...args: unknown[]) => unknown;
type Module = Record<string, unknown>;

let armed = false;
/** The name of the case whose body runs now: the trace lists, per action, the cases that call it. */
let currentCase = '';
beforeEach((context) => {
  armed = true;
  currentCase = context.task.name;
});
afterEach(() => {
  armed = false;
});

/** Plain and async functions; classes keep working as they are, as `new` would break on a wrapper. */
const isCallable = (value: unknown): value is Fn =>
  typeof value === 'function' && !/^class\b/.test(Function.prototype.toString.call(value));

const actionModules = () =>
  fs
    .readdirSync(actionsDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => f.slice(0, -3));

if (mode === 'trace') traceActions();
else if (mode === 'plan') planActions();
else if (mode) mutate(mode);

/** What a broken function does instead of its work: throw, or answer nothing. */
function brokenCall(target: string, isAsync: boolean) {
  if (kind !== 'noop') throw new Error(`mutant: ${target} fails`);
  return isAsync ? Promise.resolve(undefined) : undefined;
}

/** Replaces every exported function of every action module, for every importer, by `wrap`'s. */
function wrapActions(wrap: (name: string, real: Fn) => Fn) {
  for (const moduleName of actionModules()) {
    vi.doMock(path.join(actionsDir, `${moduleName}.ts`), async (importOriginal) => {
      const original = await importOriginal<Module>();
      const wrapped: Module = { ...original };
      for (const [exportName, value] of Object.entries(original))
        if (isCallable(value)) wrapped[exportName] = wrap(`${moduleName}#${exportName}`, value);
      return wrapped;
    });
  }
}

function planActions() {
  wrapActions((name, real) => {
    const isAsync = real.constructor.name === 'AsyncFunction';
    return function (this: unknown, ...args: unknown[]) {
      const mutant = activeMutant();
      if (!armed || mutant?.target !== name) return real.apply(this, args);
      mutant.calls++;
      return brokenCall(name, isAsync);
    };
  });
}

function mutate(target: string) {
  const [moduleName, exportName] = target.split('#');
  const file = path.join(actionsDir, `${moduleName}.ts`);
  if (!exportName || !fs.existsSync(file))
    throw new Error(`PARLEY_MUTATE=${target}: expected <module under server/actions>#<export>`);
  let calls = 0;
  vi.doMock(file, async (importOriginal) => {
    const original = await importOriginal<Module>();
    if (!isCallable(original[exportName]))
      throw new Error(`PARLEY_MUTATE=${target}: no exported function ${exportName}`);
    const real = original[exportName] as Fn;
    const isAsync = real.constructor.name === 'AsyncFunction';
    const mutant = function (this: unknown, ...args: unknown[]) {
      if (!armed) return real.apply(this, args);
      calls++;
      return brokenCall(target, isAsync);
    };
    return { ...original, [exportName]: mutant };
  });
  // The run tells a mutant nobody called (a test that never reaches it) from one the tests ignored.
  afterAll(() => {
    if (log) fs.appendFileSync(log, `${JSON.stringify({ target, calls })}\n`);
  });
}

/** Which action frames a call runs inside, innermost last. */
const frames = new AsyncLocalStorage<string[]>();
const reached = new Map<string, { calls: number; emits: boolean; cases: Set<string> }>();

/** Every function on the stack of the current call emitted (or collected) an event. */
function markEmitters() {
  for (const name of frames.getStore() ?? []) reached.get(name)!.emits = true;
}

function traceActions() {
  if (!log)
    throw new Error('PARLEY_MUTATE=trace needs PARLEY_MUTATE_LOG, the file to write the trace to');
  wrapActions(
    (name, real) =>
      function (this: unknown, ...args: unknown[]) {
        if (!armed) return real.apply(this, args);
        const entry = reached.get(name) ?? { calls: 0, emits: false, cases: new Set() };
        entry.calls++;
        entry.cases.add(currentCase);
        reached.set(name, entry);
        return frames.run([...(frames.getStore() ?? []), name], () => real.apply(this, args));
      },
  );
  // Events are collected into the array `transact` hands its callback and published after the
  // commit; a helper that only pushes onto that array emits as much as the action around it.
  vi.doMock(path.resolve(actionsDir, '../context.ts'), async (importOriginal) => {
    const original = await importOriginal<typeof import('../context.js')>();
    const transact: typeof original.transact = (ctx, fn) =>
      original.transact(ctx, (trx, events) =>
        fn(
          trx,
          new Proxy(events, {
            get(target, key, receiver) {
              if (key !== 'push') return Reflect.get(target, key, receiver);
              return (...items: typeof events) => {
                markEmitters();
                return target.push(...items);
              };
            },
          }),
        ),
      );
    return { ...original, transact };
  });
  // Typing notifications skip the transaction and publish on the bus themselves.
  vi.doMock(path.resolve(actionsDir, '../events/types.ts'), async (importOriginal) => {
    const original = await importOriginal<typeof import('../events/types.js')>();
    class TracedBus extends original.MemoryBus {
      override async publish(deliveries: Delivery[]) {
        markEmitters();
        return super.publish(deliveries);
      }
    }
    return { ...original, MemoryBus: TracedBus };
  });
  afterAll(() => {
    const entries = [...reached].map(([name, r]) => ({ name, ...r, cases: [...r.cases] }));
    fs.appendFileSync(
      log,
      entries.map((e) => JSON.stringify(e)).join('\n') + (entries.length ? '\n' : ''),
    );
  });
}
