import { describe, expect, it } from 'vitest';
import {
  narrowToUrl,
  narrowKey,
  narrowFromKey,
  parsePlaceUrl,
  searchNarrow,
  starredNarrow,
  toApiNarrow,
  topicNarrow,
  streamNarrow,
  type Narrow,
} from '../../narrow';
import { narrowTitle } from './narrow-title';
import {
  narrowToSearchText,
  parseSearch,
  searchToNarrow,
  tokenize,
  type SearchDirectory,
} from './search-query';

const directory: SearchDirectory = {
  ownUserId: 1,
  users: {
    1: { user_id: 1, full_name: 'King Hamlet', email: 'hamlet@example.com' },
    12: { user_id: 12, full_name: 'Othello, the Moor of Venice', email: 'othello@example.com' },
    13: { user_id: 13, full_name: 'Cordelia', email: 'cordelia@example.com' },
  },
  streams: {
    5: { stream_id: 5, name: 'general' },
    7: { stream_id: 7, name: 'design team' },
  },
};

const narrowOf = (text: string) => searchToNarrow(text, directory).narrow;

describe('tokenize', () => {
  it('splits operators, negations, quoted operands and words', () => {
    expect(
      tokenize('-sender:a@b.c topic:"lunch plans" hello "two words"').map((t) => [
        t.negated,
        t.operator,
        t.operand,
      ]),
    ).toEqual([
      [true, 'sender', 'a@b.c'],
      [false, 'topic', 'lunch plans'],
      [false, null, 'hello'],
      [false, null, 'two words'],
    ]);
  });

  it('keeps an unfinished operator with an empty operand', () => {
    expect(tokenize('sender:')[0]).toMatchObject({ operator: 'sender', operand: '', end: 7 });
  });
});

describe('parseSearch', () => {
  it('makes channel and topic the ordinary topic narrow', () => {
    expect(narrowOf('channel:general topic:"lunch plans"')).toEqual(topicNarrow(5, 'lunch plans'));
    expect(narrowOf('stream:General')).toEqual(streamNarrow(5));
    expect(narrowOf('is:starred')).toEqual(starredNarrow);
    expect(narrowOf('  lunch   plans ')).toEqual(searchNarrow('lunch plans'));
  });

  it('sends a quoted phrase with its quotes, so that its words must stand together', () => {
    expect(narrowOf('"deploy pipeline" late')).toEqual(searchNarrow('"deploy pipeline" late'));
    expect(narrowOf('"unfinished phrase')).toEqual(searchNarrow('"unfinished phrase"'));
    expect(narrowOf('"" lunch')).toEqual(searchNarrow('lunch'));
  });

  it('resolves people by email, name or "me", channels by name, and sorts the terms', () => {
    expect(narrowOf('lunch sender:Cordelia channel:"design team"')).toEqual({
      kind: 'filter',
      terms: [
        { operator: 'channel', operand: '7', negated: false },
        { operator: 'sender', operand: '13', negated: false },
        { operator: 'search', operand: 'lunch', negated: false },
      ],
    });
    expect(narrowOf('from:me')).toMatchObject({ terms: [{ operator: 'sender', operand: '1' }] });
    expect(narrowOf('sender:othello')).toMatchObject({ terms: [{ operand: '12' }] });
    expect(narrowOf('sender:"the moor"')).toMatchObject({ terms: [{ operand: '12' }] });
    expect(
      parseSearch('sender:c', {
        ...directory,
        users: {
          ...directory.users,
          14: { user_id: 14, full_name: 'Cassio', email: 'cassio@example.com' },
        },
      }).problems,
    ).toEqual(['No single person matches “c”.']);
    expect(narrowOf('dm:othello@example.com,hamlet@example.com')).toEqual({
      kind: 'dm',
      userIds: [12],
    });
  });

  it('reads negations, is and has values, ids and message targets', () => {
    expect(narrowOf('-sender:othello@example.com has:images is:Resolved id:42')).toEqual({
      kind: 'filter',
      terms: [
        { operator: 'sender', operand: '12', negated: true },
        { operator: 'is', operand: 'resolved', negated: false },
        { operator: 'has', operand: 'image', negated: false },
        { operator: 'id', operand: '42', negated: false },
      ],
    });
    expect(searchToNarrow('channel:general near:42', directory)).toMatchObject({
      narrow: streamNarrow(5),
      target: { messageId: 42, follow: false },
    });
    expect(parseSearch('with:9', directory).target).toEqual({ messageId: 9, follow: true });
  });

  it('searches unknown operators as text and reports what it cannot resolve', () => {
    expect(narrowOf('colour:red')).toEqual(searchNarrow('colour:red'));
    expect(parseSearch('channel:atlantis sender:Nobody is:purple', directory).problems).toEqual([
      'No channel is named “atlantis”.',
      'No single person matches “Nobody”.',
      expect.stringContaining('is:purple'),
    ]);
    expect(parseSearch('sender:', directory)).toEqual({ terms: [], problems: [] });
  });
});

describe('filter narrows', () => {
  const filter = narrowOf('channel:general -sender:othello@example.com has:link lunch');

  it('round-trip through the search text', () => {
    const text = narrowToSearchText(filter, directory);
    expect(text).toBe('channel:general -sender:othello@example.com has:link lunch');
    expect(narrowOf(text)).toEqual(filter);
    expect(narrowOf(narrowToSearchText(topicNarrow(7, 'a b'), directory))).toEqual(
      topicNarrow(7, 'a b'),
    );
  });

  it('have URLs in the reference form that parse back, and keys', () => {
    expect(narrowToUrl(filter, 'general')).toBe(
      '/narrow/channel/5-general/-sender/12/has/link/search/lunch',
    );
    expect(parsePlaceUrl(narrowToUrl(filter, 'general'))).toEqual({
      kind: 'narrow',
      narrow: filter,
    });
    expect(narrowFromKey(narrowKey(filter))).toEqual(filter);
    expect(parsePlaceUrl('/narrow/is/starred')).toEqual({ kind: 'narrow', narrow: starredNarrow });
    expect(parsePlaceUrl('/narrow/stream/5-general/subject/x/from/12-othello')).toEqual({
      kind: 'narrow',
      narrow: {
        kind: 'filter',
        terms: [
          { operator: 'channel', operand: '5', negated: false },
          { operator: 'topic', operand: 'x', negated: false },
          { operator: 'sender', operand: '12', negated: false },
        ],
      },
    });
  });

  it('go to the API with ids as numbers and negations kept', () => {
    expect(toApiNarrow(filter)).toEqual([
      { operator: 'channel', operand: 5 },
      { operator: 'sender', operand: 12, negated: true },
      { operator: 'has', operand: 'link' },
      { operator: 'search', operand: 'lunch' },
    ]);
  });
});

describe('permalinks', () => {
  it('parse near and with after any narrow, and alone', () => {
    expect(parsePlaceUrl('/narrow/channel/5-general/topic/lunch/near/42')).toEqual({
      kind: 'narrow',
      narrow: topicNarrow(5, 'lunch'),
      target: { messageId: 42, follow: false },
    });
    expect(parsePlaceUrl('/narrow/dm/12-othello/with/43', 1)).toEqual({
      kind: 'narrow',
      narrow: { kind: 'dm', userIds: [12] },
      target: { messageId: 43, follow: true },
    });
    expect(parsePlaceUrl('/narrow/near/44')).toEqual({
      kind: 'narrow',
      narrow: { kind: 'feed' },
      target: { messageId: 44, follow: false },
    });
    expect(parsePlaceUrl('/narrow/near/x')).toBeNull();
  });
});

describe('narrowTitle', () => {
  const cases: [string, string][] = [
    [
      'sender:othello@example.com channel:general',
      'Messages from Othello, the Moor of Venice in #general',
    ],
    ['is:starred', 'Starred messages'],
    ['lunch', 'Search results for “lunch”'],
    // A quoted phrase is quoted once, by the title.
    ['"roadmap budget"', 'Search results for “roadmap budget”'],
    ['roadmap "budget plan"', 'Search results for “roadmap "budget plan"”'],
    ['channel:general "roadmap budget"', 'Messages in #general matching “roadmap budget”'],
    ['has:image', 'Messages with images'],
    ['is:starred -sender:me', 'Starred messages not from you'],
    ['is:resolved channel:general topic:x', 'Messages in resolved topics in #general › x'],
    [
      'dm-including:cordelia@example.com has:reaction',
      'Messages with reactions in direct messages including Cordelia',
    ],
  ];
  it.each(cases)('%s reads “%s”', (text, title) => {
    expect(narrowTitle(narrowOf(text), directory)).toBe(title);
  });

  it('names a DM conversation', () => {
    const narrow: Narrow = {
      kind: 'filter',
      terms: [{ operator: 'dm', operand: '12,13', negated: false }],
    };
    expect(narrowTitle(narrow, directory)).toBe(
      'Direct messages with Othello, the Moor of Venice and Cordelia',
    );
  });
});
