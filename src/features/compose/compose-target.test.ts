import { describe, expect, it } from 'vitest';
import { dmNarrow, feedNarrow, streamNarrow, topicNarrow } from '../../narrow';
import { eg } from '../../test/eg';
import { initialFor, resolveDestination } from './compose-target';

const self = eg.selfUser.user_id;

describe('initialFor', () => {
  it('prefills the recipient from the narrow', () => {
    expect(initialFor(topicNarrow(5, 'lunch'), self)).toEqual({
      mode: 'stream',
      streamId: 5,
      topic: 'lunch',
      recipients: [],
    });
    expect(initialFor(streamNarrow(5), self)).toMatchObject({ streamId: 5, topic: '' });
    expect(initialFor(dmNarrow([2, 3], self), self)).toMatchObject({
      mode: 'direct',
      recipients: [2, 3],
    });
    expect(initialFor(dmNarrow([self], self), self)).toMatchObject({ recipients: [self] });
    expect(initialFor(feedNarrow, self)).toMatchObject({ mode: 'stream', streamId: null });
  });
});

describe('resolveDestination', () => {
  const base = {
    mode: 'stream' as const,
    stream: eg.generalStream,
    streamName: 'general',
    topic: ' lunch ',
    recipients: [],
    mandatoryTopics: false,
  };

  it('sends to the stream and trimmed topic', () => {
    expect(resolveDestination(base)).toEqual({ type: 'stream', streamId: 5, topic: 'lunch' });
  });

  it('explains what is missing', () => {
    expect(resolveDestination({ ...base, stream: null, streamName: '' })).toBe('Choose a channel.');
    expect(resolveDestination({ ...base, stream: null, streamName: 'nope' })).toMatch(
      /not subscribed to a channel named “nope”/,
    );
    expect(resolveDestination({ ...base, topic: ' ', mandatoryTopics: true })).toBe(
      'Topics are required in this organization.',
    );
    expect(resolveDestination({ ...base, mode: 'direct' })).toBe('Choose who to send this to.');
  });

  it('sorts DM recipients', () => {
    expect(resolveDestination({ ...base, mode: 'direct', recipients: [9, 3] })).toEqual({
      type: 'direct',
      userIds: [3, 9],
    });
  });
});
