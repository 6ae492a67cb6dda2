import { describe, expect, it } from 'vitest';
import { parseEvent } from './parse-event';

const stream = { stream_id: 5, name: 'general' };

/** One well-formed example of every event type the server sends besides the message family. */
const wellFormed: Record<string, Record<string, unknown>[]> = {
  user_group: [
    { op: 'add', group: { id: 9, name: 'g', members: [1], direct_subgroup_ids: [] } },
    { op: 'update', group_id: 9, data: { name: 'h' } },
    { op: 'add_members', group_id: 9, user_ids: [2] },
    { op: 'remove_subgroups', group_id: 9, direct_subgroup_ids: [3] },
    { op: 'remove', group_id: 9 },
  ],
  realm_linkifiers: [{ realm_linkifiers: [{ id: 1, pattern: 'x', url_template: 'y' }] }],
  realm_filters: [{ realm_filters: [] }],
  default_streams: [{ default_streams: [stream] }],
  default_stream_groups: [
    { default_stream_groups: [{ id: 1, name: 'n', description: '', streams: [stream] }] },
  ],
  user_topic: [{ stream_id: 5, topic_name: 't', last_updated: 1, visibility_policy: 1 }],
  presence: [
    { user_id: 2, email: 'x', presence: { website: { status: 'active', timestamp: 10 } } },
    { presences: { 2: { active_timestamp: 10, idle_timestamp: 10 } } },
  ],
  custom_profile_fields: [{ fields: [{ id: 1, name: 'Office', type: 1 }] }],
  alert_words: [{ alert_words: ['ghost'] }],
  muted_users: [{ muted_users: [{ id: 2, timestamp: 1 }] }],
  realm_bot: [
    { op: 'update', bot: { user_id: 8, is_active: false } },
    {
      op: 'update',
      bot: { user_id: 8, services: [{ base_url: 'https://x.test/', interface: 1, token: 't' }] },
    },
    { op: 'delete', bot: { user_id: 8 } },
  ],
  scheduled_messages: [
    {
      op: 'add',
      scheduled_messages: [
        { scheduled_message_id: 1, type: 'stream', scheduled_delivery_timestamp: 5 },
      ],
    },
    { op: 'remove', scheduled_message_id: 1 },
  ],
  realm_emoji: [
    {
      op: 'update',
      realm_emoji: { 1: { id: '1', name: 'tick', source_url: '/e/1.png', deactivated: false } },
    },
  ],
  reaction: [{ op: 'add', message_id: 1, user_id: 2, emoji_code: '1f419', emoji_name: 'x' }],
  invites_changed: [{}],
  realm: [{ op: 'deactivated', realm_id: 1 }],
};

describe('parseEvent for the organization and personal event types', () => {
  it('accepts every well-formed event as its own type', () => {
    for (const [type, examples] of Object.entries(wellFormed))
      for (const example of examples)
        expect(parseEvent({ id: 1, type, ...example }).type, JSON.stringify(example)).toBe(type);
  });

  it('turns payloads the reducers could not read into unexpected events', () => {
    const malformed = [
      { type: 'user_group', op: 'add_members', group_id: 9, user_ids: ['2'] },
      { type: 'user_group', op: 'rename', group_id: 9 },
      { type: 'user_topic', stream_id: 5, topic_name: 't', visibility_policy: 7 },
      { type: 'presence', user_id: 2, presence: { website: { status: 'active' } } },
      { type: 'alert_words', alert_words: [1] },
      { type: 'realm_emoji', op: 'update', realm_emoji: { 1: { id: 1, name: 'tick' } } },
      { type: 'realm_bot', op: 'update', bot: {} },
      { type: 'realm_bot', op: 'update', bot: { user_id: 8, services: 'https://x.test/' } },
      { type: 'scheduled_messages', op: 'update', scheduled_message: { type: 'stream' } },
      { type: 'default_streams', default_streams: [{ name: 'no id' }] },
      { type: 'realm_user', op: 'update', person: { user_id: 2, custom_profile_field: {} } },
    ];
    for (const raw of malformed)
      expect(parseEvent({ id: 1, ...raw }).type, JSON.stringify(raw)).toBe('unexpected');
  });

  it('names the reacting user by user_id even where only the old user object came', () => {
    const event = parseEvent({
      id: 1,
      type: 'reaction',
      op: 'remove',
      message_id: 4,
      user: { user_id: 7, email: 'x', full_name: 'X' },
      emoji_code: '1f419',
      emoji_name: 'octopus',
      reaction_type: 'unicode_emoji',
    });
    expect(event).toMatchObject({ type: 'reaction', user_id: 7 });
  });
});
