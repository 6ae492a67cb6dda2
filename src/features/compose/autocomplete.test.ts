import { describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import {
  insertMention,
  matchStreams,
  matchTopics,
  matchUsers,
  mentionQueryAt,
} from './autocomplete';

describe('autocomplete matching', () => {
  it('ranks prefix matches before substring matches', () => {
    const streams = ['design', 'general', 'engineering'].map((name, i) =>
      eg.subscription({ stream_id: i + 1, name }),
    );
    expect(matchStreams(streams, 'en').map((s) => s.name)).toEqual(['engineering', 'general']);
    expect(matchTopics(['lunch', 'brunch', 'dinner'], 'un')).toEqual(['lunch', 'brunch']);
  });

  it('matches users by any word of the name or by email', () => {
    const hamlet = eg.user({ full_name: 'King Hamlet', email: 'hamlet@example.com' });
    const iago = eg.user({ full_name: 'Iago', email: 'iago@example.com' });
    expect(matchUsers([iago, hamlet], 'ham')).toEqual([hamlet]);
    expect(matchUsers([iago, hamlet], 'iago@')).toEqual([iago]);
    expect(matchUsers([iago, hamlet], '')).toHaveLength(2);
  });
});

describe('mentions', () => {
  it('finds the @query before the caret', () => {
    expect(mentionQueryAt('hi @ha', 6)).toEqual({ start: 3, query: 'ha' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('hi @King Ha', 11)).toEqual({ start: 3, query: 'King Ha' });
    expect(mentionQueryAt('mail me@example', 15)).toBeNull();
    expect(mentionQueryAt('no mention', 10)).toBeNull();
  });

  it('inserts @**Full Name** and moves the caret after it', () => {
    const text = 'hi @ha and more';
    const result = insertMention(text, { start: 3, query: 'ha' }, 6, { full_name: 'King Hamlet' });
    expect(result.text).toBe('hi @**King Hamlet**  and more');
    expect(result.caret).toBe('hi @**King Hamlet** '.length);
  });
});
