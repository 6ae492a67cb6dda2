import { describe, expect, it } from 'vitest';
import type { UserStatusEvent } from '../api/model';
import { parseEvent } from '../api/parse-event';
import { eg } from '../test/eg';
import { reduceUserStatus, statusOf, userStatusFromSnapshot } from './user-status';

const event = (change: Omit<UserStatusEvent, 'id' | 'type'>): UserStatusEvent => ({
  id: 1,
  type: 'user_status',
  ...change,
});

const initial = () =>
  userStatusFromSnapshot(
    eg.registerResponse({
      user_status: {
        2: {
          status_text: 'Lunch',
          emoji_name: 'food',
          emoji_code: '1f372',
          reaction_type: 'unicode_emoji',
        },
        3: { away: true },
      },
    }),
  );

describe('user status', () => {
  it('reads the snapshot by user id', () => {
    const state = initial();
    expect(statusOf(state, 2)).toEqual({
      status_text: 'Lunch',
      emoji_name: 'food',
      emoji_code: '1f372',
      reaction_type: 'unicode_emoji',
    });
    expect(statusOf(state, 3)).toEqual({ away: true });
    expect(statusOf(state, 4)).toEqual({});
  });

  it('changes only the parts an event names', () => {
    const state = reduceUserStatus(initial(), event({ user_id: 2, status_text: 'Back soon' }));
    expect(statusOf(state, 2)).toMatchObject({ status_text: 'Back soon', emoji_name: 'food' });
    const away = reduceUserStatus(state, event({ user_id: 2, away: true }));
    expect(statusOf(away, 2)).toMatchObject({ away: true, status_text: 'Back soon' });
  });

  it('clears parts with empty strings and forgets an empty status', () => {
    const state = reduceUserStatus(
      initial(),
      event({ user_id: 2, status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' }),
    );
    expect(state.byUserId[2]).toBeUndefined();
    const back = reduceUserStatus(initial(), event({ user_id: 3, away: false }));
    expect(back.byUserId[3]).toBeUndefined();
  });

  it('returns the same state when nothing changes', () => {
    const state = initial();
    expect(reduceUserStatus(state, event({ user_id: 3, away: true }))).toBe(state);
  });

  it('parses the event, and refuses one without a user', () => {
    expect(parseEvent({ id: 5, type: 'user_status', user_id: 2, status_text: 'Hi' }).type).toBe(
      'user_status',
    );
    expect(parseEvent({ id: 5, type: 'user_status', status_text: 'Hi' }).type).toBe('unexpected');
  });
});
