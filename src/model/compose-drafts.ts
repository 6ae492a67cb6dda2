/**
 * What the user has typed in the compose box, per conversation, kept in localStorage so that
 * neither a lost queue nor a reload loses it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

export interface ComposeDraft {
  topic: string;
  content: string;
  /** the id of the server's copy, when drafts are synchronised */
  serverId?: number;
  /** when last edited, in milliseconds since the epoch */
  timestamp?: number;
}

export interface ComposeDraftsState {
  byConversation: Readonly<Record<string, ComposeDraft>>;
  draftEdited(conversationKey: string, draft: ComposeDraft): void;
  draftSent(conversationKey: string): void;
  /** Records the id of the server's copy of a conversation's draft (null: there is none). */
  draftLinked(conversationKey: string, serverId: number | null): void;
  /** Forgets the local copy of a server draft that was deleted. */
  serverDraftDeleted(serverId: number): void;
}

export type ComposeDraftsStore = StoreApi<ComposeDraftsState>;

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

function load(storage: KeyValueStorage | null, key: string): Record<string, ComposeDraft> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(key) ?? '{}');
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, ComposeDraft>)
      : {};
  } catch {
    return {};
  }
}

export function createComposeDraftsStore(
  accountKey: string,
  storage: KeyValueStorage | null,
): ComposeDraftsStore {
  const storageKey = `parley.compose-drafts.${accountKey}`;
  const store = createStore<ComposeDraftsState>()((set, get) => ({
    byConversation: load(storage, storageKey),
    draftEdited(conversationKey, draft) {
      const current = get().byConversation[conversationKey];
      if (current?.topic === draft.topic && current?.content === draft.content) return;
      const { [conversationKey]: _old, ...rest } = get().byConversation;
      const empty = draft.content.trim() === '' && draft.topic.trim() === '';
      const next: ComposeDraft = {
        topic: draft.topic,
        content: draft.content,
        timestamp: draft.timestamp ?? Date.now(),
        ...(current?.serverId !== undefined ? { serverId: current.serverId } : {}),
      };
      set({ byConversation: empty ? rest : { ...rest, [conversationKey]: next } });
    },
    draftLinked(conversationKey, serverId) {
      const current = get().byConversation[conversationKey];
      if (!current || current.serverId === (serverId ?? undefined)) return;
      const { serverId: _old, ...draft } = current;
      set({
        byConversation: {
          ...get().byConversation,
          [conversationKey]: serverId === null ? draft : { ...draft, serverId },
        },
      });
    },
    serverDraftDeleted(serverId) {
      const entries = Object.entries(get().byConversation);
      const kept = entries.filter(([, draft]) => draft.serverId !== serverId);
      if (kept.length !== entries.length) set({ byConversation: Object.fromEntries(kept) });
    },
    draftSent(conversationKey) {
      if (!(conversationKey in get().byConversation)) return;
      const { [conversationKey]: _sent, ...rest } = get().byConversation;
      set({ byConversation: rest });
    },
  }));
  store.subscribe((state) => {
    try {
      storage?.setItem(storageKey, JSON.stringify(state.byConversation));
    } catch {
      // A full or unavailable storage must not break typing.
    }
  });
  return store;
}
