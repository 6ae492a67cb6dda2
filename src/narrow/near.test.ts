import { describe, expect, it } from 'vitest';
import { narrowUrlAt, parsePlaceUrl, pathFromZulipHash } from './url';
import {
  dmNarrow,
  feedNarrow,
  filterNarrow,
  mentionsNarrow,
  searchNarrow,
  starredNarrow,
  streamNarrow,
  topicNarrow,
  type Narrow,
} from './narrow';

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

describe('narrowUrlAt', () => {
  const narrows: Narrow[] = [
    feedNarrow,
    streamNarrow(5),
    topicNarrow(5, 'lunch'),
    dmNarrow([8, 9], 8),
    starredNarrow,
    mentionsNarrow,
    searchNarrow('budget'),
    filterNarrow([{ operator: 'is', operand: 'unread', negated: false }]),
  ];
  it.each(narrows.map((n) => [n.kind, n] as const))(
    'writes a %s narrow opened at a message as a link that opens it there',
    (_kind, narrow) => {
      const url = narrowUrlAt(narrow, { messageId: 42, follow: false }, 'general');
      expect(parsePlaceUrl(url, 8)).toEqual({
        kind: 'narrow',
        narrow,
        target: { messageId: 42, follow: false },
      });
    },
  );
});

describe('pathFromZulipHash', () => {
  it("routes the reference's hash links: conversations, and the settings its mails link to", () => {
    expect(pathFromZulipHash('#narrow/channel/3-welcome/near/9')).toBe(
      '/narrow/channel/3-welcome/near/9',
    );
    expect(pathFromZulipHash('#settings/notifications')).toBe('/settings/notifications');
    expect(pathFromZulipHash('#organization/users')).toBe('/organization/users');
    expect(pathFromZulipHash('#reactions')).toBeNull();
    expect(pathFromZulipHash('#settingsx/a')).toBeNull();
  });
});
