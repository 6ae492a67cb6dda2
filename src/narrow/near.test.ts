import { describe, expect, it } from 'vitest';
import { parsePlaceUrl } from './url';
import { dmNarrow, topicNarrow } from './narrow';

describe('parsePlaceUrl with a message permalink', () => {
  it('opens the conversation of a /near/ID link', () => {
    expect(parsePlaceUrl('/narrow/channel/5-general/topic/lunch/near/42')).toEqual({
      kind: 'narrow',
      narrow: topicNarrow(5, 'lunch'),
      target: { messageId: 42, follow: false },
    });
    expect(parsePlaceUrl('/narrow/dm/8,9/near/43', 8)).toEqual({
      kind: 'narrow',
      narrow: dmNarrow([8, 9], 8),
      target: { messageId: 43, follow: false },
    });
  });

  it('accepts the reference app’s /with/ID form, and nothing else after the conversation', () => {
    expect(parsePlaceUrl('/narrow/channel/5-general/topic/lunch/with/42')).toEqual({
      kind: 'narrow',
      narrow: topicNarrow(5, 'lunch'),
      target: { messageId: 42, follow: true },
    });
    expect(parsePlaceUrl('/narrow/channel/5-general/topic/lunch/near/x')).toBeNull();
  });
});
