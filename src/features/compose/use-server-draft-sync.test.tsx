import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createComposeDraftsStore } from '../../model/compose-drafts';
import { fakeSession } from '../../test/fake-session';
import { DRAFT_SAVE_DELAY_MS, useServerDraftSync, type DraftBody } from './draft-sync';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

const body = (content: string): DraftBody => ({
  type: 'stream',
  to: [5],
  topic: 'lunch',
  content,
  timestamp: 1,
});

describe('useServerDraftSync', () => {
  it('creates the draft once typing pauses, then edits it, and deletes it when sent', async () => {
    const { fake, wrapper } = fakeSession();
    const composeDrafts = createComposeDraftsStore('me', null);
    composeDrafts.getState().draftEdited('topic:5:lunch', { topic: 'lunch', content: 'Hel' });
    const { result, rerender } = renderHook(
      ({ content }: { content: string }) =>
        useServerDraftSync({
          enabled: true,
          draftKey: 'topic:5:lunch',
          composeDrafts,
          initialServerId: null,
          body: body(content),
        }),
      { wrapper, initialProps: { content: 'Hel' } },
    );
    rerender({ content: 'Hello' });
    fake.respond({ ids: [42] });
    act(() => vi.advanceTimersByTime(DRAFT_SAVE_DELAY_MS));
    await vi.waitFor(() =>
      expect(composeDrafts.getState().byConversation['topic:5:lunch']?.serverId).toBe(42),
    );
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].method).toBe('POST');
    expect(JSON.parse(fake.requests[0].body.get('drafts')!)[0]).toMatchObject({
      type: 'stream',
      to: [5],
      content: 'Hello',
    });

    rerender({ content: 'Hello there' });
    fake.respond({});
    act(() => vi.advanceTimersByTime(DRAFT_SAVE_DELAY_MS));
    await vi.waitFor(() => expect(fake.requests).toHaveLength(2));
    expect(fake.requests[1]).toMatchObject({ method: 'PATCH', path: '/api/v1/drafts/42' });

    fake.respond({});
    act(() => result.current.sent());
    await vi.waitFor(() => expect(fake.requests).toHaveLength(3));
    expect(fake.requests[2]).toMatchObject({ method: 'DELETE', path: '/api/v1/drafts/42' });
  });

  it('writes nothing while synchronisation is off', () => {
    const { fake, wrapper } = fakeSession();
    const composeDrafts = createComposeDraftsStore('me', null);
    renderHook(
      () =>
        useServerDraftSync({
          enabled: false,
          draftKey: 'topic:5:lunch',
          composeDrafts,
          initialServerId: null,
          body: body('Hello'),
        }),
      { wrapper },
    );
    act(() => vi.advanceTimersByTime(DRAFT_SAVE_DELAY_MS * 2));
    expect(fake.requests).toHaveLength(0);
  });
});
