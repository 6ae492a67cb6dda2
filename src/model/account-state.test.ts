import { describe, expect, it } from 'vitest';
import { parseEvent } from '../api/parse-event';
import { eg } from '../test/eg';
import { accountStateFromSnapshot, reduceAccountEvent, reduceAccountEvents } from './account-state';
import { createAccountStore } from './account-store';

describe('reduceAccountEvent', () => {
  const initial = () => accountStateFromSnapshot(eg.registerResponse());

  it('returns the same state for heartbeats and unexpected events', () => {
    const state = initial();
    expect(reduceAccountEvent(state, parseEvent({ id: 1, type: 'heartbeat' }), 0)).toBe(state);
    expect(reduceAccountEvent(state, parseEvent({ id: 2, type: 'brand_new_thing' }), 0)).toBe(
      state,
    );
    expect(
      reduceAccountEvent(state, parseEvent({ id: 3, type: 'subscription', op: 'update' }), 0),
    ).toBe(state);
  });

  it('routes a message event to unreads and messages', () => {
    const message = eg.dmMessage({ id: 77, from: eg.otherUser, to: [eg.selfUser] });
    const state = reduceAccountEvents(initial(), [parseEvent(eg.messageEvent(message, []))], 0);
    expect(state.unreads.dms['2']).toEqual([77]);
    expect(state.messages.recentDms[0].user_ids).toEqual([2]);
  });
});

describe('reduceAccountEvent for organization and personal data', () => {
  const initial = () => accountStateFromSnapshot(eg.registerResponse());

  it('routes each event to its own part of the state, leaving the others alone', () => {
    const state = initial();
    const cases: [Record<string, unknown>, keyof typeof state][] = [
      [{ type: 'alert_words', alert_words: ['ghost'] }, 'alertWords'],
      [{ type: 'muted_users', muted_users: [{ id: 2, timestamp: 1 }] }, 'mutedUsers'],
      [
        {
          type: 'user_topic',
          stream_id: 5,
          topic_name: 't',
          last_updated: 1,
          visibility_policy: 3,
        },
        'userTopics',
      ],
      [{ type: 'default_streams', default_streams: [eg.generalStream] }, 'defaultStreams'],
      [
        {
          type: 'realm_linkifiers',
          realm_linkifiers: [{ id: 1, pattern: 'x', url_template: 'y' }],
        },
        'linkifiers',
      ],
      [
        { type: 'presence', presences: { 2: { active_timestamp: 1, idle_timestamp: 1 } } },
        'presence',
      ],
      [
        {
          type: 'user_group',
          op: 'add',
          group: { id: 4, name: 'g', members: [], direct_subgroup_ids: [] },
        },
        'userGroups',
      ],
    ];
    for (const [raw, part] of cases) {
      const next = reduceAccountEvent(state, parseEvent({ id: 1, ...raw }), 0);
      expect(next[part], part).not.toBe(state[part]);
      for (const other of Object.keys(state) as (keyof typeof state)[])
        if (other !== part) expect(next[other], `${part} left ${other} alone`).toBe(state[other]);
    }
  });

  it('keeps the state for events that live outside it', () => {
    const state = initial();
    const outside = [
      { type: 'invites_changed' },
      { type: 'realm_filters', realm_filters: [] },
      { type: 'realm', op: 'deactivated', realm_id: 1 },
      {
        type: 'reaction',
        op: 'add',
        message_id: 1,
        user_id: 2,
        emoji_code: '1f419',
        emoji_name: 'octopus',
        reaction_type: 'unicode_emoji',
      },
    ];
    for (const raw of outside)
      expect(reduceAccountEvent(state, parseEvent({ id: 1, ...raw }), 0)).toBe(state);
  });
});

describe('parseEvent', () => {
  it('turns malformed payloads into unexpected events', () => {
    expect(parseEvent({ id: 1, type: 'message' }).type).toBe('unexpected');
    expect(
      parseEvent({ id: 1, type: 'update_message_flags', op: 'add', flag: 'read', messages: ['x'] })
        .type,
    ).toBe('unexpected');
    expect(parseEvent('nonsense')).toMatchObject({ type: 'unexpected', id: -1 });
  });

  it('normalises single-message deletions and legacy private typing', () => {
    expect(
      parseEvent({ id: 1, type: 'delete_message', message_id: 5, message_type: 'stream' }),
    ).toMatchObject({ message_ids: [5] });
    const typing = parseEvent({
      id: 2,
      type: 'typing',
      op: 'start',
      message_type: 'private',
      sender: { user_id: 2, email: 'x' },
      recipients: [],
    });
    expect(typing).toMatchObject({ message_type: 'direct' });
  });
});

describe('account store', () => {
  it('applies events and keeps the same state object for no-ops', () => {
    const store = createAccountStore(eg.registerResponse(), () => 0);
    const before = store.getState();
    store.getState().eventsReceived([parseEvent({ id: 1, type: 'heartbeat' })]);
    expect(store.getState()).toBe(before);
    store.getState().eventsReceived([
      parseEvent({
        id: 2,
        type: 'user_settings',
        op: 'update',
        property: 'enter_sends',
        value: false,
      }),
    ]);
    expect(store.getState().settings.enter_sends).toBe(false);
  });

  it('applies local read flags optimistically', () => {
    const register = eg.registerResponse({
      unread_msgs: {
        count: 1,
        pms: [],
        huddles: [],
        mentions: [],
        old_unreads_missing: false,
        streams: [{ stream_id: 5, topic: 'lunch', unread_message_ids: [9] }],
      },
    });
    const store = createAccountStore(register);
    store.getState().flagsChangedLocally({ op: 'add', flag: 'read', messages: [9], all: false });
    expect(store.getState().unreads.streams).toEqual({});
  });
});
