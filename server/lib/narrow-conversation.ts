import { sql } from 'kysely';
import type { Stream } from '../db/schema.js';
import { canReadStreamHistory } from './access.js';
import { dmKeyOf } from '../domain/conversations.js';
import { rowsWith } from '../db/flag-conditions.js';
import {
  badNarrow,
  defineOperator,
  findStream,
  findUser,
  matchesNothing,
  textOperand,
  type Lookup,
  type Operand,
} from './narrow-base.js';

/** Operators that name where a message was said and by whom: channels, topics, senders, DMs. */

const readsHistory = (lookup: Lookup, s: Stream) =>
  canReadStreamHistory(lookup.user, s, lookup.subscribed.has(s.id));

/**
 * A channel is found even when the user may not read it (nor ever see it, for a private one):
 * the narrow then matches only the messages the user received, as upstream does, so that one
 * keeps what one was sent after leaving. Spectators find only web-public channels.
 */
const channel = defineOperator<Stream>({
  names: ['channel', 'stream'],
  spectators: true,
  resolve(operand, lookup) {
    const s = findStream(lookup, operand);
    if (!s) throw badNarrow(`unknown channel ${String(operand)}`);
    if (lookup.user === null && !s.is_web_public)
      throw badNarrow(`unknown web-public channel ${String(operand)}`);
    return s;
  },
  sql: (s) => (eb) => eb.and([eb('m.type', '=', 'stream'), eb('m.stream_id', '=', s.id)]),
  plan(s, plan, lookup) {
    if (readsHistory(lookup, s)) plan.historyStream = s;
  },
  memory: (s) => (m) => m.type === 'stream' && m.streamId === s.id,
});

/** All public channels, or all web-public ones, that the user may read, as upstream's by_channels. */
const channels = defineOperator<number[]>({
  names: ['channels', 'streams'],
  spectators: true,
  resolve(operand, lookup) {
    const kind = textOperand(operand, 'channels');
    if (kind !== 'public' && kind !== 'web-public')
      throw badNarrow(`unknown channels operand ${kind}`);
    const wanted = (s: Stream) => (kind === 'public' ? !s.invite_only : !!s.is_web_public);
    return lookup.streams.filter((s) => wanted(s) && readsHistory(lookup, s)).map((s) => s.id);
  },
  sql: (ids) =>
    ids.length
      ? (eb) => eb.and([eb('m.type', '=', 'stream'), eb('m.stream_id', 'in', ids)])
      : matchesNothing,
  plan(ids, plan) {
    plan.publicStreamIds = ids;
  },
  // Which channels are public changes after registration; upstream applies no such narrow to events.
  memory: () => null,
});

/** Topics compare as their lowercase keys (messages.topic_key, written with the same toLowerCase). */
const topic = defineOperator<string>({
  names: ['topic', 'subject'],
  spectators: true,
  resolve: (operand) => String(operand).toLowerCase(),
  sql: (key) => (eb) => eb.and([eb('m.type', '=', 'stream'), eb('m.topic_key', '=', key)]),
  memory: (key) => (m) => m.type === 'stream' && m.topic.toLowerCase() === key,
});

function oneUser(operand: Operand, lookup: Lookup): number {
  const id =
    Array.isArray(operand) && operand.length === 1
      ? findUser(lookup, operand[0]!)
      : Array.isArray(operand)
        ? undefined
        : findUser(lookup, operand);
  if (id === undefined) throw badNarrow(`unknown user ${String(operand)}`);
  return id;
}

const sender = defineOperator<number>({
  names: ['sender'],
  spectators: true,
  resolve: oneUser,
  sql: (id) => (eb) => eb('m.sender_id', '=', id),
  memory: (id) => (m) => m.senderId === id,
});

/**
 * One conversation: the listed users and the reader. The key is messages.dm_key; an empty list
 * names no conversation and matches nothing, as upstream.
 */
const dm = defineOperator<string | null>({
  names: ['dm', 'pm-with'],
  resolve(operand, lookup) {
    const parts = Array.isArray(operand)
      ? operand
      : typeof operand === 'number'
        ? [operand]
        : operand.split(',');
    if (parts.length === 0) return null;
    const ids = parts.map((p) => findUser(lookup, p));
    if (ids.some((id) => id === undefined)) throw badNarrow(`unknown user in ${String(operand)}`);
    return dmKeyOf([...(ids as number[]), lookup.user?.id ?? -1]);
  },
  sql: (key) =>
    key === null
      ? matchesNothing
      : (eb) => eb.and([eb('m.type', '=', 'private'), eb('m.dm_key', '=', key)]),
  memory: (key) => (m) => key !== null && m.type === 'private' && dmKeyOf(m.dmUserIds) === key,
});

/**
 * Every direct-message conversation the user is part of; with the reader themself, all of them.
 * Each participant has a row for every direct message of the conversation (a deactivated person
 * cannot be written to), so the user's own rows of direct messages name these messages: they are
 * read from their index instead of testing the key of every direct message the reader has,
 * which grows with the reader's history. The reader's own are the rows the fetch reads anyway.
 */
const dmIncluding = defineOperator<{ id: number; reader: boolean }>({
  names: ['dm-including', 'group-pm-with'],
  resolve: (operand, lookup) => {
    const id = oneUser(operand, lookup);
    return { id, reader: id === lookup.user?.id };
  },
  sql:
    ({ id, reader }) =>
    (eb) =>
      eb.and([
        eb('m.type', '=', 'private'),
        ...(reader
          ? []
          : [
              eb(
                'm.id',
                'in',
                eb
                  .selectFrom('user_messages as including')
                  .select('including.message_id')
                  .where('including.user_id', '=', id)
                  .where(rowsWith('private', 'including')),
              ),
            ]),
        eb(sql<string>`',' || m.dm_key || ','`, 'like', `%,${id},%`),
      ]),
  memory:
    ({ id }) =>
    (m) =>
      m.type === 'private' && m.dmUserIds.includes(id),
});

export const CONVERSATION_OPERATORS = [channel, channels, topic, sender, dm, dmIncluding];
