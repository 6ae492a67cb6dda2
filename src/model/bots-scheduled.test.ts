import { describe, expect, it } from 'vitest';
import type { Bot, ScheduledMessage } from '../api/model';
import { eg } from '../test/eg';
import { botsFromSnapshot, botsOwnedBy, reduceBots } from './bots';
import {
  reduceScheduledMessages,
  scheduledMessagesFromSnapshot,
  sortedScheduledMessages,
} from './scheduled-messages';

const bot = (overrides: Partial<Bot> & { user_id: number }): Bot => ({
  full_name: `Bot ${overrides.user_id}`,
  email: `bot${overrides.user_id}@example.com`,
  bot_type: 1,
  owner_id: eg.selfUser.user_id,
  is_active: true,
  default_sending_stream: null,
  default_events_register_stream: null,
  default_all_public_streams: false,
  services: [],
  ...overrides,
});

describe('bots', () => {
  const initial = () =>
    botsFromSnapshot(eg.registerResponse({ realm_bots: [bot({ user_id: 8, full_name: 'Zed' })] }));

  it('adds, updates, deactivates and deletes bots', () => {
    let state = reduceBots(initial(), {
      id: 1,
      type: 'realm_bot',
      op: 'add',
      bot: bot({ user_id: 9, full_name: 'Alf' }),
    });
    expect(botsOwnedBy(state, eg.selfUser.user_id).map((b) => b.full_name)).toEqual(['Alf', 'Zed']);
    state = reduceBots(state, {
      id: 2,
      type: 'realm_bot',
      op: 'update',
      bot: { user_id: 8, is_active: false, full_name: 'Zed II' },
    });
    expect(state.byId[8]).toMatchObject({ is_active: false, full_name: 'Zed II', bot_type: 1 });
    state = reduceBots(state, { id: 3, type: 'realm_bot', op: 'remove', bot: { user_id: 9 } });
    expect(state.byId[9].is_active).toBe(false);
    state = reduceBots(state, { id: 4, type: 'realm_bot', op: 'delete', bot: { user_id: 9 } });
    expect(state.byId[9]).toBeUndefined();
  });

  it('returns the same state for updates that change nothing or name an unknown bot', () => {
    const state = initial();
    expect(
      reduceBots(state, {
        id: 1,
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: 8, is_active: true },
      }),
    ).toBe(state);
    expect(
      reduceBots(state, {
        id: 1,
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: 77, is_active: false },
      }),
    ).toBe(state);
  });
});

describe("an outgoing webhook bot's services", () => {
  const service = { base_url: 'https://ci.example.com/parley', interface: 1, token: 'tok' };
  const initial = () =>
    botsFromSnapshot(
      eg.registerResponse({ realm_bots: [bot({ user_id: 8, bot_type: 3, services: [service] })] }),
    );

  it('takes a new URL and interface from an update event', () => {
    const state = reduceBots(initial(), {
      id: 1,
      type: 'realm_bot',
      op: 'update',
      bot: {
        user_id: 8,
        services: [{ base_url: 'https://new.example.com/', interface: 2, token: 'tok' }],
      },
    });
    expect(state.byId[8].services).toEqual([
      { base_url: 'https://new.example.com/', interface: 2, token: 'tok' },
    ]);
    expect(state.byId[8]).toMatchObject({ bot_type: 3, full_name: 'Bot 8' });
  });

  it('returns the same state when the services are those the bot has', () => {
    const state = initial();
    expect(
      reduceBots(state, {
        id: 1,
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: 8, services: [{ ...service }] },
      }),
    ).toBe(state);
  });
});

describe('scheduled messages', () => {
  const scheduled = (id: number, at: number): ScheduledMessage => ({
    scheduled_message_id: id,
    type: 'stream',
    to: 5,
    topic: 'later',
    content: `message ${id}`,
    rendered_content: `<p>message ${id}</p>`,
    scheduled_delivery_timestamp: at,
    failed: false,
  });

  it('adds, edits and removes, listing the soonest first', () => {
    let state = scheduledMessagesFromSnapshot(
      eg.registerResponse({ scheduled_messages: [scheduled(1, 300)] }),
    );
    state = reduceScheduledMessages(state, {
      id: 1,
      type: 'scheduled_messages',
      op: 'add',
      scheduled_messages: [scheduled(2, 200)],
    });
    expect(sortedScheduledMessages(state).map((m) => m.scheduled_message_id)).toEqual([2, 1]);
    state = reduceScheduledMessages(state, {
      id: 2,
      type: 'scheduled_messages',
      op: 'update',
      scheduled_message: { ...scheduled(2, 400), failed: true },
    });
    expect(sortedScheduledMessages(state).map((m) => m.scheduled_message_id)).toEqual([1, 2]);
    expect(state.byId[2].failed).toBe(true);
    state = reduceScheduledMessages(state, {
      id: 3,
      type: 'scheduled_messages',
      op: 'remove',
      scheduled_message_id: 1,
    });
    expect(Object.keys(state.byId)).toEqual(['2']);
  });

  it('does not bring back a message that was already delivered', () => {
    const state = scheduledMessagesFromSnapshot(eg.registerResponse());
    const update = {
      id: 1,
      type: 'scheduled_messages',
      op: 'update',
      scheduled_message: scheduled(5, 100),
    } as const;
    expect(reduceScheduledMessages(state, update)).toBe(state);
  });
});
