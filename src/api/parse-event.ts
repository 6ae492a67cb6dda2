/**
 * Events are parsed here, at the edge, into a discriminated union. Anything this client does not
 * understand (a new event type, an op we don't handle, a malformed payload) becomes `unexpected`
 * so that the reducers can switch exhaustively and never guess.
 */
import type { ServerEvent } from './model';

export interface UnexpectedEvent {
  type: 'unexpected';
  id: number;
  original: unknown;
}

export type ParsedEvent = ServerEvent | UnexpectedEvent;

type Raw = Record<string, unknown>;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumberList = (v: unknown): v is number[] => Array.isArray(v) && v.every(isNumber);
const isObjectList = (v: unknown): v is Raw[] => Array.isArray(v) && v.every(isObject);
const hasOp = (e: Raw, ...ops: string[]) => isString(e.op) && ops.includes(e.op);

/** Shape checks per event type: enough to make the reducers' reads safe. */
const validators: Record<ServerEvent['type'], (e: Raw) => boolean> = {
  message: (e) => isObject(e.message) && isNumber(e.message.id) && Array.isArray(e.flags ?? []),
  update_message_flags: (e) =>
    hasOp(e, 'add', 'remove') && isString(e.flag) && isNumberList(e.messages),
  delete_message: (e) => isNumberList(e.message_ids) || isNumber(e.message_id),
  update_message: (e) => isNumber(e.message_id) && isNumberList(e.message_ids ?? [e.message_id]),
  subscription: (e) =>
    (hasOp(e, 'add', 'remove') && isObjectList(e.subscriptions)) ||
    (hasOp(e, 'update') && isNumber(e.stream_id) && isString(e.property)) ||
    (hasOp(e, 'peer_add', 'peer_remove') && isNumberList(e.stream_ids) && isNumberList(e.user_ids)),
  stream: (e) =>
    (hasOp(e, 'create', 'delete') && isObjectList(e.streams)) ||
    (hasOp(e, 'update') && isNumber(e.stream_id) && isString(e.property)),
  realm_user: (e) =>
    hasOp(e, 'add', 'update', 'remove') && isObject(e.person) && isNumber(e.person.user_id),
  realm: (e) =>
    (hasOp(e, 'update') && isString(e.property)) || (hasOp(e, 'update_dict') && isObject(e.data)),
  user_settings: (e) => hasOp(e, 'update') && isString(e.property),
  drafts: (e) =>
    (hasOp(e, 'add') && isObjectList(e.drafts)) ||
    (hasOp(e, 'update') && isObject(e.draft)) ||
    (hasOp(e, 'remove') && isNumber(e.draft_id)),
  typing: (e) => hasOp(e, 'start', 'stop') && isObject(e.sender) && isNumber(e.sender.user_id),
  heartbeat: () => true,
};

export function parseEvent(raw: unknown): ParsedEvent {
  if (!isObject(raw) || !isNumber(raw.id) || !isString(raw.type)) {
    return {
      type: 'unexpected',
      id: isObject(raw) && isNumber(raw.id) ? raw.id : -1,
      original: raw,
    };
  }
  const validate = validators[raw.type as ServerEvent['type']] as ((e: Raw) => boolean) | undefined;
  if (!validate || !validate(raw)) return { type: 'unexpected', id: raw.id, original: raw };
  return normalize(raw as unknown as ServerEvent);
}

/** Smooths over older wire forms so that reducers see one shape. */
function normalize(event: ServerEvent): ServerEvent {
  if (event.type === 'message') return { ...event, flags: event.flags ?? [] };
  if (event.type === 'update_message')
    return { ...event, message_ids: event.message_ids ?? [event.message_id] };
  if (event.type === 'delete_message' && !event.message_ids) {
    // Servers send one event per message to clients without bulk_message_deletion.
    const single = (event as unknown as { message_id: number }).message_id;
    return { ...event, message_ids: [single] };
  }
  if (event.type === 'typing' && (event.message_type as string) === 'private') {
    return { ...event, message_type: 'direct' };
  }
  return event;
}
