/**
 * What a message says about its past, as the reference app reads it from `edit_history`: "edited"
 * when its content changed, "moved" when only its topic or channel did. Resolving or unresolving
 * a topic is neither (the check mark in the topic says it). Without `edit_history` (the
 * organization hides it, or an older server), `last_edit_timestamp` can only say "edited".
 */
import type { EditHistoryEntry, Message } from '../../api/model';
import { RESOLVED_TOPIC_PREFIX } from '../topics/resolved';

export interface EditIndicator {
  kind: 'edited' | 'moved';
  /** when it last happened, in seconds since the epoch */
  timestamp: number;
}

export function editIndicator(
  message: Pick<Message, 'edit_history' | 'last_edit_timestamp'>,
): EditIndicator | null {
  const history = message.edit_history;
  if (history === undefined || history.length === 0)
    return message.last_edit_timestamp !== undefined
      ? { kind: 'edited', timestamp: message.last_edit_timestamp }
      : null;
  // Newest first: the first entry of a kind is its latest time.
  const edit = history.find(changedContent);
  if (edit) return { kind: 'edited', timestamp: edit.timestamp };
  const move = history.find(moved);
  return move ? { kind: 'moved', timestamp: move.timestamp } : null;
}

const changedContent = (entry: EditHistoryEntry) =>
  entry.prev_content !== undefined || entry.prev_rendered_content !== undefined;

function moved(entry: EditHistoryEntry): boolean {
  if (entry.prev_stream !== undefined) return true;
  if (entry.prev_topic === undefined) return false;
  return entry.topic === undefined || !isResolveToggle(entry.prev_topic, entry.topic);
}

/** "lunch" to "✔ lunch" or back: a resolve or an unresolve, not a move. */
function isResolveToggle(from: string, to: string): boolean {
  return to === RESOLVED_TOPIC_PREFIX + from || from === RESOLVED_TOPIC_PREFIX + to;
}
