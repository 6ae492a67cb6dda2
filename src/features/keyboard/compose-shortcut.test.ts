import { describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import {
  dmNarrow,
  feedNarrow,
  narrowKey,
  streamNarrow,
  topicNarrow,
  type Narrow,
} from '../../narrow';
import { channelMessageShortcut, directMessageShortcut } from './compose-shortcut';

const topic = topicNarrow(1, 'lunch');
const channel = streamNarrow(1);
const dm = { kind: 'dm', userIds: [7, 9] } satisfies Narrow;
const starred = { kind: 'starred' } satisfies Narrow;

describe('C: a channel message', () => {
  it('in a topic keeps the topic and puts the cursor in the message', () => {
    expect(channelMessageShortcut(topic, null, 3)).toEqual({
      open: null,
      request: {
        to: { type: 'stream', streamId: 1, topic: 'lunch' },
        insert: null,
        focus: 'content',
        box: narrowKey(topic),
      },
    });
  });

  it('in a channel puts the cursor in the topic (kept as typed), whatever is selected', () => {
    const selected = eg.streamMessage({ stream_id: 1, subject: 'other' });
    expect(channelMessageShortcut(channel, selected, 3)).toEqual({
      open: null,
      request: {
        to: { type: 'stream', streamId: 1, topic: null },
        insert: null,
        focus: 'topic',
        box: narrowKey(channel),
      },
    });
  });

  it('in a direct-message conversation puts the cursor in the message', () => {
    const selected = eg.dmMessage();
    expect(channelMessageShortcut(dm, selected, 3)).toEqual({
      open: null,
      request: {
        to: { type: 'direct', userIds: [7, 9] },
        insert: null,
        focus: 'content',
        box: narrowKey(dm),
      },
    });
  });

  it("elsewhere starts from the selected message's topic, at the topic field", () => {
    const selected = eg.streamMessage({ stream_id: 5, subject: 'plans' });
    expect(channelMessageShortcut(feedNarrow, selected, 3)).toEqual({
      open: null,
      request: {
        to: { type: 'stream', streamId: 5, topic: 'plans' },
        insert: null,
        focus: 'topic',
        box: narrowKey(feedNarrow),
      },
    });
  });

  it('elsewhere, without a selected channel message, starts from the first channel', () => {
    expect(channelMessageShortcut(starred, eg.dmMessage(), 3)).toEqual({
      open: null,
      request: {
        to: { type: 'stream', streamId: 3, topic: '' },
        insert: null,
        focus: 'topic',
        box: narrowKey(starred),
      },
    });
  });

  it('from a view without a compose box goes to the first channel, whose box takes it', () => {
    expect(channelMessageShortcut(null, null, 3)).toEqual({
      open: streamNarrow(3),
      request: {
        to: { type: 'stream', streamId: 3, topic: '' },
        insert: null,
        focus: 'topic',
        box: narrowKey(streamNarrow(3)),
      },
    });
  });

  it('does nothing without a channel to write to', () => {
    expect(channelMessageShortcut(null, null, null)).toBeNull();
    expect(channelMessageShortcut(feedNarrow, null, null)).toBeNull();
    // A conversation on screen still has its own destination.
    expect(channelMessageShortcut(topic, null, null)?.request.focus).toBe('content');
  });
});

describe('X: a new direct message', () => {
  it('opens the recipients field in the view on screen', () => {
    for (const narrow of [topic, channel, dmNarrow([7], 1), feedNarrow])
      expect(directMessageShortcut(narrow)).toEqual({
        open: null,
        request: {
          to: { type: 'direct', userIds: [] },
          insert: null,
          focus: 'recipients',
          box: narrowKey(narrow),
        },
      });
  });

  it('from a view without a compose box goes to the combined feed', () => {
    const shortcut = directMessageShortcut(null);
    expect(shortcut.open).toEqual(feedNarrow);
    expect(shortcut.request.box).toBe(narrowKey(feedNarrow));
  });
});
