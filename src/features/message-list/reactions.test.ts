import { describe, expect, it } from 'vitest';
import type { Reaction, User } from '../../api/model';
import { groupReactions, reactorNames } from './Reactions';

const r = (user_id: number, emoji_name: string, emoji_code: string): Reaction => ({
  user_id,
  emoji_name,
  emoji_code,
  reaction_type: 'unicode_emoji',
});
const users = { 2: { full_name: 'Othello' }, 3: { full_name: 'Iago' } } as unknown as Record<
  number,
  User
>;

describe('reaction groups', () => {
  it('groups by emoji in first-use order, counts people once and marks your own', () => {
    const groups = groupReactions(
      [r(2, 'tada', '1f389'), r(1, 'heart', '2764'), r(3, 'tada', '1f389'), r(1, 'tada', '1f389')],
      1,
    );
    expect(groups.map((g) => [g.ref.emoji_name, g.userIds, g.mine])).toEqual([
      ['tada', [2, 3, 1], true],
      ['heart', [1], true],
    ]);
    expect(groupReactions([r(2, 'tada', '1f389')], 1)[0]!.mine).toBe(false);
  });

  it('names the people who reacted, you first as "You"', () => {
    const [tada] = groupReactions(
      [r(1, 'tada', '1f389'), r(2, 'tada', '1f389'), r(3, 'tada', '1f389')],
      1,
    );
    expect(reactorNames(tada!, 1, users)).toBe('You, Othello and Iago');
    const [single] = groupReactions([r(9, 'eyes', '1f440')], 1);
    expect(reactorNames(single!, 1, users)).toBe('Someone');
  });
});
