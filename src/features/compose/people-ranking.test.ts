import { describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import { ambiguousNames, PeopleIndex } from './people-ranking';

const noContext = { recentSenderIds: [], subscriberIds: null };
const names = (users: { full_name: string }[]) => users.map((u) => u.full_name);

describe('people offered for a mention', () => {
  const hamlet = eg.user({ user_id: 10, full_name: 'King Hamlet', email: 'hamlet@example.com' });
  const hamBot = eg.user({ user_id: 11, full_name: 'Hamlet Bot', is_bot: true });
  const abraham = eg.user({ user_id: 12, full_name: 'Abraham Lincoln' });
  const hamnet = eg.user({ user_id: 13, full_name: 'Hamnet' });
  const gone = eg.user({ user_id: 14, full_name: 'Hamish Gone', is_active: false });
  const muted = eg.user({ user_id: 15, full_name: 'Hamish Muted' });
  const everyone = [abraham, hamBot, gone, hamlet, hamnet, muted];

  it('puts word-prefix matches before substring matches, bots last, and leaves out the deactivated and muted', () => {
    const index = new PeopleIndex(everyone, new Set([15]));
    expect(names(index.rank('ham', noContext, 10))).toEqual([
      'Hamnet',
      'King Hamlet',
      'Abraham Lincoln',
      'Hamlet Bot',
    ]);
  });

  it('prefers people who spoke last in the conversation, then subscribers of the channel', () => {
    const index = new PeopleIndex(everyone);
    const context = { recentSenderIds: [10], subscriberIds: new Set([13, 12]) };
    expect(names(index.rank('ham', context, 10))).toEqual([
      'King Hamlet',
      'Hamnet',
      'Hamish Muted',
      'Abraham Lincoln',
      'Hamlet Bot',
    ]);
    // Relevance comes second to the quality of the match.
    const spoke = { recentSenderIds: [12], subscriberIds: null };
    expect(names(index.rank('ham', spoke, 2))).toEqual(['Hamish Muted', 'Hamnet']);
  });

  it('matches e-mail addresses, and an empty query lists everyone by relevance', () => {
    const index = new PeopleIndex(everyone);
    expect(names(index.rank('hamlet@', noContext, 5))).toEqual(['King Hamlet']);
    expect(names(index.rank('', { recentSenderIds: [13], subscriberIds: null }, 2))).toEqual([
      'Hamnet',
      'Abraham Lincoln',
    ]);
  });

  it('narrows its previous matches as the query grows, and starts over when it does not', () => {
    const index = new PeopleIndex(everyone);
    expect(names(index.rank('h', noContext, 10))).toHaveLength(5);
    expect(names(index.rank('haml', noContext, 10))).toEqual(['King Hamlet', 'Hamlet Bot']);
    expect(names(index.rank('ab', noContext, 10))).toEqual(['Abraham Lincoln']);
  });

  it('finds names two active people share', () => {
    const twin = eg.user({ full_name: 'king hamlet' });
    const formerTwin = eg.user({ full_name: 'Hamnet', is_active: false });
    expect(ambiguousNames([hamlet, twin, hamnet, formerTwin])).toEqual(new Set(['king hamlet']));
  });

  it('ranks 10,000 people, keeping only the best few', () => {
    const crowd = Array.from({ length: 10_000 }, (_, i) =>
      eg.user({
        user_id: 1000 + i,
        full_name: `Person ${String(i).padStart(5, '0')} ${i % 7 === 0 ? 'Hamilton' : 'Smith'}`,
        is_bot: i % 500 === 0,
      }),
    );
    const index = new PeopleIndex(crowd, new Set([1007]));
    const context = { recentSenderIds: [1000 + 9996], subscriberIds: new Set([1000 + 14]) };
    const result = index.rank('hamil', context, 8);
    expect(result).toHaveLength(8);
    expect(result.every((u) => u.full_name.endsWith('Hamilton') && !u.is_bot)).toBe(true);
    // The recent speaker, then the subscriber, then by name; muted #7 and bot #0 are out.
    expect(names(result).slice(0, 4)).toEqual([
      'Person 09996 Hamilton',
      'Person 00014 Hamilton',
      'Person 00021 Hamilton',
      'Person 00028 Hamilton',
    ]);
    // Typing on narrows the same set.
    expect(names(index.rank('hamilton', context, 3))).toEqual(names(result).slice(0, 3));
    expect(names(index.rank('person 0999', context, 20))).toHaveLength(10);
  });
});
