import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/index.js';
import { allRealmStreams } from '../db/realm-streams.js';
import type { Dialect } from '../db/migrations.js';
import type { SearchReading } from '../db/search.js';
import type { DB, Realm, Stream, User } from '../db/schema.js';
import { DomainError } from '../domain/errors.js';
import type { MessageTest } from '../domain/message-facts.js';
import type { SearchQuery } from '../domain/search-text.js';

/**
 * What every narrow operator is made of (narrow.ts assembles them): the realm facts operands are
 * resolved against, the SQL condition type, and the facts of a message being delivered that an
 * event queue tests in memory.
 */

export type Operand = string | number | number[];

export interface NarrowTerm {
  operator: string;
  operand: Operand;
  negated: boolean;
}

/** Upstream's BadNarrowOperatorError: the envelope carries `desc` besides the message. */
export const badNarrow = (desc: string) =>
  new DomainError(`Invalid narrow operator: ${desc}`, 'BAD_NARROW', 400, { desc });

export type EB = ExpressionBuilder<DB & { m: DB['messages']; um: DB['user_messages'] }, 'm' | 'um'>;
/** A condition on the message `m` and the reader's row `um` (null columns for history not received). */
export type Cond = (eb: EB) => Expression<SqlBool>;

export const matchesNothing: Cond = () => sql<SqlBool>`1 = 0`;

export interface NarrowPlan {
  /** the single stream whose history is read directly, without the user's message rows */
  historyStream: Stream | null;
  /** all public channels ("channels:public") or all web-public ones ("channels:web-public") */
  publicStreamIds: number[] | null;
  conditions: Cond[];
  /** the words of the narrow's searches, not negated: what match_content highlights */
  searchWords: string[];
  /** the narrow's searches, not negated, for the way get-messages reads their matches */
  searches: SearchTerm[];
}

/** A search term as planned: its query, and how SQLite reads its matches (db/search.ts). */
export interface SearchTerm {
  query: SearchQuery;
  reading: SearchReading;
}

/** The realm as the narrow's operands are resolved against it, read once per request. */
export interface Lookup {
  realm: Realm;
  user: User | null;
  streams: Stream[];
  subscribed: Set<number>;
  usersByEmail: Map<string, number>;
  userIds: Set<number>;
}

/**
 * With `terms`, only the people the operands may name are read (ids and addresses found in them),
 * not every person of the organization: findUser answers the same for those operands.
 */
export async function narrowLookup(
  db: Database,
  realm: Realm,
  user: User | null,
  terms?: NarrowTerm[],
): Promise<Lookup> {
  const streams = await allRealmStreams(db, realm.id);
  const subscribed = user
    ? new Set(
        (
          await db
            .selectFrom('subscriptions')
            .select('stream_id')
            .where('user_id', '=', user.id)
            .where('active', '=', 1)
            .execute()
        ).map((r) => r.stream_id),
      )
    : new Set<number>();
  const named = terms ? namedUsers(terms) : null;
  const users =
    named && !named.ids.length && !named.emails.length
      ? []
      : await db
          .selectFrom('users')
          .select(['id', 'email'])
          .where('realm_id', '=', realm.id)
          .$if(named !== null, (q) =>
            q.where((eb) =>
              eb.or([
                eb('id', 'in', named!.ids.length ? named!.ids : [-1]),
                eb('email', 'in', named!.emails.length ? named!.emails : ['']),
              ]),
            ),
          )
          .execute();
  return {
    realm,
    user,
    streams,
    subscribed,
    usersByEmail: new Map(users.map((u) => [u.email, u.id])),
    userIds: new Set(users.map((u) => u.id)),
  };
}

/** Every id and address an operand could name a person by, as findUser reads them. */
function namedUsers(terms: NarrowTerm[]) {
  const ids = new Set<number>();
  const emails = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'number') {
      if (Number.isSafeInteger(value) && Math.abs(value) <= 2147483647) ids.add(value);
    } else if (typeof value === 'string') {
      for (const part of [value, ...value.split(',')]) {
        const s = part.trim().toLowerCase();
        if (/^\d{1,10}$/.test(s) && Number(s) <= 2147483647) ids.add(Number(s));
        if (s) emails.add(s);
      }
    }
  };
  for (const t of terms) (Array.isArray(t.operand) ? t.operand : [t.operand]).forEach(add);
  return { ids: [...ids], emails: [...emails] };
}

/** A user named by id, by email or as "me"; undefined when the realm has no such user. */
export function findUser(lookup: Lookup, operand: string | number): number | undefined {
  if (typeof operand === 'number') return lookup.userIds.has(operand) ? operand : undefined;
  const s = operand.trim().toLowerCase();
  if (s === 'me' && lookup.user) return lookup.user.id;
  if (/^\d+$/.test(s) && lookup.userIds.has(Number(s))) return Number(s);
  return lookup.usersByEmail.get(s);
}

/** A channel named by id or by name, whether or not the user may read it. */
export function findStream(lookup: Lookup, operand: Operand): Stream | undefined {
  if (Array.isArray(operand)) return undefined;
  const text = String(operand).trim();
  return (
    lookup.streams.find((x) => String(x.id) === text) ??
    lookup.streams.find((x) => x.name.toLowerCase() === text.toLowerCase())
  );
}

/** An operand that must be a single string (an `is`, `has` or `channels` operand, a search). */
export function textOperand(operand: Operand, what: string): string {
  if (typeof operand !== 'string') throw badNarrow(`${what} operand must be a string`);
  return operand;
}

/**
 * One narrow operator, defined once for every entry point: what its operand may be and names,
 * the SQL condition (GET /messages, matches_narrow, flags/narrow) and the in-memory test (event
 * queues). Both sides must agree on every message, negated too: a negation is NOT of the same
 * condition, so conditions are written to be false, never NULL, on rows they do not concern.
 */
export interface OperatorDef<R> {
  /** the names a narrow may use, the current one first */
  names: readonly string[];
  /** spectators may use it (upstream is_spectator_compatible) */
  spectators?: boolean;
  /** validates the operand and resolves what it names; refuses with BAD_NARROW */
  resolve(operand: Operand, lookup: Lookup): R;
  /** the SQL condition; null: the term filters nothing (near) */
  sql(resolved: R, lookup: Lookup, dialect: Dialect): Cond | null;
  /** how a term, not negated, chooses which messages are read: a channel's history, say */
  plan?(resolved: R, plan: NarrowPlan, lookup: Lookup): void;
  /**
   * The same test on a message an event queue delivers, or null when the queue cannot decide it
   * exactly from that message and the reader's flags at delivery: /register refuses those, as
   * upstream refuses narrows it cannot apply to events, rather than let everything through.
   */
  memory(resolved: R): MessageTest | null;
}

/** Keeps each definition's operand type while they share one table. */
export const defineOperator = <R>(def: OperatorDef<R>): OperatorDef<unknown> =>
  def as OperatorDef<unknown>;
