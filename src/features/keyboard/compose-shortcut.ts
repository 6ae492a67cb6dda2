/**
 * What C and X ask of the compose box, as in the reference app: where the message goes, which
 * field gets the cursor, and which view's compose box takes the request (a view without one,
 * such as the Inbox, first goes to a view that has one).
 */
import type { Message } from '../../api/model';
import type { ComposeRequest, ComposeTo } from '../../model/compose-request';
import { feedNarrow, narrowKey, streamNarrow, type Narrow } from '../../narrow';

export interface ComposeShortcut {
  /** the view to go to first; null stays in the view on screen */
  open: Narrow | null;
  request: Omit<ComposeRequest, 'seq' | 'at'>;
}

/**
 * C: a message to the view's conversation. In a topic the topic is known, so the cursor goes to
 * the message; in a channel it goes to the topic; in a direct-message conversation to the
 * message. Elsewhere it starts from the selected message's topic, else from the first channel,
 * at the topic field. Null when there is nowhere to write (no channel at all).
 */
export function channelMessageShortcut(
  narrow: Narrow | null,
  selected: Message | null,
  firstChannelId: number | null,
): ComposeShortcut | null {
  if (narrow?.kind === 'topic') {
    const to = { type: 'stream', streamId: narrow.streamId, topic: narrow.topic } as const;
    return { open: null, request: here(narrow, to, 'content') };
  }
  if (narrow?.kind === 'stream') {
    // The topic being typed stays.
    const to = { type: 'stream', streamId: narrow.streamId, topic: null } as const;
    return { open: null, request: here(narrow, to, 'topic') };
  }
  if (narrow?.kind === 'dm')
    return {
      open: null,
      request: here(narrow, { type: 'direct', userIds: narrow.userIds }, 'content'),
    };
  if (narrow && selected?.type === 'stream') {
    const to = { type: 'stream', streamId: selected.stream_id, topic: selected.subject } as const;
    return { open: null, request: { to, insert: null, focus: 'topic', box: narrowKey(narrow) } };
  }
  if (firstChannelId === null) return null;
  const target = narrow ?? streamNarrow(firstChannelId);
  return {
    open: narrow ? null : target,
    request: {
      to: { type: 'stream', streamId: firstChannelId, topic: '' },
      insert: null,
      focus: 'topic',
      box: narrowKey(target),
    },
  };
}

/** X: a new direct message, recipients to choose; a view without a compose box goes to the feed. */
export function directMessageShortcut(narrow: Narrow | null): ComposeShortcut {
  const target = narrow ?? feedNarrow;
  return {
    open: narrow ? null : target,
    request: {
      to: { type: 'direct', userIds: [] },
      insert: null,
      focus: 'recipients',
      box: narrowKey(target),
    },
  };
}

/**
 * Back to the conversation of the view (the box may have been switched to another destination,
 * by X for one), with the cursor in `focus`.
 */
function here(
  narrow: Narrow,
  to: ComposeTo,
  focus: ComposeRequest['focus'],
): ComposeShortcut['request'] {
  return { to, insert: null, focus, box: narrowKey(narrow) };
}
