import { TOPIC } from './world.js';
import {
  ACCOUNTS,
  accountsBut,
  bad,
  invalidChannel,
  invalidMessage,
  unauthorized,
  type Row,
} from './types.js';

/**
 * Messages, flags, typing and topics, aimed at the private channel `design`. The reference
 * server decides message access in `has_message_access` (zerver/lib/message.py): in a channel
 * with shared history only current subscribers may read a message, so the former subscriber is
 * refused although they received it; inaccessible messages answer "Invalid message(s)" as if
 * they did not exist, and channels "Invalid channel ID" (`access_stream_by_id`).
 */
const designNarrow = [{ operator: 'stream', operand: 'design' }];

export const MESSAGE_ROWS: Row[] = [
  {
    route: 'POST /messages',
    variant: 'to design',
    // access_stream_for_send_message: a bot may send wherever its owner (hamlet, in design) may.
    who: { allow: ['bot'], rest: bad("Not authorized to send to channel 'design'") },
    call: (c) =>
      c.post('/messages', { type: 'stream', to: 'design', topic: TOPIC, content: 'hello' }),
  },
  {
    route: 'GET /messages',
    variant: 'narrowed to design',
    // The history of a private channel comes from one's own UserMessage rows, so the former
    // subscriber still finds what they received (message_fetch.py, by_channel's comment).
    who: { allow: ['formerSubscriber'], hide: accountsBut('formerSubscriber') },
    call: (c) =>
      c.get('/messages', { anchor: 'newest', num_before: 200, num_after: 0, narrow: designNarrow }),
    reveals: (b, _t, w) => (b.messages ?? []).some((m: any) => m.id === w.message),
    seenBy: 'cordelia',
  },
  {
    route: 'GET /messages',
    variant: 'web-public channels',
    who: { hide: ['spectator', ...ACCOUNTS] },
    call: (c) =>
      c.get('/messages', {
        anchor: 'newest',
        num_before: 200,
        num_after: 0,
        narrow: [{ operator: 'streams', operand: 'web-public' }],
      }),
    reveals: (b, _t, w) => (b.messages ?? []).some((m: any) => m.stream_id === w.stream.design),
  },
  {
    route: 'GET /messages',
    variant: 'a web-public channel',
    realm: 'spectatorsOff',
    // The organization's setting is checked before the narrow: welcome is web-public, but closed now.
    who: { allow: ACCOUNTS, deny: { spectator: unauthorized } },
    call: (c) =>
      c.get('/messages', {
        anchor: 'newest',
        num_before: 5,
        num_after: 0,
        narrow: [{ operator: 'stream', operand: 'welcome' }],
      }),
  },
  {
    route: 'GET /messages/:message_id',
    // access_web_public_message answers spectators MissingAuthenticationError for anything not web-public.
    who: { rest: invalidMessage, deny: { spectator: unauthorized } },
    call: (c, _t, w) => c.get(`/messages/${w.message}`),
  },
  {
    route: 'GET /messages/:message_id',
    variant: 'a web-public message',
    realm: 'spectatorsOff',
    who: { allow: ACCOUNTS, deny: { spectator: unauthorized } },
    call: (c, _t, w) => c.get(`/messages/${w.welcomeMessage}`),
  },
  {
    route: 'PATCH /messages/:message_id',
    who: { rest: invalidMessage },
    setup: async (w) => w.receivedMessage(),
    fresh: true,
    call: (c, id: number) => c.patch(`/messages/${id}`, { content: 'edited by someone outside' }),
  },
  {
    route: 'DELETE /messages/:message_id',
    who: { rest: invalidMessage },
    setup: async (w) => w.receivedMessage(),
    fresh: true,
    call: (c, id: number) => c.delete(`/messages/${id}`),
  },
  {
    route: 'GET /messages/:message_id/history',
    who: { rest: invalidMessage },
    call: (c, _t, w) => c.get(`/messages/${w.message}/history`),
  },
  {
    route: 'POST /messages/:message_id/reactions',
    who: { rest: invalidMessage },
    setup: async (w) => w.receivedMessage(),
    fresh: true,
    call: (c, id: number) => c.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }),
  },
  {
    route: 'DELETE /messages/:message_id/reactions',
    who: { rest: invalidMessage },
    setup: async (w) => {
      const id = w.receivedMessage();
      await w.cordelia.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
      return id;
    },
    fresh: true,
    call: (c, id: number) => c.delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' }),
  },
  {
    route: 'POST /submessage',
    // access_message first: nobody who acts reads design (the former subscriber left it).
    who: { rest: invalidMessage },
    setup: async (w) => {
      const id = w.receivedMessage();
      const widget = { widget_type: 'poll', extra_data: { question: 'Which?', options: ['A'] } };
      await w.cordelia.post('/submessage', {
        message_id: id,
        msg_type: 'widget',
        content: JSON.stringify(widget),
      });
      return id;
    },
    fresh: true,
    call: (c, id: number) =>
      c.post('/submessage', {
        message_id: id,
        msg_type: 'widget',
        content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }),
      }),
  },
  {
    route: 'GET /messages/:message_id/read_receipts',
    who: { rest: invalidMessage },
    call: (c, _t, w) => c.get(`/messages/${w.message}/read_receipts`),
  },
  {
    route: 'POST /messages/flags',
    // do_update_message_flags checks access only for messages without a UserMessage row: the
    // former subscriber may still star what they received.
    who: { allow: ['formerSubscriber'], rest: invalidMessage },
    setup: async (w) => w.receivedMessage(),
    fresh: true,
    call: (c, id: number) =>
      c.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' }),
  },
  {
    route: 'POST /messages/flags/narrow',
    who: { allow: ['formerSubscriber'], hide: accountsBut('formerSubscriber') },
    // Unstarring: a wrongly processed message gains no row it could later be read through.
    call: (c) =>
      c.post('/messages/flags/narrow', {
        anchor: 'newest',
        num_before: 200,
        num_after: 0,
        narrow: designNarrow,
        op: 'remove',
        flag: 'starred',
      }),
    // The answer gives only the processed range. Messages of design that the caller did receive
    // (their own, or the demo's from before they left) are theirs to process; the target is not.
    reveals: (b, _t, w) =>
      (b.processed_count ?? 0) > 0 &&
      b.first_processed_id <= w.message &&
      w.message <= b.last_processed_id,
    seenBy: 'cordelia',
  },
  {
    route: 'GET /messages/matches_narrow',
    // Only the caller's UserMessage rows are searched.
    who: { allow: ['formerSubscriber'], hide: accountsBut('formerSubscriber') },
    call: (c, _t, w) =>
      c.get('/messages/matches_narrow', { msg_ids: [w.message], narrow: designNarrow }),
    reveals: (b, _t, w) => String(w.message) in (b.messages ?? {}),
    seenBy: 'cordelia',
  },
  {
    route: 'POST /messages/render',
    who: { allow: ACCOUNTS },
    call: (c) => c.post('/messages/render', { content: '**bold**' }),
  },
  {
    route: 'POST /mark_all_as_read',
    who: { allow: ACCOUNTS },
    call: (c) => c.post('/mark_all_as_read'),
  },
  {
    route: 'POST /mark_stream_as_read',
    who: { rest: invalidChannel },
    call: (c, _t, w) => c.post('/mark_stream_as_read', { stream_id: w.stream.design }),
  },
  {
    route: 'POST /mark_topic_as_read',
    who: { rest: invalidChannel },
    call: (c, _t, w) =>
      c.post('/mark_topic_as_read', { stream_id: w.stream.design, topic_name: TOPIC }),
  },
  {
    route: 'POST /typing',
    // send_notification_backend: access_stream_by_id, with no exception for administrators.
    who: { rest: invalidChannel },
    call: (c, _t, w) =>
      c.post('/typing', { type: 'stream', op: 'start', stream_id: w.stream.design, topic: TOPIC }),
  },
  {
    route: 'GET /users/me/:stream_id/topics',
    // Spectators reach access_web_public_stream, which refuses what is not web-public.
    who: { rest: invalidChannel, deny: { spectator: invalidChannel } },
    call: (c, _t, w) => c.get(`/users/me/${w.stream.design}/topics`),
  },
  {
    route: 'GET /users/me/:stream_id/topics',
    variant: 'a web-public channel',
    realm: 'spectatorsOff',
    who: { allow: ACCOUNTS, deny: { spectator: unauthorized } },
    call: (c, _t, w) => c.get(`/users/me/${w.stream.welcome}/topics`),
  },
];
