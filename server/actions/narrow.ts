import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../db/index.js';
import type { DB, Realm, Stream, User } from '../db/schema.js';
import { DomainError, notLoggedIn } from '../domain/errors.js';
import { ANY_MENTION_BITS, FLAG_BITS } from '../domain/flags.js';
import { canReadStreamHistory } from './access.js';
import { dmKeyOf } from './message-records.js';

export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated: boolean;
}

export const badNarrow = (msg: string) => new DomainError(`Invalid narrow operator: ${msg}`, 'BAD_NARROW', 400);

/** Accepts both the [[op, operand]] and the [{operator, operand, negated}] forms. */
export function parseNarrow(value: unknown): NarrowTerm[] {
  if (!Array.isArray(value)) throw new DomainError('narrow is not a list', 'BAD_REQUEST', 400);
  return value.map((t): NarrowTerm => {
    let operator: unknown, operand: unknown, negated = false;
    if (Array.isArray(t) && t.length === 2) [operator, operand] = t;
    else if (t && typeof t === 'object' && !Array.isArray(t)) {
      ({ operator, operand } = t as Record<string, unknown>);
      negated = (t as Record<string, unknown>).negated === true;
    } else throw new DomainError('Invalid narrow element', 'BAD_REQUEST', 400);
    if (typeof operator !== 'string') throw new DomainError('Invalid narrow operator', 'BAD_REQUEST', 400);
    if (operator.startsWith('-')) {
      negated = !negated;
      operator = operator.slice(1);
    }
    const ok = typeof operand === 'string' || (typeof operand === 'number' && Number.isSafeInteger(operand)) ||
      (Array.isArray(operand) && operand.every((x) => typeof x === 'number' && Number.isSafeInteger(x)));
    if (!ok) throw new DomainError(`Invalid narrow operand for ${operator}`, 'BAD_REQUEST', 400);
    return { operator: operator as string, operand: operand as NarrowTerm['operand'], negated };
  });
}

type EB = ExpressionBuilder<DB & { m: DB['messages']; um: DB['user_messages'] }, 'm' | 'um'>;
type Cond = (eb: EB) => Expression<SqlBool>;

export interface NarrowPlan {
  /** the single stream whose history is read directly, without the user's message rows */
  historyStream: Stream | null;
  /** all public channels ("channels:public") or all web-public ones ("channels:web-public") */
  publicStreamIds: number[] | null;
  conditions: Cond[];
  /** the narrow names a search (the client may highlight) */
  isSearch: boolean;
}

interface Lookup {
  realm: Realm;
  user: User | null;
  streams: Stream[];
  subscribed: Set<number>;
  usersByEmail: Map<string, number>;
  userIds: Set<number>;
}

export async function narrowLookup(db: Database, realm: Realm, user: User | null): Promise<Lookup> {
  const streams = await db.selectFrom('streams').selectAll().where('realm_id', '=', realm.id).execute();
  const subscribed = user
    ? new Set((await db.selectFrom('subscriptions').select('stream_id').where('user_id', '=', user.id).where('active', '=', 1).execute()).map((r) => r.stream_id))
    : new Set<number>();
  const users = await db.selectFrom('users').select(['id', 'email']).where('realm_id', '=', realm.id).execute();
  return {
    realm, user, streams, subscribed,
    usersByEmail: new Map(users.map((u) => [u.email, u.id])),
    userIds: new Set(users.map((u) => u.id)),
  };
}

function userIdOf(lookup: Lookup, operand: string | number): number {
  if (typeof operand === 'number') {
    if (!lookup.userIds.has(operand)) throw badNarrow('unknown user');
    return operand;
  }
  const s = operand.trim().toLowerCase();
  if (s === 'me' && lookup.user) return lookup.user.id;
  if (/^\d+$/.test(s) && lookup.userIds.has(Number(s))) return Number(s);
  const id = lookup.usersByEmail.get(s);
  if (id === undefined) throw badNarrow('unknown user ' + operand);
  return id;
}

function userListOf(lookup: Lookup, operand: NarrowTerm['operand']): number[] {
  if (Array.isArray(operand)) return operand.map((x) => userIdOf(lookup, x));
  if (typeof operand === 'number') return [userIdOf(lookup, operand)];
  return operand.split(',').filter((s) => s.trim()).map((x) => userIdOf(lookup, x));
}

function findNarrowStream(lookup: Lookup, operand: NarrowTerm['operand']): Stream | undefined {
  if (Array.isArray(operand)) throw badNarrow('channel');
  const text = String(operand).trim();
  return lookup.streams.find((x) => String(x.id) === text) ??
    lookup.streams.find((x) => x.name.toLowerCase() === text.toLowerCase());
}

/**
 * The channel a narrow names. It is found even when the user may not read it (nor ever see it,
 * for a private channel): the narrow then matches only the messages the user received, as
 * upstream does, so that one keeps what one was sent after leaving. Spectators find only
 * web-public channels.
 */
function streamOf(lookup: Lookup, operand: NarrowTerm['operand']): Stream {
  const s = findNarrowStream(lookup, operand);
  if (!s) throw badNarrow('unknown channel');
  if (lookup.user === null && !s.is_web_public) throw badNarrow('unknown web-public channel');
  return s;
}

const SPECTATOR_OPERATORS = new Set(['stream', 'channel', 'streams', 'channels', 'topic', 'subject', 'sender', 'has', 'search', 'near', 'id']);
const isWebPublicTerm = (t: NarrowTerm) => ['streams', 'channels'].includes(t.operator) && t.operand === 'web-public' && !t.negated;

/**
 * Spectators read web-public channels only: a narrow that could mean anything else (direct
 * messages, flags, no channel at all) asks for an account, 401 as upstream's
 * MissingAuthenticationError. Upstream wants "channels:web-public" in every anonymous narrow; a
 * narrow to one web-public channel is accepted too, which is what our web client sends.
 */
export function checkSpectatorNarrow(terms: NarrowTerm[], lookup: Lookup) {
  if (terms.some((t) => !SPECTATOR_OPERATORS.has(t.operator))) throw notLoggedIn();
  if (terms.some(isWebPublicTerm)) return;
  const namesWebPublic = (t: NarrowTerm) =>
    ['stream', 'channel'].includes(t.operator) && !t.negated && !!findNarrowStream(lookup, t.operand)?.is_web_public;
  if (!terms.some(namesWebPublic)) throw notLoggedIn();
}

const like = (value: string) => `%${value.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
/** `column LIKE pattern` with the backslash as the escape character on every database. */
const likeEscaped = (column: ReturnType<typeof sql<string>>, pattern: string) => sql<boolean>`${column} like ${pattern} escape '\\'`;

/** Turns a narrow into SQL conditions, deciding how the user's access is checked. */
export function planNarrow(terms: NarrowTerm[], lookup: Lookup): NarrowPlan {
  const plan: NarrowPlan = { historyStream: null, publicStreamIds: null, conditions: [], isSearch: false };
  const me = lookup.user?.id ?? -1;
  for (const term of terms) {
    let cond: Cond | null = null;
    const operand = term.operand;
    switch (term.operator) {
      case 'stream':
      case 'channel': {
        const s = streamOf(lookup, operand);
        if (!term.negated && canReadStreamHistory(lookup.user, s, lookup.subscribed.has(s.id))) plan.historyStream = s;
        cond = (eb) => eb('m.stream_id', '=', s.id);
        break;
      }
      case 'streams':
      case 'channels': {
        if (operand !== 'public' && operand !== 'web-public') throw badNarrow('channels');
        const wanted = (s: Stream) => (operand === 'public' ? !s.invite_only : !!s.is_web_public);
        const ids = lookup.streams.filter((s) => wanted(s) && !s.deactivated && canReadStreamHistory(lookup.user, s, lookup.subscribed.has(s.id))).map((s) => s.id);
        if (!term.negated) plan.publicStreamIds = ids;
        cond = (eb) => eb('m.stream_id', 'in', ids.length ? ids : [-1]);
        break;
      }
      case 'topic':
      case 'subject': {
        const topic = String(operand).toLowerCase();
        cond = (eb) => eb.and([eb('m.type', '=', 'stream'), eb('m.topic_key', '=', topic)]);
        break;
      }
      case 'is':
        cond = isCondition(String(operand));
        break;
      case 'dm':
      case 'pm-with': {
        const ids = userListOf(lookup, operand);
        const key = dmKeyOf([...ids, me]);
        cond = (eb) => eb('m.dm_key', '=', key);
        break;
      }
      case 'dm-including':
      case 'group-pm-with': {
        const [id] = userListOf(lookup, operand);
        const pattern = `%,${id},%`;
        cond = (eb) => eb.and([eb('m.type', '=', 'private'), eb(sql<string>`',' || m.dm_key || ','`, 'like', pattern)]);
        break;
      }
      case 'sender': {
        const id = userIdOf(lookup, operand as string | number);
        cond = (eb) => eb('m.sender_id', '=', id);
        break;
      }
      case 'id': {
        const id = Number(operand);
        if (!Number.isSafeInteger(id)) throw badNarrow('id');
        cond = (eb) => eb('m.id', '=', id);
        break;
      }
      case 'search': {
        plan.isSearch = true;
        const words = String(operand).toLowerCase().split(/\s+/).filter(Boolean);
        cond = (eb) =>
          eb.and(words.map((w) => eb.or([
            likeEscaped(sql<string>`lower(m.content)`, like(w)),
            likeEscaped(sql<string>`lower(m.topic)`, like(w)),
          ])));
        break;
      }
      case 'has': {
        const needle = { link: '<a ', image: 'message_inline_image', attachment: '/user_uploads/', reaction: '\u0000never' }[String(operand)];
        if (!needle) throw badNarrow('has');
        cond = () => likeEscaped(sql<string>`m.rendered_content`, like(needle));
        break;
      }
      case 'near':
        continue;
      default:
        throw badNarrow(term.operator);
    }
    const c = cond;
    plan.conditions.push(term.negated ? (eb) => eb.not(c(eb)) : c);
  }
  return plan;
}

function flagSet(bits: number): Cond {
  return (eb) => eb(sql<number>`coalesce(um.flags, ${FLAG_BITS.historical | FLAG_BITS.read}) & ${bits}`, '!=', 0);
}

function isCondition(operand: string): Cond {
  switch (operand) {
    case 'dm':
    case 'private':
      return (eb) => eb('m.type', '=', 'private');
    case 'starred':
      return flagSet(FLAG_BITS.starred);
    case 'mentioned':
      return flagSet(ANY_MENTION_BITS);
    case 'alerted':
      return flagSet(FLAG_BITS.has_alert_word);
    case 'unread':
      return (eb) => eb(sql<number>`coalesce(um.flags, ${FLAG_BITS.read}) & ${FLAG_BITS.read}`, '=', 0);
    case 'resolved':
      return (eb) => eb('m.topic', 'like', '✔ %');
    default:
      throw badNarrow('is:' + operand);
  }
}
