import { afterEach, describe, expect, it } from 'vitest';
import { switchLanguage } from '../../i18n';
import { topicNarrow } from '../../narrow';
import {
  draftQuery,
  narrowDraft,
  pillChannel,
  pillLabel,
  takePills,
  type SearchPill,
} from './search-pills';
import { narrowToSearchText, searchToNarrow, type SearchDirectory } from './search-query';

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

const pill = (operator: SearchPill['operator'], operand: string, negated = false): SearchPill => ({
  operator,
  operand,
  negated,
});

afterEach(() => switchLanguage('en'));

describe('takePills', () => {
  it('makes a pill of each complete term, leaving the words and the term being typed', () => {
    expect(takePills('channel:general lunch is:starred sender:oth', directory)).toEqual({
      pills: [pill('channel', 'general'), pill('is', 'starred')],
      text: 'lunch sender:oth',
    });
    expect(takePills('zebra -from:othello@example.com ', directory)).toEqual({
      pills: [pill('sender', 'othello@example.com', true)],
      text: 'zebra ',
    });
    expect(takePills('stream:"design team" topic:"lunch plans" ', directory).pills).toEqual([
      pill('channel', 'design team'),
      pill('topic', 'lunch plans'),
    ]);
  });

  it('leaves as text what is unfinished, unknown or not an operator', () => {
    for (const text of [
      'topic:"lunch pl',
      'channel:nowhere ',
      'sender:nobody ',
      'is:purple ',
      'near:abc ',
      'sender: ',
      'foo:bar ',
      'capybara ',
    ])
      expect(takePills(text, directory), text).toEqual({ pills: [], text });
  });

  it('takes every term of a narrow’s own text, which ends without a space', () => {
    const text = narrowToSearchText(topicNarrow(7, 'lunch plans'), directory);
    expect(narrowDraft(text, directory)).toEqual({
      pills: [pill('channel', 'design team'), pill('topic', 'lunch plans')],
      text: '',
    });
    expect(narrowDraft('is:starred zebra', directory)).toEqual({
      pills: [pill('is', 'starred')],
      text: 'zebra',
    });
  });

  it('gives back a query that parses to the same narrow as the typed text', () => {
    for (const typed of [
      'is:starred sender:cordelia@example.com',
      'channel:general topic:"lunch plans" ',
      '-sender:othello@example.com zebra ',
      'has:images "calm capybara" channel:"design team" ',
    ]) {
      const draft = takePills(typed, directory);
      expect(searchToNarrow(draftQuery(draft), directory).narrow, typed).toEqual(
        searchToNarrow(typed, directory).narrow,
      );
    }
  });
});

describe('pillLabel', () => {
  it('names channels and people as they are known, and says what is excluded', () => {
    expect(pillLabel(pill('channel', '7'), directory)).toBe('channel: design team');
    expect(pillLabel(pill('topic', 'lunch plans'), directory)).toBe('topic: lunch plans');
    expect(pillLabel(pill('sender', 'othello@example.com'), directory)).toBe(
      'sender: Othello, the Moor of Venice',
    );
    expect(pillLabel(pill('dm', 'hamlet@example.com,cordelia@example.com'), directory)).toBe(
      'dm: King Hamlet, Cordelia',
    );
    expect(pillLabel(pill('is', 'resolved', true), directory)).toBe('exclude is: resolved');
    expect(pillLabel(pill('sender', 'gone@example.com'), directory)).toBe(
      'sender: gone@example.com',
    );
  });

  it('is in the interface language', async () => {
    await switchLanguage('de');
    expect(pillLabel(pill('channel', 'general', true), directory)).toBe('ohne channel: general');
    await switchLanguage('fr');
    expect(pillLabel(pill('is', 'starred'), directory)).toBe('is : starred');
  });
});

describe('pillChannel', () => {
  it('is the first positive channel pill', () => {
    expect(pillChannel([pill('channel', 'general', true), pill('is', 'starred')], directory)).toBe(
      null,
    );
    expect(pillChannel([pill('topic', 'x'), pill('channel', 'design team')], directory)).toBe(7);
  });
});
