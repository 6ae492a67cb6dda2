/** Drafts the server keeps for the user, by id. Compose-box text lives elsewhere (compose-drafts). */
import type { Draft, DraftsEvent } from '../api/model';

export interface DraftsState {
  byId: Readonly<Record<number, Draft>>;
}

export function draftsFromSnapshot(drafts: Draft[] = []): DraftsState {
  const byId: Record<number, Draft> = {};
  for (const draft of drafts) if (draft.id !== undefined) byId[draft.id] = draft;
  return { byId };
}

export function reduceDrafts(state: DraftsState, event: DraftsEvent): DraftsState {
  switch (event.op) {
    case 'add': {
      const byId = { ...state.byId };
      for (const draft of event.drafts) if (draft.id !== undefined) byId[draft.id] = draft;
      return { byId };
    }
    case 'update':
      if (event.draft.id === undefined) return state;
      return { byId: { ...state.byId, [event.draft.id]: event.draft } };
    case 'remove': {
      if (!(event.draft_id in state.byId)) return state;
      const byId = { ...state.byId };
      delete byId[event.draft_id];
      return { byId };
    }
  }
}

/** Most recently edited first. */
export function sortedDrafts(state: DraftsState): Draft[] {
  return Object.values(state.byId).sort((a, b) => (b.timestamp ?? 0) - (a.timestamp ?? 0));
}
