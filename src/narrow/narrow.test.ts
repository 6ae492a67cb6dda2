import { describe, expect, it } from 'vitest';
import { eg } from '../test/eg';
import {
  containsMessage,
  dmNarrow,
  feedNarrow,
  mentionsNarrow,
  narrowFromKey,
  narrowKey,
  messageUrl,
  narrowToUrl,
  parsePlaceUrl,
  searchNarrow,
  starredNarrow,
  streamNarrow,
  toApiNarrow,
  topicNarrow,
  type Narrow,
  type NarrowTerm,
} from '.';

const self = eg.selfUser.user_id;

describe('narrow URLs', () => {
  const cases: [Narrow, string][] = [
    [feedNarrow, '/feed'],
    [streamNarrow(5), '/narrow/channel/5-general'],
    [topicNarrow(5, 'lunch plans'), '/narrow/channel/5-general/topic/lunch.20plans'],
    [topicNarrow(5, 'a/b?c#d 100%'), '/narrow/channel/5-general/topic/a.2Fb.3Fc.23d.20100.25'],
    [topicNarrow(5, 'v1.20 release'), '/narrow/channel/5-general/topic/v1.2E20.20release'],
    [dmNarrow([8, 9]), '/narrow/dm/8,9'],
    [starredNarrow, '/narrow/starred'],
    [mentionsNarrow, '/narrow/mentions'],
    [searchNarrow('foo bar'), '/narrow/search/foo.20bar'],
  ];

  it.each(cases)('round-trips %j through %s', (narrow, url) => {
    expect(narrowToUrl(narrow, 'general')).toBe(url);
    expect(parsePlaceUrl(url)).toEqual({ kind: 'narrow', narrow });
  });

  it('keeps working when the stream was renamed or has no name in the URL', () => {
    expect(parsePlaceUrl('/narrow/channel/5-old-name')).toEqual({
      kind: 'narrow',
      narrow: streamNarrow(5),
    });
    expect(parsePlaceUrl('/narrow/channel/5')).toEqual({ kind: 'narrow', narrow: streamNarrow(5) });
    expect(narrowToUrl(streamNarrow(5))).toBe('/narrow/channel/5');
  });

  it('replaces spaces in stream names by dashes', () => {
    expect(narrowToUrl(streamNarrow(7), 'design team')).toBe('/narrow/channel/7-design-team');
  });

  it('parses the views and rejects unknown paths', () => {
    expect(parsePlaceUrl('/inbox')).toEqual({ kind: 'view', view: 'inbox' });
    expect(parsePlaceUrl('/recent/')).toEqual({ kind: 'view', view: 'recent' });
    expect(parsePlaceUrl('/drafts')).toEqual({ kind: 'view', view: 'drafts' });
    for (const bad of [
      '/',
      '/nope',
      '/narrow/channel/general',
      '/narrow/dm/x',
      '/narrow/channel/5/topic',
      '/narrow/search/%E0%A4%A',
    ]) {
      expect(parsePlaceUrl(bad)).toBeNull();
    }
  });

  it('canonicalises DM participants: sorted, without the own user unless alone', () => {
    expect(parsePlaceUrl('/narrow/dm/9,1,8', self)).toEqual({
      kind: 'narrow',
      narrow: { kind: 'dm', userIds: [8, 9] },
    });
    expect(parsePlaceUrl('/narrow/dm/1', self)).toEqual({
      kind: 'narrow',
      narrow: { kind: 'dm', userIds: [1] },
    });
  });
});

describe('toApiNarrow', () => {
  it('uses stream ids as channel operands and user ids for dm', () => {
    expect(toApiNarrow(feedNarrow)).toEqual([]);
    expect(toApiNarrow(topicNarrow(5, 'lunch'))).toEqual([
      { operator: 'channel', operand: 5 },
      { operator: 'topic', operand: 'lunch' },
    ]);
    expect(toApiNarrow(dmNarrow([9, 8]))).toEqual([{ operator: 'dm', operand: [8, 9] }]);
    expect(toApiNarrow(starredNarrow)).toEqual([{ operator: 'is', operand: 'starred' }]);
    expect(toApiNarrow(mentionsNarrow)).toEqual([{ operator: 'is', operand: 'mentioned' }]);
    expect(toApiNarrow(searchNarrow('foo'))).toEqual([{ operator: 'search', operand: 'foo' }]);
  });
});

describe('containsMessage', () => {
  const lunch = eg.streamMessage({ stream_id: 5, subject: 'Lunch' });
  const dmFromOther = eg.dmMessage({ from: eg.otherUser, to: [eg.selfUser] });
  const groupDm = eg.dmMessage({ from: eg.otherUser, to: [eg.selfUser, eg.thirdUser] });
  const selfDm = eg.dmMessage({ from: eg.selfUser, to: [eg.selfUser] });

  it('matches streams and topics, topics case-insensitively', () => {
    expect(containsMessage(streamNarrow(5), lunch, self)).toBe(true);
    expect(containsMessage(streamNarrow(6), lunch, self)).toBe(false);
    expect(containsMessage(topicNarrow(5, 'lunch'), lunch, self)).toBe(true);
    expect(containsMessage(topicNarrow(5, 'dinner'), lunch, self)).toBe(false);
    expect(containsMessage(streamNarrow(5), dmFromOther, self)).toBe(false);
  });

  it('matches DM conversations by their exact participant set', () => {
    expect(containsMessage(dmNarrow([2], self), dmFromOther, self)).toBe(true);
    expect(containsMessage(dmNarrow([2], self), groupDm, self)).toBe(false);
    expect(containsMessage(dmNarrow([3, 2], self), groupDm, self)).toBe(true);
    expect(containsMessage(dmNarrow([1], self), selfDm, self)).toBe(true);
    expect(containsMessage(dmNarrow([2], self), lunch, self)).toBe(false);
  });

  it('matches the feed always, starred and mentions by flags, search never', () => {
    expect(containsMessage(feedNarrow, groupDm, self)).toBe(true);
    expect(containsMessage(starredNarrow, lunch, self)).toBe(false);
    expect(containsMessage(starredNarrow, { ...lunch, flags: ['starred'] }, self)).toBe(true);
    expect(containsMessage(mentionsNarrow, { ...lunch, flags: ['wildcard_mentioned'] }, self)).toBe(
      true,
    );
    expect(containsMessage(mentionsNarrow, lunch, self)).toBe(false);
    expect(containsMessage(searchNarrow('hello'), lunch, self)).toBe(false);
  });

  it('gives equal narrows equal keys', () => {
    expect(narrowKey(dmNarrow([9, 8, 1], self))).toBe(narrowKey(dmNarrow([8, 9])));
    expect(narrowKey(topicNarrow(5, 'a'))).not.toBe(narrowKey(topicNarrow(5, 'b')));
  });
});

describe('narrowFromKey', () => {
  it('inverts narrowKey', () => {
    const narrows: Narrow[] = [
      feedNarrow,
      starredNarrow,
      mentionsNarrow,
      streamNarrow(5),
      topicNarrow(5, 'a:b'),
      dmNarrow([8, 9]),
      searchNarrow('x:y'),
    ];
    for (const narrow of narrows) expect(narrowFromKey(narrowKey(narrow))).toEqual(narrow);
    expect(narrowFromKey('nonsense')).toBeNull();
  });
});

describe('message links', () => {
  it('link a channel message through its topic with /near/ID', () => {
    const message = eg.streamMessage({ id: 42, subject: 'lunch plans' });
    expect(messageUrl(message, self)).toBe(
      `/narrow/channel/${message.stream_id}-${message.display_recipient}/topic/lunch.20plans/near/42`,
    );
  });

  it('link a direct message through the other participants', () => {
    const message = eg.dmMessage({ id: 43, to: [eg.selfUser, eg.thirdUser] });
    const others = [eg.otherUser.user_id, eg.thirdUser.user_id].sort((a, b) => a - b);
    expect(messageUrl(message, self)).toBe(`/narrow/dm/${others.join(',')}/near/43`);
  });
});

describe('containsMessage for filter narrows', () => {
  const term = (operator: NarrowTerm['operator'], operand: string, negated = false) => ({
    operator,
    operand,
    negated,
  });
  const filter = (...terms: NarrowTerm[]): Narrow => ({ kind: 'filter', terms });
  const fromOther = eg.streamMessage({ stream_id: 5, subject: '✔ Lunch' });
  const dm = eg.dmMessage({ from: eg.otherUser, to: [eg.selfUser, eg.thirdUser] });
  const other = String(eg.otherUser.user_id);

  it('judges what a message says about itself, negations included', () => {
    expect(
      containsMessage(filter(term('channel', '5'), term('sender', other)), fromOther, self),
    ).toBe(true);
    expect(containsMessage(filter(term('sender', other, true)), fromOther, self)).toBe(false);
    expect(containsMessage(filter(term('is', 'resolved')), fromOther, self)).toBe(true);
    expect(containsMessage(filter(term('is', 'dm')), dm, self)).toBe(true);
    expect(
      containsMessage(filter(term('dm-including', String(eg.thirdUser.user_id))), dm, self),
    ).toBe(true);
    expect(containsMessage(filter(term('topic', 'lunch', true)), fromOther, self)).toBe(true);
    expect(containsMessage(filter(term('id', String(dm.id))), dm, self)).toBe(true);
  });

  it('says no where only the server can tell: searches, content, people by email', () => {
    expect(containsMessage(filter(term('has', 'link')), fromOther, self)).toBe(false);
    expect(containsMessage(filter(term('has', 'link', true)), fromOther, self)).toBe(false);
    expect(containsMessage(filter(term('search', 'lunch')), fromOther, self)).toBe(false);
    expect(containsMessage(filter(term('sender', 'x@example.com')), fromOther, self)).toBe(false);
    expect(containsMessage(filter(term('is', 'followed')), fromOther, self)).toBe(false);
  });
});
