/** A message's text and topic as stored: trimmed, checked, and cut to the server's limits. */
import { badRequest } from './errors.js';

export const MAX_MESSAGE_LENGTH = 10000;
export const MAX_TOPIC_LENGTH = 60;

/** Zulip truncates over-long content and topics rather than refusing them. */
export function normalizeContent(content: string): string {
  const body = content.replace(/\s+$/, '');
  if (body.trim() === '') throw badRequest('Message must not be empty');
  if (body.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  if (body.length > MAX_MESSAGE_LENGTH)
    return body.slice(0, MAX_MESSAGE_LENGTH - 20) + '\n[message truncated]';
  return body;
}

export function normalizeTopic(topic: string, mandatory: boolean): string {
  const t = topic.trim();
  if (t.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
  if (/[\u0001-\u001f\u007f]/.test(t)) throw badRequest('Invalid character in topic');
  if (t === '') {
    if (mandatory) throw badRequest('Topics are required in this organization');
    return '(no topic)';
  }
  return t.length > MAX_TOPIC_LENGTH ? t.slice(0, MAX_TOPIC_LENGTH - 3) + '...' : t;
}
