import { describe, expect, it } from 'vitest';
import type { Message, Submessage } from '../../api/model';
import { eg } from '../../test/eg';
import { messageWidget } from './message-widget';
import { newOptionEvent, voteEvent, type PollState } from './poll';

const AUTHOR = eg.otherUser.user_id;
const ME = eg.selfUser.user_id;
const THIRD = eg.thirdUser.user_id;

/** A `/poll` message as the server sends it: the widget first, then each event as sent. */
function pollMessage(
  events: [senderId: number, event: unknown][],
  extra: unknown = { question: 'Where do we eat?', options: ['Pizza', 'Sushi'] },
): Message {
  let id = 100;
  const sub = (sender_id: number, content: unknown): Submessage => ({
    id: id++,
    message_id: 42,
    sender_id,
    msg_type: 'widget',
    content: typeof content === 'string' ? content : JSON.stringify(content),
  });
  return eg.streamMessage({
    id: 42,
    sender_id: AUTHOR,
    content: '<p>/poll Where do we eat?<br>Pizza<br>Sushi</p>',
    submessages: [
      sub(AUTHOR, { widget_type: 'poll', extra_data: extra }),
      ...events.map(([sender, event]) => sub(sender, event)),
    ],
  });
}

function poll(message: Message, ownUserId = ME): PollState {
  const widget = messageWidget(message, ownUserId);
  if (widget?.type !== 'poll') throw new Error(`not a poll: ${JSON.stringify(widget)}`);
  return widget.poll;
}

const votes = (state: PollState) =>
  Object.fromEntries(state.options.map((o) => [`${o.key} ${o.text}`, o.voterIds]));

describe('a poll folded from its submessages', () => {
  it('starts with the canned options, keyed canned,<i>, and no votes', () => {
    const state = poll(pollMessage([]));
    expect(state.question).toBe('Where do we eat?');
    expect(votes(state)).toEqual({ 'canned,0 Pizza': [], 'canned,1 Sushi': [] });
    expect(state.nextOwnIdx).toBe(1);
  });

  it('adds options keyed by their sender and idx, ignoring a second copy of a text', () => {
    const state = poll(
      pollMessage([
        [THIRD, { type: 'new_option', idx: 1, option: 'Tacos' }],
        [ME, { type: 'new_option', idx: 3, option: 'Curry' }],
        [THIRD, { type: 'new_option', idx: 2, option: 'Pizza' }],
        [ME, { type: 'new_option', idx: 1001, option: 'Too far' }],
      ]),
    );
    expect(state.options.map((o) => o.key)).toEqual(['canned,0', 'canned,1', '3,1', '1,3']);
    expect(state.options.map((o) => o.text)).toEqual(['Pizza', 'Sushi', 'Tacos', 'Curry']);
    // One more than the highest idx of one's own: another client of mine may have added one.
    expect(state.nextOwnIdx).toBe(4);
    expect(newOptionEvent(state, 'Ramen')).toEqual({ type: 'new_option', idx: 4, option: 'Ramen' });
  });

  it('counts a vote once per person, takes it back on -1, and offers to toggle', () => {
    const state = poll(
      pollMessage([
        [ME, { type: 'vote', key: 'canned,0', vote: 1 }],
        [THIRD, { type: 'vote', key: 'canned,0', vote: 1 }],
        [THIRD, { type: 'vote', key: 'canned,0', vote: 1 }],
        [AUTHOR, { type: 'vote', key: 'canned,1', vote: 1 }],
        [AUTHOR, { type: 'vote', key: 'canned,1', vote: -1 }],
        [THIRD, { type: 'vote', key: 'canned,1', vote: 2 }],
      ]),
    );
    expect(votes(state)).toEqual({ 'canned,0 Pizza': [ME, THIRD], 'canned,1 Sushi': [] });
    const [pizza, sushi] = state.options;
    expect(voteEvent(pizza, ME)).toEqual({ type: 'vote', key: 'canned,0', vote: -1 });
    expect(voteEvent(sushi, ME)).toEqual({ type: 'vote', key: 'canned,1', vote: 1 });
  });

  it('lets only the poll’s author change the question', () => {
    const state = poll(
      pollMessage([
        [THIRD, { type: 'question', question: 'Hijacked?' }],
        [AUTHOR, { type: 'question', question: 'Lunch where?' }],
        [ME, { type: 'question', question: 'Mine?' }],
      ]),
    );
    expect(state.question).toBe('Lunch where?');
  });

  it('ignores votes for unknown keys, unknown event types and unreadable events', () => {
    const state = poll(
      pollMessage([
        [ME, { type: 'vote', key: 'canned,9', vote: 1 }],
        [ME, { type: 'vote', key: '7,1', vote: 1 }],
        [ME, { type: 'explode' }],
        [ME, '{not json'],
        [ME, '[1, 2]'],
        [ME, { type: 'new_option', idx: 'one', option: 'Bad idx' }],
        [ME, { type: 'question', question: 5 }],
        [ME, { type: 'vote', key: 'canned,1', vote: 1 }],
      ]),
    );
    expect(votes(state)).toEqual({ 'canned,0 Pizza': [], 'canned,1 Sushi': [ME] });
  });

  it('folds in submessage id order, whatever order they arrived in', () => {
    const message = pollMessage([
      [ME, { type: 'vote', key: 'canned,0', vote: 1 }],
      [ME, { type: 'vote', key: 'canned,0', vote: -1 }],
    ]);
    const shuffled = { ...message, submessages: [...message.submessages].reverse() };
    expect(poll(shuffled).options[0].voterIds).toEqual([]);
  });

  it('is no widget when the first submessage is someone else’s or unreadable', () => {
    const hijacked = pollMessage([]);
    hijacked.submessages[0] = { ...hijacked.submessages[0], sender_id: THIRD };
    expect(messageWidget(hijacked, ME)).toBeNull();
    const broken = pollMessage([]);
    broken.submessages[0] = { ...broken.submessages[0], content: '{"widget_type":' };
    expect(messageWidget(broken, ME)).toBeNull();
    expect(messageWidget(pollMessage([], { question: 'Q', options: 'Pizza' }), ME)).toBeNull();
    expect(messageWidget(eg.streamMessage(), ME)).toBeNull();
  });

  it('reads a poll without extra data as an empty one', () => {
    const state = poll(pollMessage([[ME, { type: 'new_option', idx: 1, option: 'Tea' }]], null));
    expect(state.question).toBe('');
    expect(votes(state)).toEqual({ [`${ME},1 Tea`]: [] });
  });
});
