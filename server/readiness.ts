import type { Database } from './db/index.js';

/**
 * The demo organization at this start: `off` (PARLEY_DEMO=0, or a server started without it),
 * `running` (being seeded), `seeded`, `present` (an organization was there already), `failed`.
 */
export type SeedState = 'off' | 'running' | 'seeded' | 'present' | 'failed';

/**
 * Where a server is between its start and its stop, as GET /ready reports it. Its database is
 * open and migrated before anything listens, so `migrations` is done by then.
 */
export class Readiness {
  stopping = false;

  constructor(public seed: SeedState) {}

  /** Whether the app serves requests; until then only /health, /ready and /metrics answer. */
  get serving(): boolean {
    return this.seed !== 'running';
  }
}

/** How long /ready waits for the database before calling it unreachable. */
const DATABASE_TIMEOUT_MS = 2000;

type Check = 'ok' | 'running' | 'failed' | 'unreachable' | 'not checked' | 'off' | 'present';

export interface ReadinessReport {
  ready: boolean;
  body: {
    status: 'ready' | 'starting' | 'stopping' | 'unavailable';
    checks: Record<string, Check>;
  };
}

/**
 * Ready: migrations done, the seed (when asked for) done, and the database answering a real
 * query now. While the seed runs, its transaction holds SQLite's one connection: the database is
 * not queried then (the query would wait for the seed's commit).
 */
export async function readinessReport(
  ctx: { db: Database; log: { warn(...args: any[]): void } },
  readiness: Readiness,
): Promise<ReadinessReport> {
  const seed: Check = readiness.seed === 'seeded' ? 'ok' : readiness.seed;
  const checks: Record<string, Check> = { migrations: 'ok', seed, database: 'not checked' };
  if (readiness.stopping) return { ready: false, body: { status: 'stopping', checks } };
  if (seed === 'running') return { ready: false, body: { status: 'starting', checks } };
  checks.database = (await databaseAnswers(ctx)) ? 'ok' : 'unreachable';
  const ready = checks.database === 'ok' && seed !== 'failed';
  return { ready, body: { status: ready ? 'ready' : 'unavailable', checks } };
}

async function databaseAnswers(ctx: Parameters<typeof readinessReport>[0]): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const query = ctx.db.selectFrom('realms').select('id').limit(1).execute();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS} ms`)),
        DATABASE_TIMEOUT_MS,
      );
    });
    await Promise.race([query, timeout]);
    return true;
  } catch (err) {
    ctx.log.warn({ err }, 'Readiness check: the database did not answer');
    return false;
  } finally {
    clearTimeout(timer);
  }
}
