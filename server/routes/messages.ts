import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { check, p } from '../http/params.js';
import { badRequest, missingParam } from '../domain/errors.js';
import { parseClientJson } from '../domain/client-json.js';
import { sendMessage, type Recipient } from '../actions/send-message.js';
import { getMessages, getSingleMessage } from '../lib/get-messages.js';
import { parseNarrow } from '../lib/narrow.js';
import { updateMessageFlags } from '../actions/flags.js';

/** Whether a text can be JSON at all: a channel name or an email is not worth an exception. */
const MAY_BE_JSON = /^\s*(?:[[{"\-\d]|true\b|false\b|null\b)/;

function tryJson(raw: string): unknown {
  if (!MAY_BE_JSON.test(raw)) return undefined;
  try {
    return parseClientJson(raw);
  } catch {
    return undefined;
  }
}

/** `to` is a stream name or id, or a list of user ids or emails, in several historical encodings. */
export function parseRecipient(type: string, to: string, topic: string | undefined): Recipient {
  const decoded = tryJson(to);
  if (type === 'stream') {
    if (topic === undefined) throw missingParam('topic');
    let ref: unknown = decoded === undefined ? to : decoded;
    if (Array.isArray(ref)) {
      if (ref.length !== 1) throw badRequest('Cannot send to multiple channels');
      ref = ref[0];
    }
    if (typeof ref === 'number' && Number.isSafeInteger(ref))
      return { type: 'stream', streamId: ref, topic };
    if (typeof ref === 'string')
      return { type: 'stream', streamName: decoded === undefined ? to : ref, topic };
    return { type: 'stream', streamName: to, topic };
  }
  let list: unknown[];
  if (Array.isArray(decoded)) list = decoded;
  else if (typeof decoded === 'number') list = [decoded];
  else
    list = (typeof decoded === 'string' ? decoded : to)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (list.every((x) => typeof x === 'number' && Number.isSafeInteger(x)))
    return { type: 'direct', userIds: list as number[] };
  if (list.every((x) => typeof x === 'string')) return { type: 'direct', emails: list as string[] };
  throw badRequest('Invalid data type for recipients');
}

const anchorParam = p.raw().default('newest');

/** Clients echo the 10000000000000000 that stands for "newest"; any larger number means the same. */
export function parseAnchor(raw: string): 'newest' | 'oldest' | 'first_unread' | number {
  if (raw === 'newest' || raw === 'oldest' || raw === 'first_unread') return raw;
  const text = raw.trim();
  if (!/^-?\d+$/.test(text)) throw badRequest('Invalid anchor');
  const n = Number(text);
  if (!Number.isSafeInteger(n)) return n > 0 ? Number.MAX_SAFE_INTEGER : 0;
  return Math.max(0, n);
}

export function messageRoutes(app: FastifyInstance, ctx: AppContext) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/messages',
      aliases: { subject: 'topic' },
      params: {
        type: p.oneOf(['stream', 'channel', 'direct', 'private'] as const),
        to: p.string(),
        content: p.string(),
        topic: p.string().optional(),
        queue_id: p.string().optional(),
        local_id: p.string().optional(),
        read_by_sender: p.bool().optional(),
      },
    },
    async ({ realm, user, params, userAgent }) => {
      const type = params.type === 'stream' || params.type === 'channel' ? 'stream' : 'direct';
      if (params.queue_id !== undefined && params.local_id === undefined)
        throw missingParam('local_id');
      return sendMessage(ctx, realm, user, {
        recipient: parseRecipient(type, params.to, params.topic),
        content: params.content,
        client: clientName(userAgent),
        queueId: params.queue_id,
        localId: params.local_id,
      });
    },
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/messages',
      auth: 'optional',
      params: {
        anchor: anchorParam,
        num_before: p.int({ min: 0 }).default(0),
        num_after: p.int({ min: 0 }).default(0),
        include_anchor: p.bool().default(true),
        narrow: p.json(check.any).default([]),
        client_gravatar: p.bool().default(true),
        apply_markdown: p.bool().default(true),
        use_first_unread_anchor: p.bool().default(false),
      },
    },
    async ({ realm, user, params }) =>
      getMessages(ctx, realm, user, {
        anchor: params.use_first_unread_anchor ? 'first_unread' : parseAnchor(params.anchor),
        numBefore: params.num_before,
        numAfter: params.num_after,
        includeAnchor: params.include_anchor,
        narrow: parseNarrow(params.narrow),
        applyMarkdown: params.apply_markdown,
      }),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/messages/:message_id',
      auth: 'optional',
      pathInts: ['message_id'],
      params: {
        apply_markdown: p.bool().default(true),
        allow_empty_topic_name: p.bool().default(false),
      },
    },
    async ({ realm, user, params, pathInt }) =>
      getSingleMessage(ctx, realm, user, pathInt('message_id'), params.apply_markdown),
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/messages/flags',
      params: { messages: p.idList(), op: p.string(), flag: p.string() },
    },
    async ({ realm, user, params }) => updateMessageFlags(ctx, realm, user, params),
  );
}

/** A short client name from the User-Agent, as Zulip records it ("ZulipPython", "website"...). */
export function clientName(userAgent: string): string {
  const first = userAgent.split(/[\s/]/)[0];
  return (first || 'API').slice(0, 30);
}
