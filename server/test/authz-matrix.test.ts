import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownRoutes } from '../http/route.js';
import { DATABASES, startTestServer } from './harness.js';
import { registeredRoutes } from './doc-tables.js';
import { MATRIX } from './authz-matrix.js';
import {
  ACCOUNTS,
  expectations,
  mismatch,
  rowName,
  type Actor,
  type Outcome,
  type Row,
  type World,
} from './authz/types.js';
import { buildWorld, must } from './authz/world.js';

/*
 * Runs the authorization matrix (authz-matrix.ts): one test per route row and actor, named
 * "authorization matrix on <db> > <METHOD /path [variant]> > <actor>", whose failure says what the
 * reference server answers and what ours did. Before that, the table must cover every route the
 * app registers, and name none that it does not.
 */
const API = '/api/v1';
const keyOf = (row: Row) => (row.route ?? row.page)!;
/** A concrete URL for a route template, to test against patterns recorded without a template. */
const sampleUrl = (template: string) => template.replace(/:[a-z_]+/g, '1').replace('*', 'x');

describe('the authorization matrix covers every route', () => {
  let app: { method: string; url: string }[];
  beforeAll(async () => {
    app = await registeredRoutes();
  });
  const rowKeys = () => new Set(MATRIX.map(keyOf));

  it('has a row for every /api/v1 route in knownRoutes', () => {
    const missing = new Set<string>();
    for (const r of knownRoutes) {
      const covered = r.path
        ? rowKeys().has(`${r.method} ${r.path}`)
        : MATRIX.some(
            (row) =>
              row.route?.startsWith(`${r.method} `) &&
              r.pattern.test(API + sampleUrl(row.route.split(' ')[1])),
          );
      if (!covered)
        missing.add(`${r.method} ${r.path ?? r.pattern.source} (auth: ${r.auth ?? '?'})`);
    }
    expect([...missing]).toEqual([]);
  });

  it('has a row for every route outside /api/v1', () => {
    const pages = app
      .filter((r) => !r.url.startsWith(`${API}/`))
      .map((r) => `${r.method} ${r.url}`);
    expect(pages.filter((k) => !rowKeys().has(k))).toEqual([]);
  });

  it('finds every /api/v1 route of the app in knownRoutes', () => {
    const api = app.filter((r) => r.url.startsWith(`${API}/`));
    const unknown = api.filter(
      (r) => !knownRoutes.some((k) => k.method === r.method && k.pattern.test(sampleUrl(r.url))),
    );
    expect(unknown).toEqual([]);
  });

  it('names only routes that exist', () => {
    const real = new Set(app.map((r) => `${r.method} ${r.url}`));
    const stale = MATRIX.filter(
      (row) => !real.has(row.route ? row.route.replace(' ', ` ${API}`) : row.page!),
    );
    expect(stale.map(rowName)).toEqual([]);
  });

  it('decides every account in every row, and can tell what hidden means', () => {
    const undecided = MATRIX.flatMap((row) => {
      const want = expectations(row);
      const gaps = ACCOUNTS.filter((a) => !want.has(a)).map((a) => `${rowName(row)}: ${a}`);
      if ([...want.values()].some((o) => o.kind === 'hidden') && !row.reveals)
        gaps.push(`${rowName(row)}: hidden without reveals`);
      if (row.seenBy && !row.reveals) gaps.push(`${rowName(row)}: seenBy without reveals`);
      if (!!row.route === !!row.page)
        gaps.push(`${rowName(row)}: needs exactly one of route and page`);
      return gaps;
    });
    expect(undecided).toEqual([]);
  });
});

/** Refusals first, so that a wrongly allowed call cannot spoil the target of a refused one. */
const RANK: Record<Outcome['kind'], number> = { refused: 0, hidden: 1, ok: 2 };

async function accountLike(w: World, actor: Actor) {
  switch (actor) {
    case 'spectator':
    case 'deactivatedInviter':
      return w.as[actor];
    case 'deactivated':
      return (await w.deactivatedAccount()).client;
    case 'formerSubscriber':
      return (await w.account('member')).client;
    default:
      return (await w.account(actor)).client;
  }
}

function describeRows(rows: Row[], world: () => World) {
  for (const row of rows) {
    describe(rowName(row), () => {
      const want = expectations(row);
      let shared: Promise<unknown> | undefined;
      const actors = [...want.keys()].sort(
        (a, b) => RANK[want.get(a)!.kind] - RANK[want.get(b)!.kind],
      );
      if (row.seenBy) {
        const seer = row.seenBy;
        it(`shows the target to ${seer}`, async () => {
          const w = world();
          const target = row.fresh
            ? await row.setup?.(w, 'owner')
            : await (shared ??= Promise.resolve(row.setup?.(w, 'owner')));
          const res = await row.call(
            seer === 'cordelia' ? w.cordelia : w.as[seer],
            target,
            w,
            'owner',
          );
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(row.reveals!(res.body, target, w)).toBe(true);
        });
      }
      for (const actor of actors) {
        it(actor, async () => {
          const w = world();
          const target = row.fresh
            ? await row.setup?.(w, actor)
            : await (shared ??= Promise.resolve(row.setup?.(w, actor)));
          const client = row.freshActor ? await accountLike(w, actor) : w.as[actor];
          const res = await row.call(client, target, w, actor);
          const problem = mismatch(
            want.get(actor)!,
            res,
            () => !!row.reveals?.(res.body, target, w),
          );
          expect(problem, problem ?? '').toBeNull();
        });
      }
    });
  }
}

for (const db of DATABASES) {
  describe(`authorization matrix on ${db}`, () => {
    let w: World;
    beforeAll(async () => {
      w = await buildWorld(await startTestServer({ db }));
    }, 120_000);
    afterAll(() => w?.server.close());

    describeRows(
      MATRIX.filter((r) => !r.realm),
      () => w,
    );

    describe('with spectator access off', () => {
      beforeAll(async () => {
        must(
          await w.as.owner.patch('/realm', { enable_spectator_access: 'false' }),
          'turning spectator access off',
        );
      });
      afterAll(async () => {
        must(
          await w.as.owner.patch('/realm', { enable_spectator_access: 'true' }),
          'turning spectator access on',
        );
      });
      describeRows(
        MATRIX.filter((r) => r.realm === 'spectatorsOff'),
        () => w,
      );
    });
  });
}
