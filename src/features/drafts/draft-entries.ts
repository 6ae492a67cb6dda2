/**
 * The drafts a person has: those the server keeps (when synchronised) and those kept only in this
 * browser, newest first. A local draft that has a server copy is listed once, as the server's.
 */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import type { Draft } from '../../api/model';
import type { ComposeDraft } from '../../model/compose-drafts';
import { useOwnUserId, useServerDrafts, useUserSetting } from '../../model/hooks';
import { dmNarrow, narrowFromKey, topicNarrow, type Narrow } from '../../narrow';
import { useSession } from '../../model/session-context';

export type DraftEntry =
  | { source: 'server'; id: number; narrow: Narrow | null; content: string; timestamp: number }
  | { source: 'local'; key: string; narrow: Narrow | null; content: string; timestamp: number };

export function draftEntries(
  local: Readonly<Record<string, ComposeDraft>>,
  server: Readonly<Record<number, Draft>>,
  synced: boolean,
  ownUserId: number,
): DraftEntry[] {
  const entries: DraftEntry[] = [];
  for (const draft of Object.values(server)) {
    if (draft.id === undefined || !draft.content.trim()) continue;
    entries.push({
      source: 'server',
      id: draft.id,
      narrow: narrowOfDraft(draft, ownUserId),
      content: draft.content,
      timestamp: (draft.timestamp ?? 0) * 1000,
    });
  }
  for (const [key, draft] of Object.entries(local)) {
    if (!draft.content.trim()) continue;
    // Its server copy is listed; or, synchronised, the server copy was deleted elsewhere.
    if (draft.serverId !== undefined && (draft.serverId in server || synced)) continue;
    entries.push({
      source: 'local',
      key,
      narrow: narrowFromKey(key),
      content: draft.content,
      timestamp: draft.timestamp ?? 0,
    });
  }
  return entries.sort((a, b) => b.timestamp - a.timestamp);
}

export function narrowOfDraft(draft: Draft, ownUserId?: number): Narrow | null {
  if (draft.type === 'stream' && draft.to.length === 1)
    return topicNarrow(draft.to[0], draft.topic);
  if (draft.type === 'private' && draft.to.length > 0) return dmNarrow(draft.to, ownUserId);
  return null;
}

export function useDraftEntries(): DraftEntry[] {
  const local = useStore(useSession().composeDrafts, (s) => s.byConversation);
  const server = useServerDrafts();
  const synced = useUserSetting('enable_drafts_synchronization') === true;
  const ownUserId = useOwnUserId();
  return useMemo(
    () => draftEntries(local, server, synced, ownUserId),
    [local, server, synced, ownUserId],
  );
}
