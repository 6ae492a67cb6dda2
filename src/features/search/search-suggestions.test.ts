import { describe, expect, it } from 'vitest';
import type { SearchDirectory } from './search-query';
import type { SearchPill } from './search-pills';
import {
  matchPeople,
  peopleIndex,
  suggest,
  typingTopic,
  type SuggestionContext,
} from './search-suggestions';

const directory: SearchDirectory = {
  ownUserId: 1,
  users: {
    1: { user_id: 1, full_name: 'King Hamlet', email: 'hamlet@example.com' },
    12: { user_id: 12, full_name: 'Othello, the Moor of Venice', email: 'othello@example.com' },
    13: { user_id: 13, full_name: 'Cordelia, Lear’s daughter', email: 'cordelia@example.com' },
  },
  streams: {
    5: { stream_id: 5, name: 'general' },
    7: { stream_id: 7, name: 'design team' },
    8: { stream_id: 8, name: 'engineering' },
  },
};

const context: SuggestionContext = {
  directory,
  people: peopleIndex(directory.users),
  topicsOf: (streamId) => (streamId === 5 ? ['lunch plans', 'greetings'] : []),
};

const channelPill: SearchPill = { operator: 'channel', operand: 'general', negated: false };

const texts = (typed: string) => suggest(typed, context).map((s) => s.text);

describe('suggest', () => {
  it('offers the text itself first, then operators a word may begin', () => {
    expect(texts('s')).toEqual(['s', 'sender:']);
    expect(texts('-s')).toEqual(['-s', '-sender:']);
    expect(texts('lunch d')).toEqual(['lunch d', 'lunch dm:', 'lunch dm-including:']);
  });

  it('offers the values of is: and has:', () => {
    expect(texts('is:')).toEqual([
      'is:starred ',
      'is:unread ',
      'is:mentioned ',
      'is:alerted ',
      'is:resolved ',
      'is:followed ',
      'is:dm ',
    ]);
    expect(texts('has:i')).toEqual(['has:i', 'has:image ']);
  });

  it('offers people by name or email after sender: and dm:, with their avatar', () => {
    const [, othello] = suggest('sender:oth', context);
    expect(othello).toMatchObject({
      kind: 'complete',
      text: 'sender:othello@example.com ',
      label: 'Othello, the Moor of Venice',
      detail: 'othello@example.com',
      userId: 12,
    });
    expect(texts('-from:moor')).toEqual(['-from:moor', '-sender:othello@example.com ']);
    expect(texts('dm:hamlet@example.com,cor')).toEqual([
      'dm:hamlet@example.com,cor',
      'dm:hamlet@example.com,cordelia@example.com ',
    ]);
  });

  it('offers channels, and topics of the channel named before', () => {
    expect(texts('channel:de')).toEqual(['channel:de', 'channel:"design team" ']);
    expect(texts('channel:general topic:lu')).toEqual([
      'channel:general topic:lu',
      'channel:general topic:"lunch plans" ',
    ]);
  });

  it('offers the chosen channel’s topics after topic:, those starting with the text first', () => {
    const withGeneral = { ...context, pills: [channelPill] };
    const topics = (typed: string) => suggest(typed, withGeneral).map((s) => s.text);
    expect(topics('topic:')).toEqual(['topic:"lunch plans" ', 'topic:greetings ']);
    expect(topics('topic:GR')).toEqual(['topic:GR', 'topic:greetings ']);
    expect(topics('topic:plan')).toEqual(['topic:plan', 'topic:"lunch plans" ']);
    // Those starting with the text before those holding it, each newest first.
    const many = { ...withGeneral, topicsOf: () => ['deploy plans', 'plans', 'old plans'] };
    expect(suggest('topic:plan', many).map((s) => s.text)).toEqual([
      'topic:plan',
      'topic:plans ',
      'topic:"deploy plans" ',
      'topic:"old plans" ',
    ]);
    expect(suggest('topic:', withGeneral)[0]).toMatchObject({ label: 'lunch plans' });
  });

  it('offers recent conversations’ topics without a channel, adding the channel too', () => {
    const recent: SuggestionContext = {
      ...context,
      recentTopics: [
        { streamId: 8, topic: 'deploys' },
        { streamId: 7, topic: 'logo' },
        { streamId: 5, topic: 'dessert' },
        { streamId: 99, topic: 'unknown channel' },
      ],
    };
    expect(suggest('topic:', recent).map((s) => [s.text, 'detail' in s && s.detail])).toEqual([
      ['channel:engineering topic:deploys ', 'topic in #engineering'],
      ['channel:"design team" topic:logo ', 'topic in #design team'],
      ['channel:general topic:dessert ', 'topic in #general'],
    ]);
    expect(suggest('lunch topic:de', recent).map((s) => s.text)).toEqual([
      'lunch topic:de',
      'lunch channel:engineering topic:deploys ',
      'lunch channel:general topic:dessert ',
    ]);
    // An excluded topic reads on its own.
    expect(suggest('-topic:log', recent).map((s) => s.text)).toEqual([
      '-topic:log',
      '-topic:logo ',
    ]);
    // A channel chosen before wins over the recent conversations.
    expect(suggest('channel:general topic:', recent).map((s) => s.text)).toEqual([
      'channel:general topic:"lunch plans" ',
      'channel:general topic:greetings ',
    ]);
  });

  it('knows when a topic is being typed', () => {
    expect(typingTopic('channel:general topic:')).toBe(true);
    expect(typingTopic('-subject:lu')).toBe(true);
    expect(typingTopic('topic:lunch ')).toBe(false);
    expect(typingTopic('lunch')).toBe(false);
  });

  it('stops at eight suggestions and stays quick with ten thousand people', () => {
    const many: Record<number, SearchDirectory['users'][number]> = {};
    for (let i = 1; i <= 10_000; i++)
      many[i] = { user_id: i, full_name: `Person ${i}`, email: `p${i}@example.com` };
    const index = peopleIndex(many);
    const start = performance.now();
    for (let i = 0; i < 20; i++) matchPeople(index, 'person 99', 8);
    expect((performance.now() - start) / 20).toBeLessThan(20);
    expect(
      suggest('sender:', { ...context, people: index, directory: { ...directory, users: many } }),
    ).toHaveLength(8);
  });
});
