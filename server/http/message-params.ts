import { badRequest, missingParam } from '../domain/errors.js';
import { parseClientJson } from '../domain/client-json.js';
import type { Recipient } from '../actions/send-message.js';

/*
 * What the message routes read from a request beyond plain parameters: recipients and anchors,
 * which come in several historical encodings, and the client's name that a message records.
 */

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

/** Clients echo the 10000000000000000 that stands for "newest"; any larger number means the same. */
export function parseAnchor(raw: string): 'newest' | 'oldest' | 'first_unread' | number {
  if (raw === 'newest' || raw === 'oldest' || raw === 'first_unread') return raw;
  const text = raw.trim();
  if (!/^-?\d+$/.test(text)) throw badRequest('Invalid anchor');
  const n = Number(text);
  if (!Number.isSafeInteger(n)) return n > 0 ? Number.MAX_SAFE_INTEGER : 0;
  return Math.max(0, n);
}

/** A short client name from the User-Agent, as Zulip records it ("ZulipPython", "website"...). */
export function clientName(userAgent: string): string {
  const first = userAgent.split(/[\s/]/)[0];
  return (first || 'API').slice(0, 30);
}
