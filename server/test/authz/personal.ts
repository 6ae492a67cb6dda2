import { TOPIC } from './world.js';
import {
  ACCOUNTS,
  accountsBut,
  bad,
  invalidChannel,
  notFound,
  refused,
  type Row,
} from './types.js';

/**
 * What belongs to one user: drafts, scheduled messages, event queues, uploads. Someone else's
 * draft or scheduled message does not exist for the caller (ResourceNotFoundError, 404); someone
 * else's queue is refused (tornado/views.py); a draft or scheduled message to `design` meets the
 * same channel checks as sending. Files follow `validate_attachment_request`: the caller must be
 * able to read a message that links them (403 otherwise).
 */
const later = () => Math.floor(Date.now() / 1000) + 86400;
const inLists = (b: any, id: number) =>
  ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed'].some((k) =>
    (b[k] ?? []).some((s: any) => s.stream_id === id),
  );

export const PERSONAL_ROWS: Row[] = [
  { route: 'GET /drafts', who: { allow: ACCOUNTS }, call: (c) => c.get('/drafts') },
  {
    route: 'POST /drafts',
    variant: 'to design',
    who: { rest: invalidChannel },
    call: (c, _t, w) =>
      c.post('/drafts', {
        drafts: [{ type: 'stream', to: [w.stream.design], topic: TOPIC, content: 'x' }],
      }),
  },
  {
    route: 'PATCH /drafts/:draft_id',
    variant: "cordelia's draft",
    who: { rest: notFound('Draft does not exist') },
    setup: (w) => w.draft(),
    fresh: true,
    call: (c, id: number, w) =>
      c.patch(`/drafts/${id}`, {
        draft: { type: 'stream', to: [w.stream.engineering], topic: TOPIC, content: 'taken over' },
      }),
  },
  {
    route: 'DELETE /drafts/:draft_id',
    variant: "cordelia's draft",
    who: { rest: notFound('Draft does not exist') },
    setup: (w) => w.draft(),
    fresh: true,
    call: (c, id: number) => c.delete(`/drafts/${id}`),
  },
  {
    route: 'GET /scheduled_messages',
    who: { allow: ACCOUNTS },
    call: (c) => c.get('/scheduled_messages'),
  },
  {
    route: 'POST /scheduled_messages',
    variant: 'to design',
    // check_schedule_message goes through access_stream_for_send_message, as sending does.
    who: { allow: ['bot'], rest: bad("Not authorized to send to channel 'design'") },
    call: (c, _t, w) =>
      c.post('/scheduled_messages', {
        type: 'stream',
        to: String(w.stream.design),
        topic: TOPIC,
        content: 'x',
        scheduled_delivery_timestamp: later(),
      }),
  },
  {
    route: 'PATCH /scheduled_messages/:scheduled_message_id',
    variant: "cordelia's",
    who: { rest: notFound('Scheduled message does not exist') },
    setup: (w) => w.scheduled(),
    fresh: true,
    call: (c, id: number) => c.patch(`/scheduled_messages/${id}`, { content: 'taken over' }),
  },
  {
    route: 'DELETE /scheduled_messages/:scheduled_message_id',
    variant: "cordelia's",
    who: { rest: notFound('Scheduled message does not exist') },
    setup: (w) => w.scheduled(),
    fresh: true,
    call: (c, id: number) => c.delete(`/scheduled_messages/${id}`),
  },
  {
    route: 'POST /register',
    // Administrators are sent every private channel; a former subscriber finds the channel they
    // left among `unsubscribed` (gather_subscriptions); everyone else must not learn of it.
    who: {
      allow: ['administrator', 'owner', 'formerSubscriber'],
      hide: ['spectator', ...accountsBut('administrator', 'owner', 'formerSubscriber')],
    },
    call: (c) => c.post('/register', {}),
    reveals: (b, _t, w) => inLists(b, w.stream.design),
    seenBy: 'cordelia',
  },
  {
    route: 'POST /register',
    variant: 'all_public_streams',
    // Guests may not follow every public channel; spectators' flag is ignored.
    who: {
      allow: ['spectator', ...accountsBut('guest')],
      deny: { guest: bad('User not authorized for this query') },
    },
    call: (c) => c.post('/register', { all_public_streams: 'true' }),
  },
  {
    route: 'POST /register',
    realm: 'spectatorsOff',
    who: { allow: ACCOUNTS },
    call: (c) => c.post('/register', { event_types: ['message'] }),
  },
  {
    route: 'GET /events',
    variant: "cordelia's queue",
    who: { rest: bad('You are not authorized to get events from this queue') },
    call: (c, _t, w) =>
      c.get('/events', { queue_id: w.queue, last_event_id: -1, dont_block: 'true' }),
  },
  {
    route: 'DELETE /events',
    variant: "cordelia's queue",
    who: { rest: bad('You are not authorized to access this queue') },
    setup: (w) => w.newQueue(),
    fresh: true,
    call: (c, queue: string) => c.delete('/events', { queue_id: queue }),
  },
  {
    route: 'POST /user_uploads',
    who: { allow: ACCOUNTS },
    call: (c) =>
      c.post('/user_uploads', { file: new File(['notes'], 'notes.txt', { type: 'text/plain' }) }),
  },
  {
    route: 'GET /user_uploads/:realm_id_str/*',
    variant: 'a file posted in design',
    // The former subscriber received the message but is no longer subscribed: refused, as
    // upstream decides since it stopped trusting old UserMessage rows for channel files.
    who: { rest: refused(403) },
    call: (c, _t, w) => c.get(w.upload),
  },
  {
    route: 'GET /attachments',
    // Each caller lists only their own files; cordelia's file in design is never among them.
    who: { hide: ACCOUNTS },
    call: (c) => c.get('/attachments'),
    reveals: (b, _t, w) =>
      (b.attachments ?? []).some((a: any) => w.upload.endsWith(`/${a.path_id}`)),
    seenBy: 'cordelia',
  },
  {
    route: 'DELETE /attachments/:attachment_id',
    variant: "someone else's file",
    who: { rest: bad('Invalid attachment') },
    setup: async (w) =>
      (
        await w.server.ctx.db
          .selectFrom('attachments')
          .select('id')
          .where('path_id', '=', w.upload.replace(/^\/user_uploads\//, ''))
          .executeTakeFirstOrThrow()
      ).id,
    call: (c, id: number) => c.delete(`/attachments/${id}`),
  },
];
