import { describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import { recentSenders, type ComposePlace } from './compose-place';

const stream = (sender: number, topic: string, streamId = 5) =>
  eg.streamMessage({ sender_id: sender, stream_id: streamId, subject: topic });

describe('who spoke last in the conversation', () => {
  const place: ComposePlace = {
    narrow: { kind: 'stream', streamId: 5 },
    mode: 'stream',
    streamId: 5,
    topic: 'Lunch',
    recipients: [],
  };

  it('lists the senders of the topic, latest first, once each', () => {
    const messages = [
      stream(7, 'lunch'),
      stream(8, 'lunch'),
      stream(9, 'other'),
      stream(10, 'lunch', 6),
      stream(7, 'LUNCH'),
    ];
    expect(recentSenders(messages, place)).toEqual([7, 8]);
    expect(recentSenders(messages, { ...place, topic: '' })).toEqual([7, 9, 8]);
  });

  it('in a direct message, only its own conversation counts', () => {
    const [self, other, third] = [eg.selfUser, eg.otherUser, eg.thirdUser];
    const messages = [
      eg.dmMessage({ from: other, to: [self] }),
      eg.dmMessage({ from: third, to: [self, other] }),
      eg.dmMessage({ from: self, to: [other] }),
    ];
    const direct = {
      ...place,
      mode: 'direct' as const,
      streamId: null,
      recipients: [other.user_id],
    };
    expect(recentSenders(messages, direct)).toEqual([self.user_id, other.user_id]);
  });
});
