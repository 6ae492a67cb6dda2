import { describe, expect, it } from 'vitest';
import { parseEvent, type ParsedEvent } from '../api/parse-event';
import { eg } from '../test/eg';
import {
  closesToVisitors,
  opensChannel,
  spectatorSnapshot,
  visitorMayApply,
  webPublicChannelIds,
} from './spectator';
import { subscriptionsFromSnapshot } from './subscriptions';

const WELCOME = 40;
const GENERAL = 5;
const HIDEOUT = 41;

/** A visitor's snapshot: `welcome` web-public; `general` listed by the server but not web-public. */
const snapshot = spectatorSnapshot({
  streams: [
    eg.stream({ stream_id: WELCOME, name: 'welcome', is_web_public: true }),
    eg.stream({ stream_id: GENERAL, name: 'general' }),
  ],
});
const webPublic = webPublicChannelIds(subscriptionsFromSnapshot(snapshot));

let nextId = 0;
const event = (raw: Record<string, unknown>): ParsedEvent => parseEvent({ id: nextId++, ...raw });
const message = (streamId: number) =>
  event({
    type: 'message',
    message: eg.streamMessage({ stream_id: streamId }),
    flags: ['read'],
  });

describe("the visitors' guard", () => {
  it('lists the channels the snapshot opened as web-public, and no other', () => {
    expect([...webPublic]).toEqual([WELCOME]);
  });

  it('applies messages, edits, deletions, reactions and widgets of a web-public channel only', () => {
    const about = (streamId: number) => [
      message(streamId),
      event({
        type: 'update_message',
        user_id: 2,
        message_id: 9,
        message_ids: [9],
        edit_timestamp: 1,
        rendering_only: false,
        rendered_content: '<p>edited</p>',
        stream_id: streamId,
      }),
      event({
        type: 'delete_message',
        message_type: 'stream',
        message_ids: [9],
        stream_id: streamId,
      }),
      event({
        type: 'reaction',
        op: 'add',
        message_id: 9,
        user_id: 2,
        emoji_name: 'octopus',
        emoji_code: '1f419',
        reaction_type: 'unicode_emoji',
        stream_id: streamId,
      }),
      event({
        type: 'submessage',
        message_id: 9,
        submessage_id: 3,
        sender_id: 2,
        msg_type: 'widget',
        content: '{}',
        stream_id: streamId,
      }),
      event({ type: 'stream', op: 'update', stream_id: streamId, property: 'name', value: 'x' }),
    ];
    for (const e of about(WELCOME)) expect(visitorMayApply(e, webPublic), e.type).toBe(true);
    for (const id of [GENERAL, HIDEOUT])
      for (const e of about(id))
        expect(visitorMayApply(e, webPublic), `${e.type} in ${id}`).toBe(false);
  });

  it('ignores what names no channel, and direct messages', () => {
    const reaction = event({
      type: 'reaction',
      op: 'add',
      message_id: 9,
      user_id: 2,
      emoji_name: 'octopus',
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
    });
    const direct = event({ type: 'message', message: eg.dmMessage(), flags: [] });
    const typing = event({
      type: 'typing',
      op: 'start',
      message_type: 'stream',
      stream_id: WELCOME,
      topic: 't',
      sender: { user_id: 2, email: 'x@example.com' },
    });
    for (const e of [reaction, direct, typing, event({ type: 'heartbeat' })])
      expect(visitorMayApply(e, webPublic), e.type).toBe(false);
  });

  it('judges a move by where the messages end up', () => {
    const move = (from: number, to: number) =>
      event({
        type: 'update_message',
        user_id: 2,
        message_id: 9,
        message_ids: [9],
        edit_timestamp: 1,
        rendering_only: false,
        stream_id: from,
        new_stream_id: to,
        subject: 'moved',
      });
    expect(visitorMayApply(move(HIDEOUT, WELCOME), webPublic)).toBe(true);
    expect(visitorMayApply(move(WELCOME, HIDEOUT), webPublic)).toBe(false);
  });

  it('lets channels leave, and answers a new web-public channel with a new snapshot', () => {
    const left = event({ type: 'stream', op: 'delete', streams: [{ stream_id: WELCOME }] });
    expect(visitorMayApply(left, webPublic)).toBe(true);
    const arrived = event({
      type: 'stream',
      op: 'create',
      streams: [eg.stream({ stream_id: HIDEOUT, is_web_public: true })],
    });
    expect(visitorMayApply(arrived, webPublic)).toBe(false);
    expect(opensChannel(arrived, webPublic)).toBe(true);
    const notWebPublic = event({
      type: 'stream',
      op: 'create',
      streams: [eg.stream({ stream_id: 42 })],
    });
    expect(opensChannel(notWebPublic, webPublic)).toBe(false);
  });

  it('knows the last event of an organization closing to visitors', () => {
    expect(
      closesToVisitors(
        event({ type: 'realm', op: 'update', property: 'enable_spectator_access', value: false }),
      ),
    ).toBe(true);
    expect(closesToVisitors(event({ type: 'realm', op: 'deactivated', realm_id: 1 }))).toBe(true);
    expect(
      closesToVisitors(event({ type: 'realm', op: 'update', property: 'name', value: 'New' })),
    ).toBe(false);
  });
});
