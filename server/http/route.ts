import type { OutgoingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { DomainError, notLoggedIn, realmDeactivated } from '../domain/errors.js';
import { authenticate, realmForRequest } from './auth.js';
import { realmSettings } from '../lib/realm.js';
import { isGuest } from '../domain/roles.js';
import { parseParams, type ParamSpec, type Parsed } from './params.js';
import { MAX_FIELDS, tooManyFields, type RawParams } from './body.js';
import { checkRateLimit } from './rate-limit.js';
import { RawJson } from '../domain/raw-json.js';
import { COMPRESS_THRESHOLD } from './compression.js';
import { SECURITY_HEADERS, acceptedEncodings } from './static.js';
import { deflatePiece, gzipOfPieces } from '../domain/deflate-pieces.js';
import { clientGone } from './client-gone.js';
import type { ClientGone } from '../events/types.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

export interface RouteDef<S extends ParamSpec, A extends AuthMode> {
  method: Method;
  /** under /api/v1, fastify syntax: '/messages/:message_id' */
  path: string;
  /** 'required' (default), 'optional' (spectators allowed) or 'none' */
  auth?: A;
  params: S;
  /** legacy names: { subject: 'topic' } */
  aliases?: Record<string, string>;
  /** path segments that must be integers (others are strings) */
  pathInts?: string[];
  /**
   * Who besides the authentication may call it, decided here for the whole route as upstream's
   * view decorators do: 'humans' refuses bots (`human_users_only`), 'members' refuses bots and
   * guests (`require_member_or_admin` with `human_users_only`).
   */
  callers?: 'humans' | 'members';
  /**
   * The request names an event queue (`queue_id`) that may vouch for its credentials: GET /events,
   * so that a long-poll repeating the headers its queue verified reads nothing from the database.
   */
  queueAuth?: boolean;
  /**
   * Answers below the compression threshold are written straight to the socket, with the
   * headers Fastify's hooks would add, instead of through Fastify's reply: when an event goes
   * out, thousands of parked long-polls (GET /events) are answered at once, and that path is
   * most of their cost.
   */
  directAnswer?: boolean;
}

export type AuthMode = 'required' | 'optional' | 'none';

/** What each file of routes (server/routes/) is registered with as a Fastify plugin. */
export interface RoutesOptions {
  ctx: AppContext;
}

export interface ApiRequest<S extends ParamSpec, A extends AuthMode> {
  ctx: AppContext;
  realm: Realm;
  user: A extends 'required' ? User : User | null;
  params: Parsed<S>;
  path: Record<string, string>;
  pathInt(name: string): number;
  /** the client going away before its answer (long-polls watch it) */
  gone: ClientGone;
  userAgent: string;
  raw: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<S extends ParamSpec, A extends AuthMode> = (
  req: ApiRequest<S, A>,
) => Promise<Record<string, unknown> | void>;

/**
 * Every method registered per path pattern, for 405 answers; `path` and `auth` as declared, so the
 * authorization matrix test can name each route (absent where a caller rewrote the pattern).
 */
export const knownRoutes: { method: Method; pattern: RegExp; path?: string; auth?: AuthMode }[] =
  [];

const PATH_INT = /^\d{1,15}$/;
/** ids are 32-bit integer columns: a larger one names no row, like an unknown id */
const MAX_ID = 2147483647;

/** The queue id, `Authorization` and `Host` of a request that names a queue with credentials. */
function credentialsForQueue(request: FastifyRequest): [string, string, string] | null {
  const queueId = (request.query as Record<string, unknown> | undefined)?.queue_id;
  const { authorization, host } = request.headers;
  if (typeof queueId !== 'string' || !authorization) return null;
  return [queueId, authorization, host ?? ''];
}

function checkCaller(user: User, callers: 'humans' | 'members') {
  if (user.is_bot)
    throw new DomainError('This endpoint does not accept bot requests.', 'BAD_REQUEST', 400);
  if (callers === 'members' && isGuest(user))
    throw new DomainError('Not allowed for guest users', 'BAD_REQUEST', 400);
}

/** Who calls a route: settled in its onRequest hook, before the body is read. */
interface Caller {
  realm: Realm;
  user: User | null;
}
const callers = new WeakMap<FastifyRequest, Caller>();

/** Query-string parameters, repeated names counted once per value. */
function queryCount(query: unknown): number {
  let n = 0;
  for (const v of Object.values((query ?? {}) as Record<string, unknown>))
    n += Array.isArray(v) ? v.length : 1;
  return n;
}

/** What `ignored_parameters_unsupported` echoes: a hundred names, each cut to a hundred characters. */
const MAX_ECHOED = 100;
function echoed(names: string[]): string[] {
  return names
    .slice(0, MAX_ECHOED)
    .map((n) => (n.length > MAX_ECHOED ? `${n.slice(0, MAX_ECHOED)}\u2026` : n));
}

/**
 * Everything a request is judged on before its body is read (the path, the query string, the
 * credentials in its headers, the caller's kind and rate limit), so that a request refused for
 * any of them costs no parsing: Fastify runs this in onRequest, before the content-type parsers.
 * Routes that take their credentials from the body (`auth: 'none'`, as POST /fetch_api_key) are
 * limited by address here and check those credentials in their handler, after parsing.
 */
async function admit<S extends ParamSpec, A extends AuthMode>(
  ctx: AppContext,
  def: RouteDef<S, A>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Caller> {
  const pathParams = (request.params ?? {}) as Record<string, string>;
  for (const name of def.pathInts ?? []) {
    if (!PATH_INT.test(pathParams[name] ?? ''))
      throw new DomainError('Not Found', 'NOT_FOUND', 404);
  }
  for (const [name, value] of Object.entries(pathParams))
    if (value.includes('\u0000'))
      throw new DomainError(`${name} contains NUL characters`, 'BAD_REQUEST', 400);
  if (queryCount(request.query) > MAX_FIELDS) throw tooManyFields();
  const mode = def.auth ?? 'required';
  const queueCredentials = def.queueAuth ? credentialsForQueue(request) : null;
  const vouched = queueCredentials && ctx.queues.authenticateByQueue(...queueCredentials);
  let realm: Realm;
  let user: User | null = null;
  if (vouched) ({ realm, user } = vouched);
  else {
    const revocations = ctx.queues.revocationCount;
    realm = await realmForRequest(ctx, request);
    if (mode !== 'none') {
      const auth = await authenticate(ctx, request, realm);
      if (!auth && mode === 'required') {
        reply.header('WWW-Authenticate', 'Basic realm="zulip"');
        throw new DomainError("Missing 'Authorization' header.", 'UNAUTHORIZED', 401);
      }
      user = auth?.user ?? null;
      if (!user && realm.deactivated) throw realmDeactivated();
      // The one gate for spectators: with spectator access off, every anonymous request to an
      // endpoint that spectators may otherwise use is answered as upstream answers it.
      if (!user && mode === 'optional' && !realmSettings(realm).enable_spectator_access)
        throw notLoggedIn();
    }
    if (user && queueCredentials) {
      const [queueId, authorization, host] = queueCredentials;
      ctx.queues.rememberCredentials(queueId, { authorization, host, realm, user }, revocations);
    }
  }
  if (user && def.callers) checkCaller(user, def.callers);
  await checkRateLimit(ctx, reply, user ? `user:${user.id}` : `ip:${request.ip}`);
  return { realm, user };
}

export function route<S extends ParamSpec, A extends AuthMode = 'required'>(
  app: FastifyInstance,
  ctx: AppContext,
  def: RouteDef<S, A>,
  handler: Handler<S, A>,
) {
  const url = `/api/v1${def.path}`;
  knownRoutes.push({
    method: def.method,
    pattern: new RegExp('^' + url.replace(/:[a-z_]+/g, '[^/]+') + '/?$'),
    path: def.path,
    auth: def.auth ?? 'required',
  });
  app.route({
    method: def.method,
    url,
    onRequest: async (request, reply) => {
      callers.set(request, await admit(ctx, def, request, reply));
    },
    handler: async (request, reply) => {
      const { realm, user } = callers.get(request)!;
      const pathParams = (request.params ?? {}) as Record<string, string>;
      const raw: RawParams = {
        ...((request.query ?? {}) as RawParams),
        ...(def.method === 'GET' ? {} : ((request.body ?? {}) as RawParams)),
      };
      for (const [k, v] of Object.entries(raw))
        if (Array.isArray(v)) raw[k] = String(v[v.length - 1]);
      const { params, ignored } = parseParams(def.params, raw, def.aliases);

      const result =
        (await handler({
          ctx,
          realm,
          user: user as ApiRequest<S, A>['user'],
          params,
          path: pathParams,
          pathInt: (name) => (Number(pathParams[name]) > MAX_ID ? -1 : Number(pathParams[name])),
          gone: clientGone(reply.raw),
          userAgent: String(request.headers['user-agent'] ?? ''),
          raw: request,
          reply,
        })) ?? {};
      const body: Record<string, unknown> = { result: 'success', msg: '', ...result };
      if (ignored.length) body.ignored_parameters_unsupported = echoed(ignored);
      if (def.directAnswer) return answerDirectly(body, reply);
      return withRawJson(body, reply);
    },
  });
}

/**
 * A body with parts already serialized (RawJson: the people of a large organization at
 * /register) is written as bytes with those parts copied in; any other body is left to Fastify.
 * When a part is kept compressed too and the client takes gzip, the answer is a gzip of pieces
 * (domain/deflate-pieces.ts): only the rest of the body is compressed for this answer.
 */
async function withRawJson(body: Record<string, unknown>, reply: FastifyReply) {
  if (!Object.values(body).some((v) => v instanceof RawJson)) return body;
  const texts: Buffer[] = [];
  /** the part each text is, where it is one kept serialized */
  const kept: (RawJson | null)[] = [];
  let text = '{';
  let first = true;
  for (const [key, value] of Object.entries(body)) {
    const json = value instanceof RawJson ? null : JSON.stringify(value);
    if (json === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (json !== null) {
      text += json;
      continue;
    }
    texts.push(Buffer.from(text, 'utf8'), (value as RawJson).bytes());
    kept.push(null, value as RawJson);
    text = '';
  }
  texts.push(Buffer.from(`${text}}`, 'utf8'));
  kept.push(null);
  reply.type(JSON_TYPE);
  const length = texts.reduce((n, c) => n + c.length, 0);
  const chunks =
    length >= COMPRESS_THRESHOLD && kept.some((k) => k?.deflated) && takesGzip(reply.request)
      ? await gzipWithKeptPieces(texts, kept, reply)
      : texts;
  const size = chunks.reduce((n, c) => n + c.length, 0);
  // Megabytes (the people of a large organization at /register) go out piece by piece rather
  // than copied into one more buffer for every response.
  if (size < STREAM_FROM) return Buffer.concat(chunks, size);
  reply.header('content-length', size);
  return Readable.from(chunks, { objectMode: false });
}

/** Gzip is the encoding every client of the API takes; brotli-only clients go the usual way. */
function takesGzip(request: FastifyRequest): boolean {
  return (
    request.headers['x-no-compression'] === undefined &&
    acceptedEncodings(request.headers['accept-encoding'])('gzip')
  );
}

/** Text compressed for one answer is cut this small, so that the thread pool shares it out. */
const TEXT_PIECE = 256 * 1024;

async function gzipWithKeptPieces(texts: Buffer[], kept: (RawJson | null)[], reply: FastifyReply) {
  const pieces = await Promise.all(
    texts.map((text, i) => {
      const deflated = kept[i]?.deflated;
      if (deflated) return deflated();
      const cuts: Buffer[] = [];
      for (let at = 0; at < text.length || at === 0; at += TEXT_PIECE)
        cuts.push(text.subarray(at, at + TEXT_PIECE));
      return Promise.all(cuts.map(deflatePiece));
    }),
  );
  reply.header('content-encoding', 'gzip');
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  return gzipOfPieces(texts, pieces);
}

const STREAM_FROM = 1 << 20;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A small answer written to the socket without Fastify's reply path (RouteDef.directAnswer): the
 * same status, body and headers (security headers, rate limits), none of the hooks. Larger ones
 * go the usual way, to be compressed.
 */
async function answerDirectly(body: Record<string, unknown>, reply: FastifyReply) {
  let text = '';
  for (const key in body) {
    const value = body[key];
    const json = value instanceof RawJson ? value.json : JSON.stringify(value);
    if (json !== undefined) text += `${text ? ',' : '{'}${JSON.stringify(key)}:${json}`;
  }
  text = text ? `${text}}` : '{}';
  const length = Buffer.byteLength(text, 'utf8');
  if (length >= COMPRESS_THRESHOLD) return withRawJson(body, reply);
  reply.hijack();
  const raw = reply.raw;
  if (raw.destroyed) return;
  raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    ...SECURITY_HEADERS,
    'content-type': JSON_TYPE,
    'content-length': length,
  });
  raw.end(text, 'utf8');
}
