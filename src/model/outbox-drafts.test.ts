import { describe, expect, it } from 'vitest';
import { createComposeDraftsStore, type KeyValueStorage } from './compose-drafts';
import { createOutboxStore } from './outbox';

class MemoryStorage implements KeyValueStorage {
  items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

describe('outbox', () => {
  const destination = { type: 'stream' as const, streamId: 5, topic: 'lunch' };

  it('tracks a send from start to echo', () => {
    const outbox = createOutboxStore();
    outbox.getState().sendStarted({ localId: 'a', destination, content: 'hi', timestamp: 1 });
    expect(outbox.getState().messages[0].status).toBe('waiting');
    outbox.getState().requestStarted('a');
    expect(outbox.getState().messages[0].status).toBe('sending');
    outbox.getState().requestInterrupted('a');
    expect(outbox.getState().messages[0]).toMatchObject({
      status: 'waiting',
      mayHaveArrived: true,
    });
    outbox.getState().requestStarted('a');
    outbox.getState().sendAccepted('a', 42);
    expect(outbox.getState().messages[0]).toMatchObject({ status: 'sent', messageId: 42 });
    outbox.getState().echoesArrived(['a']);
    expect(outbox.getState().messages).toEqual([]);
  });

  it('keeps failed sends for retry or cancel, and drops only accepted ones on a new queue', () => {
    const outbox = createOutboxStore();
    outbox.getState().sendStarted({ localId: 'a', destination, content: 'x', timestamp: 1 });
    outbox.getState().sendStarted({ localId: 'b', destination, content: 'y', timestamp: 2 });
    outbox.getState().sendFailed('a', 'offline');
    outbox.getState().sendAccepted('b', 7);
    outbox.getState().queueReplaced();
    expect(outbox.getState().messages.map((m) => [m.localId, m.status])).toEqual([['a', 'failed']]);
    outbox.getState().retryStarted('a');
    expect(outbox.getState().messages[0]).toMatchObject({ status: 'waiting', error: undefined });
    outbox.getState().sendCancelled('a');
    expect(outbox.getState().messages).toEqual([]);
  });

  it('takes back kept messages in the order they were written, once each', () => {
    const outbox = createOutboxStore();
    outbox.getState().sendStarted({ localId: 'm', destination, content: 'now', timestamp: 9 });
    const kept = (localId: string, timestamp: number) => ({
      localId,
      destination,
      content: localId,
      timestamp,
      status: 'waiting' as const,
    });
    outbox.getState().restored([kept('k2', 5), kept('k1', 5), kept('m', 9)]);
    expect(outbox.getState().messages.map((m) => m.localId)).toEqual(['k1', 'k2', 'm']);
  });
});

describe('compose drafts', () => {
  it('persists per conversation and survives a new store', () => {
    const storage = new MemoryStorage();
    const drafts = createComposeDraftsStore('me@example.com', storage);
    drafts.getState().draftEdited('topic:5:lunch', { topic: 'lunch', content: 'half' });
    const reloaded = createComposeDraftsStore('me@example.com', storage);
    expect(reloaded.getState().byConversation['topic:5:lunch']).toMatchObject({
      topic: 'lunch',
      content: 'half',
    });
    reloaded.getState().draftSent('topic:5:lunch');
    expect(createComposeDraftsStore('me@example.com', storage).getState().byConversation).toEqual(
      {},
    );
  });

  it('forgets a draft emptied by the user', () => {
    const drafts = createComposeDraftsStore('me@example.com', null);
    drafts.getState().draftEdited('stream:5', { topic: '', content: 'x' });
    drafts.getState().draftEdited('stream:5', { topic: '', content: '' });
    expect(drafts.getState().byConversation).toEqual({});
  });

  it('keeps the id of the server copy through edits, and forgets a draft deleted elsewhere', () => {
    const drafts = createComposeDraftsStore('me@example.com', null);
    drafts.getState().draftEdited('topic:5:lunch', { topic: 'lunch', content: 'ha' });
    drafts.getState().draftLinked('topic:5:lunch', 12);
    drafts.getState().draftEdited('topic:5:lunch', { topic: 'lunch', content: 'half' });
    expect(drafts.getState().byConversation['topic:5:lunch']).toMatchObject({
      content: 'half',
      serverId: 12,
    });
    drafts.getState().draftEdited('dm:3', { topic: '', content: 'hi' });
    drafts.getState().serverDraftDeleted(12);
    expect(Object.keys(drafts.getState().byConversation)).toEqual(['dm:3']);
  });
});
