import type { Dialect } from '../db/migrations.js';
import { DomainError, notLoggedIn } from '../domain/errors.js';
import {
  badNarrow,
  findStream,
  type Lookup,
  type NarrowPlan,
  type NarrowTerm,
  type OperatorDef,
} from './narrow-base.js';
import type { QueueNarrow } from '../domain/message-facts.js';
import { CONTENT_OPERATORS } from './narrow-content.js';
import { CONVERSATION_OPERATORS } from './narrow-conversation.js';

export { badNarrow, narrowLookup, type NarrowPlan, type NarrowTerm } from './narrow-base.js';

/**
 * The one interpreter of narrows on the server. Each operator is defined once (narrow-*.ts) with
 * its operand's validation, its SQL condition and its in-memory test; GET /messages,
 * matches_narrow, flags/narrow and the event queues of /register all read narrows through here.
 */

/** Accepts both the [[op, operand]] and the [{operator, operand, negated}] forms. */
export function parseNarrow(value: unknown): NarrowTerm[] {
  if (!Array.isArray(value)) throw new DomainError('narrow is not a list', 'BAD_REQUEST', 400);
  return value.map((t): NarrowTerm => {
    let operator: unknown,
      operand: unknown,
      negated = false;
    if (Array.isArray(t) && t.length === 2) [operator, operand] = t;
    else if (t && typeof t === 'object' && !Array.isArray(t)) {
      ({ operator, operand } = t as Record<string, unknown>);
      negated = (t as Record<string, unknown>).negated === true;
    } else throw new DomainError('Invalid narrow element', 'BAD_REQUEST', 400);
    if (typeof operator !== 'string')
      throw new DomainError('Invalid narrow operator', 'BAD_REQUEST', 400);
    if (operator.startsWith('-')) {
      negated = !negated;
      operator = operator.slice(1);
    }
    const ok =
      typeof operand === 'string' ||
      (typeof operand === 'number' && Number.isSafeInteger(operand)) ||
      (Array.isArray(operand) &&
        operand.every((x) => typeof x === 'number' && Number.isSafeInteger(x)));
    if (!ok) throw new DomainError(`Invalid narrow operand for ${operator}`, 'BAD_REQUEST', 400);
    return { operator: operator as string, operand: operand as NarrowTerm['operand'], negated };
  });
}

const OPERATORS = new Map<string, OperatorDef<unknown>>();
for (const def of [...CONVERSATION_OPERATORS, ...CONTENT_OPERATORS])
  for (const name of def.names) OPERATORS.set(name, def);

interface ResolvedTerm {
  term: NarrowTerm;
  def: OperatorDef<unknown>;
  resolved: unknown;
}

/** Validates every term against the realm; the first unknown operator or operand refuses the narrow. */
function resolveNarrow(terms: NarrowTerm[], lookup: Lookup): ResolvedTerm[] {
  return terms.map((term) => {
    const def = OPERATORS.get(term.operator);
    if (!def) throw badNarrow(`unknown operator ${term.operator}`);
    return { term, def, resolved: def.resolve(term.operand, lookup) };
  });
}

const isWebPublicTerm = (t: NarrowTerm) =>
  ['streams', 'channels'].includes(t.operator) && t.operand === 'web-public' && !t.negated;

/**
 * Spectators read web-public channels only: a narrow that could mean anything else (direct
 * messages, flags, no channel at all) asks for an account, 401 as upstream's
 * MissingAuthenticationError. Upstream wants "channels:web-public" in every anonymous narrow; a
 * narrow to one web-public channel is accepted too, which is what our web client sends.
 */
export function checkSpectatorNarrow(terms: NarrowTerm[], lookup: Lookup) {
  if (terms.some((t) => !OPERATORS.get(t.operator)?.spectators)) throw notLoggedIn();
  if (terms.some(isWebPublicTerm)) return;
  const namesWebPublic = (t: NarrowTerm) =>
    ['stream', 'channel'].includes(t.operator) &&
    !t.negated &&
    !!findStream(lookup, t.operand)?.is_web_public;
  if (!terms.some(namesWebPublic)) throw notLoggedIn();
}

/** Turns a narrow into SQL conditions, deciding how the user's access is checked. */
export function planNarrow(terms: NarrowTerm[], lookup: Lookup, dialect: Dialect): NarrowPlan {
  const plan: NarrowPlan = {
    historyStream: null,
    publicStreamIds: null,
    conditions: [],
    searchWords: [],
    searches: [],
  };
  for (const { term, def, resolved } of resolveNarrow(terms, lookup)) {
    if (!term.negated) def.plan?.(resolved, plan, lookup);
    const cond = def.sql(resolved, lookup, dialect);
    if (cond) plan.conditions.push(term.negated ? (eb) => eb.not(cond(eb)) : cond);
  }
  return plan;
}

/**
 * The narrow of a queue /register creates. A term the queue cannot decide exactly from the
 * message it delivers is refused, never let through.
 */
export function queueNarrow(terms: NarrowTerm[], lookup: Lookup): QueueNarrow {
  return resolveNarrow(terms, lookup).map(({ term, def, resolved }) => {
    const test = def.memory(resolved);
    if (!test)
      throw badNarrow(`${term.operator}:${String(term.operand)} is not supported in event queues`);
    return term.negated ? (m) => !test(m) : test;
  });
}

/** Spectators get no queue; their narrow is still refused when it names an unknown operator. */
export function checkKnownOperators(terms: NarrowTerm[]) {
  for (const t of terms)
    if (!OPERATORS.has(t.operator)) throw badNarrow(`unknown operator ${t.operator}`);
}
