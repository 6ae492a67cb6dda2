/**
 * The compose box's fields (channel or direct, where to, and the message), started from the
 * draft left in this conversation and saved as a draft on every edit.
 */
import { useRef, useState } from 'react';
import {
  useOwnUserId,
  useServerDrafts,
  useSortedSubscriptions,
  useUserSetting,
} from '../../model/hooks';
import { narrowKey, type Narrow } from '../../narrow';
import { useSession } from '../../model/session-context';
import { initialFor, type ComposeMode } from './compose-target';
import { serverDraftFor } from './draft-sync';

interface RestoredDraft {
  topic: string;
  content: string;
  serverId: number | null;
}

/** What was left here before: this browser's copy, else (synchronised) the server's. */
function useRestoredDraft(narrow: Narrow, draftKey: string): RestoredDraft | null {
  const session = useSession();
  const ownUserId = useOwnUserId();
  const synced = useUserSetting('enable_drafts_synchronization') === true;
  const serverDrafts = useServerDrafts();
  const [restored] = useState(() => {
    const local = session.composeDrafts.getState().byConversation[draftKey];
    if (local && (!synced || local.serverId === undefined))
      return { topic: local.topic, content: local.content, serverId: null };
    if (local?.serverId !== undefined && serverDrafts[local.serverId])
      return { ...serverDrafts[local.serverId], serverId: local.serverId };
    // Synchronised, and its server copy was deleted elsewhere: it is gone.
    if (local) session.composeDrafts.getState().draftSent(draftKey);
    const found = synced ? serverDraftFor(serverDrafts, narrow, ownUserId) : null;
    return found
      ? { topic: found.topic, content: found.content, serverId: found.id ?? null }
      : null;
  });
  return restored;
}

export function useComposeFields(narrow: Narrow) {
  const session = useSession();
  const ownUserId = useOwnUserId();
  const subscriptions = useSortedSubscriptions();
  const draftKey = narrowKey(narrow);
  const restored = useRestoredDraft(narrow, draftKey);
  const initial = initialFor(narrow, ownUserId);
  const [mode, setMode] = useState<ComposeMode>(initial.mode);
  const [streamName, setStreamName] = useState(
    () => subscriptions.find((s) => s.stream_id === initial.streamId)?.name ?? '',
  );
  const [topic, setTopic] = useState(restored?.topic || initial.topic);
  const [recipients, setRecipients] = useState(initial.recipients);
  const [content, setContent] = useState(restored?.content ?? '');
  // The latest text, for what finishes later than the render that started it (uploads).
  const contentRef = useRef(content);
  contentRef.current = content;
  const stream =
    subscriptions.find((s) => s.name.toLowerCase() === streamName.trim().toLowerCase()) ?? null;

  const saveDraft = (next: { topic?: string; content?: string }) =>
    session.composeDrafts
      .getState()
      .draftEdited(draftKey, { topic: next.topic ?? topic, content: next.content ?? content });

  return {
    draftKey,
    restoredServerId: restored?.serverId ?? null,
    subscriptions,
    mode,
    setMode,
    streamName,
    setStreamName,
    stream,
    topic,
    setTopic,
    recipients,
    setRecipients,
    content,
    setContent,
    contentRef,
    saveDraft,
  };
}

export type ComposeFields = ReturnType<typeof useComposeFields>;
