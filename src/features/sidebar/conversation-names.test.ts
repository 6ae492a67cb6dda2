import { describe, expect, it } from 'vitest';
import type { User } from '../../api/model';
import { dmConversationName } from './conversation-names';

const users = { 2: { full_name: 'Othello' }, 3: { full_name: 'Iago' } } as unknown as Record<
  number,
  User
>;

describe('conversation names', () => {
  it('names everyone, and muted people in groups as "Muted user"', () => {
    expect(dmConversationName([2, 3], users)).toBe('Othello, Iago');
    expect(dmConversationName([2, 3], users, { 3: 1700000000 })).toBe('Othello, Muted user');
    // One-on-one conversations with muted people are hidden, not renamed.
    expect(dmConversationName([3], users, { 3: 1700000000 })).toBe('Iago');
    expect(dmConversationName([9], users)).toBe('Unknown user');
  });
});
