import { describe, expect, it } from 'vitest';
import {
  dmNarrow,
  filterNarrow,
  starredNarrow,
  streamNarrow,
  topicNarrow,
} from '../../narrow/narrow';
import { isDeepLink, visitorCanRead } from './visitor-link';

const webPublic = new Set([3]);

describe('visitor links', () => {
  it('reads a web-public channel, its topics and searches within it', () => {
    expect(visitorCanRead(streamNarrow(3), webPublic)).toBe(true);
    expect(visitorCanRead(topicNarrow(3, 'lunch'), webPublic)).toBe(true);
    expect(
      visitorCanRead(
        filterNarrow([
          { operator: 'channel', operand: '3', negated: false },
          { operator: 'search', operand: 'menu', negated: false },
        ]),
        webPublic,
      ),
    ).toBe(true);
  });

  it('needs an account for other channels, personal views and direct messages', () => {
    expect(visitorCanRead(streamNarrow(4), webPublic)).toBe(false);
    expect(visitorCanRead(topicNarrow(4, 'lunch'), webPublic)).toBe(false);
    expect(visitorCanRead(starredNarrow, webPublic)).toBe(false);
    expect(visitorCanRead(dmNarrow([5, 6]), webPublic)).toBe(false);
    expect(
      visitorCanRead(
        filterNarrow([
          { operator: 'channel', operand: '3', negated: false },
          { operator: 'is', operand: 'starred', negated: false },
        ]),
        webPublic,
      ),
    ).toBe(false);
    expect(
      visitorCanRead(
        filterNarrow([{ operator: 'channel', operand: '3', negated: true }]),
        webPublic,
      ),
    ).toBe(false);
  });

  it('tells links into the app from its start', () => {
    expect(isDeepLink('/', '')).toBe(false);
    expect(isDeepLink('/', '#narrow/channel/3-welcome/near/9')).toBe(true);
    expect(isDeepLink('/narrow/channel/3-welcome', '')).toBe(true);
    expect(isDeepLink('/inbox', '')).toBe(true);
    expect(isDeepLink('/no-such-page', '')).toBe(false);
  });
});
