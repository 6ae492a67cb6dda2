import { describe, expect, it } from 'vitest';
import { insertOnOwnLine, isRequestFor, useComposeRequests } from './compose-request';

describe('compose requests', () => {
  it('keeps the latest request until the compose box takes it', () => {
    const store = useComposeRequests;
    store.getState().request({ to: null, insert: 'a', focus: 'content' });
    store.getState().request({ to: null, insert: 'b', focus: 'content' });
    const latest = store.getState().latest;
    expect(latest?.insert).toBe('b');
    store.getState().taken(latest!.seq - 1);
    expect(store.getState().latest).toBe(latest);
    store.getState().taken(latest!.seq);
    expect(store.getState().latest).toBeNull();
  });

  it('is taken by the box it names, or by any box when it names none', () => {
    const request = { seq: 1, at: 0, to: null, insert: null, focus: 'content' } as const;
    expect(isRequestFor(request, 'topic:1:lunch')).toBe(true);
    expect(isRequestFor({ ...request, box: 'topic:1:lunch' }, 'topic:1:lunch')).toBe(true);
    expect(isRequestFor({ ...request, box: 'stream:4' }, 'topic:1:lunch')).toBe(false);
  });

  it('inserts a quote on a line of its own', () => {
    expect(insertOnOwnLine('', 0, 'Q')).toEqual({ text: 'Q', caret: 1 });
    expect(insertOnOwnLine('hi', 2, 'Q')).toEqual({ text: 'hi\nQ', caret: 4 });
    expect(insertOnOwnLine('ab', 1, 'Q')).toEqual({ text: 'a\nQ\nb', caret: 3 });
    expect(insertOnOwnLine('a\n', 2, 'Q')).toEqual({ text: 'a\nQ', caret: 3 });
  });
});
