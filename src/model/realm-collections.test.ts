import { describe, expect, it } from 'vitest';
import { eg } from '../test/eg';
import { alertWordsFromSnapshot, reduceAlertWords } from './alert-words';
import {
  defaultStreamsFromSnapshot,
  isDefaultStream,
  reduceDefaultStreams,
} from './default-streams';
import { linkifiersFromSnapshot, reduceLinkifiers } from './linkifiers';
import { activeEmojiNamed, realmEmojiFromSnapshot, reduceRealmEmoji } from './realm-emoji';
import { isUserMuted, mutedUsersFromSnapshot, reduceMutedUsers } from './muted-users';

const stream = (stream_id: number) => eg.stream({ stream_id, name: `s${stream_id}` });

describe('collections the server resends whole', () => {
  it('keeps default streams as ascending ids, whatever the order sent', () => {
    const state = defaultStreamsFromSnapshot(
      eg.registerResponse({ realm_default_streams: [stream(7), stream(3)] }),
    );
    expect(state.streamIds).toEqual([3, 7]);
    expect(isDefaultStream(state, 7)).toBe(true);
    const same = reduceDefaultStreams(state, {
      id: 1,
      type: 'default_streams',
      default_streams: [stream(3), stream(7)],
    });
    expect(same).toBe(state);
    const fewer = reduceDefaultStreams(state, {
      id: 2,
      type: 'default_streams',
      default_streams: [],
    });
    expect(fewer.streamIds).toEqual([]);
  });

  it('keeps default stream groups by id with their stream ids', () => {
    const group = { id: 4, name: 'starters', description: 'hi', streams: [stream(9), stream(2)] };
    const state = reduceDefaultStreams(defaultStreamsFromSnapshot(eg.registerResponse()), {
      id: 1,
      type: 'default_stream_groups',
      default_stream_groups: [group],
    });
    expect(state.groups).toEqual({
      4: { id: 4, name: 'starters', description: 'hi', streamIds: [2, 9] },
    });
    const again = reduceDefaultStreams(state, {
      id: 2,
      type: 'default_stream_groups',
      default_stream_groups: [{ ...group, streams: [stream(2), stream(9)] }],
    });
    expect(again).toBe(state);
  });

  it('replaces linkifiers in the order sent', () => {
    const a = { id: 1, pattern: 'a', url_template: 'https://a/' };
    const b = { id: 2, pattern: 'b', url_template: 'https://b/' };
    const state = linkifiersFromSnapshot(eg.registerResponse({ realm_linkifiers: [a, b] }));
    expect(
      reduceLinkifiers(state, { id: 1, type: 'realm_linkifiers', realm_linkifiers: [a, b] }),
    ).toBe(state);
    const reordered = reduceLinkifiers(state, {
      id: 2,
      type: 'realm_linkifiers',
      realm_linkifiers: [b, a],
    });
    expect(reordered.list.map((l) => l.id)).toEqual([2, 1]);
  });

  it('replaces alert words and muted users', () => {
    const words = alertWordsFromSnapshot(eg.registerResponse({ alert_words: ['ghost'] }));
    expect(reduceAlertWords(words, { id: 1, type: 'alert_words', alert_words: ['ghost'] })).toBe(
      words,
    );
    expect(
      reduceAlertWords(words, { id: 2, type: 'alert_words', alert_words: ['ghost', 'king'] }).words,
    ).toEqual(['ghost', 'king']);

    const muted = mutedUsersFromSnapshot(
      eg.registerResponse({ muted_users: [{ id: 2, timestamp: 5 }] }),
    );
    expect(isUserMuted(muted, 2)).toBe(true);
    const unmuted = reduceMutedUsers(muted, { id: 3, type: 'muted_users', muted_users: [] });
    expect(isUserMuted(unmuted, 2)).toBe(false);
    expect(reduceMutedUsers(unmuted, { id: 4, type: 'muted_users', muted_users: [] })).toBe(
      unmuted,
    );
  });

  it('replaces the custom emoji, keeping deactivated ones for old messages', () => {
    const tick = { id: '1', name: 'tick', source_url: '/e/1.png', deactivated: false };
    const state = realmEmojiFromSnapshot(eg.registerResponse({ realm_emoji: { 1: tick } }));
    expect(activeEmojiNamed(state, 'tick')).toEqual(tick);
    const update = (realm_emoji: Record<string, typeof tick>) =>
      reduceRealmEmoji(state, { id: 1, type: 'realm_emoji', op: 'update', realm_emoji });
    expect(update({ 1: { ...tick } })).toBe(state);
    const retired = update({ 1: { ...tick, deactivated: true } });
    expect(retired.byId[1].deactivated).toBe(true);
    expect(activeEmojiNamed(retired, 'tick')).toBeUndefined();
  });
});
