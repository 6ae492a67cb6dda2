import { describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import { matchStreams, matchTopics, matchUsers } from './autocomplete';

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
