import { describe, expect, it } from 'vitest';
import type { Draft } from '../../api/model';
import { draftEntries } from './draft-entries';

const server: Record<number, Draft> = {
  7: { id: 7, type: 'stream', to: [5], topic: 'lunch', content: 'from the server', timestamp: 200 },
  8: { id: 8, type: 'private', to: [3, 9], topic: '', content: 'dm', timestamp: 100 },
};

describe('draftEntries', () => {
  it('lists server and local drafts newest first, a synced local copy once', () => {
    const local = {
      'topic:5:lunch': { topic: 'lunch', content: 'local copy', serverId: 7, timestamp: 300_000 },
      'stream:6': { topic: 'x', content: 'only here', timestamp: 150_000 },
      'stream:7': { topic: '', content: '  ', timestamp: 400_000 },
    };
    const entries = draftEntries(local, server, true, 9);
    expect(entries.map((e) => [e.source, e.content])).toEqual([
      ['server', 'from the server'],
      ['local', 'only here'],
      ['server', 'dm'],
    ]);
    expect(entries[2].narrow).toEqual({ kind: 'dm', userIds: [3] });
  });

  it('hides a synced local copy whose server draft was deleted, unless sync is off', () => {
    const local = { 'topic:5:x': { topic: 'x', content: 'gone', serverId: 99, timestamp: 1 } };
    expect(draftEntries(local, {}, true, 9)).toEqual([]);
    expect(draftEntries(local, {}, false, 9).map((e) => e.content)).toEqual(['gone']);
  });
});
