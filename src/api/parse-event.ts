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
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const hasOp = (e: Raw, ...ops: string[]) => isString(e.op) && ops.includes(e.op);
const hasNumbers = (v: unknown, ...keys: string[]): v is Raw =>
  isObject(v) && keys.every((key) => isNumber(v[key]));
const everyValue = (v: unknown, check: (item: unknown) => boolean) =>
  isObject(v) && Object.values(v).every(check);

const isUserGroup = (v: unknown) =>
  hasNumbers(v, 'id') &&
  isString(v.name) &&
  isNumberList(v.members) &&
  isNumberList(v.direct_subgroup_ids ?? []);
const isStreamObject = (v: unknown) => hasNumbers(v, 'stream_id') && isString(v.name);
const isScheduledMessage = (v: unknown) =>
  hasNumbers(v, 'scheduled_message_id', 'scheduled_delivery_timestamp') && isString(v.type);
const isLegacyPresence = (v: unknown) => hasNumbers(v, 'timestamp') && isString(v.status);
const isModernPresence = (v: unknown) =>
  isObject(v) && ['active_timestamp', 'idle_timestamp'].every((k) => isNumber(v[k] ?? 0));
const isVisibilityPolicy = (v: unknown) => v === 0 || v === 1 || v === 2 || v === 3;

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
    hasOp(e, 'add', 'update', 'remove') &&
    hasNumbers(e.person, 'user_id') &&
    (e.person.custom_profile_field === undefined ||
      hasNumbers(e.person.custom_profile_field, 'id')),
  realm: (e) =>
    (hasOp(e, 'update') && isString(e.property)) ||
    (hasOp(e, 'update_dict') && isObject(e.data)) ||
    hasOp(e, 'deactivated'),
  user_settings: (e) => hasOp(e, 'update') && isString(e.property),
  drafts: (e) =>
    (hasOp(e, 'add') && isObjectList(e.drafts)) ||
    (hasOp(e, 'update') && isObject(e.draft)) ||
    (hasOp(e, 'remove') && isNumber(e.draft_id)),
  typing: (e) => hasOp(e, 'start', 'stop') && isObject(e.sender) && isNumber(e.sender.user_id),
  user_group: (e) =>
    (hasOp(e, 'add') && isUserGroup(e.group)) ||
    (hasOp(e, 'update') && isNumber(e.group_id) && isObject(e.data)) ||
    (hasOp(e, 'add_members', 'remove_members') &&
      isNumber(e.group_id) &&
      isNumberList(e.user_ids)) ||
    (hasOp(e, 'add_subgroups', 'remove_subgroups') &&
      isNumber(e.group_id) &&
      isNumberList(e.direct_subgroup_ids)) ||
    (hasOp(e, 'remove') && isNumber(e.group_id)),
  realm_linkifiers: (e) =>
    Array.isArray(e.realm_linkifiers) &&
    e.realm_linkifiers.every((l) => hasNumbers(l, 'id') && isString(l.pattern)),
  realm_filters: (e) => Array.isArray(e.realm_filters),
  default_streams: (e) =>
    Array.isArray(e.default_streams) && e.default_streams.every(isStreamObject),
  default_stream_groups: (e) =>
    isObjectList(e.default_stream_groups) &&
    e.default_stream_groups.every(
      (g) => isNumber(g.id) && Array.isArray(g.streams) && g.streams.every(isStreamObject),
    ),
  user_topic: (e) =>
    isNumber(e.stream_id) && isString(e.topic_name) && isVisibilityPolicy(e.visibility_policy),
  muted_topics: (e) =>
    Array.isArray(e.muted_topics) &&
    e.muted_topics.every((m) => Array.isArray(m) && isString(m[0]) && isString(m[1])),
  presence: (e) =>
    (isNumber(e.user_id) && everyValue(e.presence, isLegacyPresence)) ||
    everyValue(e.presences, isModernPresence),
  user_status: (e) =>
    isNumber(e.user_id) &&
    (e.away === undefined || typeof e.away === 'boolean') &&
    (e.status_text === undefined || isString(e.status_text)) &&
    (e.emoji_name === undefined || isString(e.emoji_name)),
  custom_profile_fields: (e) =>
    isObjectList(e.fields) && e.fields.every((f) => isNumber(f.id) && isString(f.name)),
  alert_words: (e) => isStringList(e.alert_words),
  muted_users: (e) =>
    Array.isArray(e.muted_users) && e.muted_users.every((m) => hasNumbers(m, 'id')),
  realm_bot: (e) =>
    hasOp(e, 'add', 'update', 'remove', 'delete') &&
    hasNumbers(e.bot, 'user_id') &&
    (e.bot.services === undefined || isObjectList(e.bot.services)),
  scheduled_messages: (e) =>
    (hasOp(e, 'add') &&
      Array.isArray(e.scheduled_messages) &&
      e.scheduled_messages.every(isScheduledMessage)) ||
    (hasOp(e, 'update') && isScheduledMessage(e.scheduled_message)) ||
    (hasOp(e, 'remove') && isNumber(e.scheduled_message_id)),
  realm_emoji: (e) =>
    hasOp(e, 'update') &&
    everyValue(
      e.realm_emoji,
      (emoji) => isObject(emoji) && isString(emoji.id) && isString(emoji.name),
    ),
  reaction: (e) =>
    hasOp(e, 'add', 'remove') &&
    isNumber(e.message_id) &&
    (isNumber(e.user_id) || hasNumbers(e.user, 'user_id')) &&
    isString(e.emoji_code),
  submessage: (e) =>
    hasNumbers(e, 'message_id', 'submessage_id', 'sender_id') &&
    isString(e.msg_type) &&
    isString(e.content),
  invites_changed: () => true,
  restart: () => true,
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
  if (event.type === 'reaction' && event.user_id === undefined && event.user)
    return { ...event, user_id: event.user.user_id };
  if (event.type === 'typing' && (event.message_type as string) === 'private') {
    return { ...event, message_type: 'direct' };
  }
  return event;
}
