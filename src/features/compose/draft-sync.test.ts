import { describe, expect, it } from 'vitest';
import type { Draft } from '../../api/model';
import { draftBody, serverDraftFor } from './draft-sync';

describe('draftBody', () => {
  it('names the recipient as far as compose knows it', () => {
    const base = { topic: 'lunch', recipients: [3], content: 'hi' };
    expect(draftBody({ ...base, mode: 'stream', streamId: 5 })).toMatchObject({
      type: 'stream',
      to: [5],
      topic: 'lunch',
      content: 'hi',
    });
    expect(draftBody({ ...base, mode: 'stream', streamId: null })).toMatchObject({
      type: '',
      to: [],
    });
    expect(draftBody({ ...base, mode: 'direct', streamId: 5 })).toMatchObject({
      type: 'private',
      to: [3],
      topic: '',
    });
  });
});

describe('serverDraftFor', () => {
  const drafts: Record<number, Draft> = {
    1: { id: 1, type: 'stream', to: [5], topic: 'Lunch', content: 'older', timestamp: 10 },
    2: { id: 2, type: 'stream', to: [5], topic: 'lunch', content: 'newer', timestamp: 20 },
    3: { id: 3, type: 'private', to: [4, 3], topic: '', content: 'dm', timestamp: 5 },
    4: { id: 4, type: 'stream', to: [5], topic: 'empty', content: ' ', timestamp: 30 },
  };
  it('finds the newest draft of the same topic or direct-message group', () => {
    expect(serverDraftFor(drafts, { kind: 'topic', streamId: 5, topic: 'lunch' }, 9)?.id).toBe(2);
    expect(serverDraftFor(drafts, { kind: 'dm', userIds: [3, 4] }, 9)?.id).toBe(3);
    expect(serverDraftFor(drafts, { kind: 'dm', userIds: [3] }, 9)).toBeNull();
    expect(serverDraftFor(drafts, { kind: 'topic', streamId: 5, topic: 'empty' }, 9)).toBeNull();
    expect(serverDraftFor(drafts, { kind: 'stream', streamId: 5 }, 9)).toBeNull();
  });
});
