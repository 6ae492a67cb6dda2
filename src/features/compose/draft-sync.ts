/**
 * Drafts kept by the server (when the user's `enable_drafts_synchronization` is on): what is
 * typed in compose is saved a moment after typing stops (created, then edited in place), deleted
 * when sent or emptied, and found again when the same conversation is reopened on any device.
 */
import { useEffect, useRef } from 'react';
import type { ApiConnection } from '../../api/connection';
import type { Draft } from '../../api/model';
import { createDrafts, deleteDraft, editDraft } from '../../api/routes/drafts';
import type { ComposeDraftsStore } from '../../model/compose-drafts';
import { useSessionCore } from '../../model/session-core';
import { dmParticipants, type Narrow } from '../../narrow';
import type { ComposeMode } from './compose-target';

/** How long typing must pause before the draft is saved to the server. */
export const DRAFT_SAVE_DELAY_MS = 1200;

export type DraftBody = Omit<Draft, 'id'>;

/** The server's form of what compose holds: its recipient as far as it is known. */
export function draftBody(fields: {
  mode: ComposeMode;
  streamId: number | null;
  topic: string;
  recipients: readonly number[];
  content: string;
}): DraftBody {
  const timestamp = Math.floor(Date.now() / 1000);
  if (fields.mode === 'direct')
    return fields.recipients.length
      ? {
          type: 'private',
          to: [...fields.recipients],
          topic: '',
          content: fields.content,
          timestamp,
        }
      : { type: '', to: [], topic: '', content: fields.content, timestamp };
  return fields.streamId === null
    ? { type: '', to: [], topic: '', content: fields.content, timestamp }
    : {
        type: 'stream',
        to: [fields.streamId],
        topic: fields.topic,
        content: fields.content,
        timestamp,
      };
}

/** The server draft for the conversation a narrow shows, the newest if there are several. */
export function serverDraftFor(
  drafts: Readonly<Record<number, Draft>>,
  narrow: Narrow,
  ownUserId: number,
): Draft | null {
  let found: Draft | null = null;
  for (const draft of Object.values(drafts)) {
    if (!draft.content.trim() || !draftMatches(draft, narrow, ownUserId)) continue;
    if (!found || (draft.timestamp ?? 0) > (found.timestamp ?? 0)) found = draft;
  }
  return found;
}

function draftMatches(draft: Draft, narrow: Narrow, ownUserId: number): boolean {
  if (narrow.kind === 'topic')
    return (
      draft.type === 'stream' &&
      draft.to[0] === narrow.streamId &&
      draft.topic.toLowerCase() === narrow.topic.toLowerCase()
    );
  if (narrow.kind === 'dm' && draft.type === 'private') {
    const ids = dmParticipants(draft.to, ownUserId);
    return ids.join(',') === narrow.userIds.join(',');
  }
  return false;
}

/** What a draft says, whenever it was edited. */
function signatureOf(draft: DraftBody): string {
  return JSON.stringify({ ...draft, timestamp: 0 });
}

interface SyncState {
  serverId: number | null;
  /** what was last written, so that an unchanged draft is not written again */
  written: string | null;
}

/**
 * One save of the draft: an emptied draft deletes the server's copy; a changed one edits it, or
 * creates it when there is none (or it was deleted elsewhere). `link` records the server's id.
 */
async function writeDraft(
  connection: ApiConnection,
  current: SyncState,
  draft: DraftBody,
  link: (serverId: number | null) => void,
): Promise<void> {
  if (!draft.content.trim()) {
    if (current.serverId !== null) {
      const id = current.serverId;
      current.serverId = null;
      current.written = null;
      link(null);
      await deleteDraft(connection, id);
    }
    return;
  }
  const key = signatureOf(draft);
  if (key === current.written) return;
  if (current.serverId !== null) {
    try {
      await editDraft(connection, current.serverId, { draft });
      current.written = key;
      return;
    } catch {
      // Deleted elsewhere: it is created again below.
      current.serverId = null;
    }
  }
  const { ids } = await createDrafts(connection, { drafts: [draft] });
  current.serverId = ids[0] ?? null;
  current.written = key;
  link(current.serverId);
}

/**
 * Saves compose's draft to the server while `enabled`. Returns `sent()`, which drops the pending
 * save and deletes the server's copy. Writes run one after another, so that a draft is created
 * once and then edited.
 */
export function useServerDraftSync({
  enabled,
  draftKey,
  composeDrafts,
  initialServerId,
  body,
}: {
  enabled: boolean;
  draftKey: string;
  composeDrafts: ComposeDraftsStore;
  initialServerId: number | null;
  body: DraftBody;
}): { sent(): void } {
  const { connection } = useSessionCore();
  // A draft restored from the server is already written as it stands.
  const state = useRef<SyncState>({
    serverId: initialServerId,
    written: initialServerId === null ? null : signatureOf(body),
  });
  const chain = useRef<Promise<void>>(Promise.resolve());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(body);
  latest.current = body;

  const run = (step: () => Promise<void>) => {
    chain.current = chain.current.then(step).catch(() => {
      // A failed save is tried again at the next edit; typing is never interrupted.
      state.current.written = null;
    });
  };

  const save = () => {
    timer.current = null;
    const draft = latest.current;
    run(() =>
      writeDraft(connection, state.current, draft, (serverId) =>
        composeDrafts.getState().draftLinked(draftKey, serverId),
      ),
    );
  };

  const signature = signatureOf(body);
  useEffect(() => {
    if (!enabled) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(save, DRAFT_SAVE_DELAY_MS);
    // save reads its inputs from refs
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature, enabled]);

  // Leaving the conversation saves at once what was still waiting.
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        save();
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  return {
    sent() {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      run(async () => {
        const id = state.current.serverId;
        state.current = { serverId: null, written: null };
        if (id !== null) await deleteDraft(connection, id);
      });
    },
  };
}
