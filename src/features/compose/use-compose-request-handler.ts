/** Reply, quote and the compose shortcuts reach the box through compose requests. */
import { useEffect, useRef, useState } from 'react';
import {
  insertOnOwnLine,
  isRequestFor,
  REQUEST_LIFETIME_MS,
  useComposeRequests,
  type ComposeRequest,
} from '../../model/compose-request';
import type { ComposeFields } from './use-compose-fields';

const FOCUS_TARGET: Record<ComposeRequest['focus'], string> = {
  content: 'compose-content',
  topic: 'compose-topic',
  recipients: 'compose-recipients',
};

/** The field a request focuses, and where its caret goes (null: where the browser puts it). */
interface PendingFocus {
  seq: number;
  id: string;
  caret: number | null;
}

export function useComposeRequestHandler(
  fields: ComposeFields,
  closePreview: () => void,
  /** opens a box folded on a phone, in the same update, so that the field to focus is drawn */
  openBox: () => void,
) {
  const request = useComposeRequests((s) => s.latest);
  // Set in the same update as the fields the request changes, so it is applied once they have
  // rendered: a request that switches between channel and direct message focuses a field that
  // only exists after that render (an animation frame may come before it, or after).
  const [pendingFocus, setPendingFocus] = useState<PendingFocus | null>(null);
  const applyRequest = useRef<(request: ComposeRequest) => void>(null);
  applyRequest.current = (request) => {
    let nextTopic = fields.topic;
    if (request.to?.type === 'stream') {
      const streamId = request.to.streamId;
      nextTopic = request.to.topic ?? fields.topic;
      fields.setMode('stream');
      fields.setStreamName(fields.subscriptions.find((s) => s.stream_id === streamId)?.name ?? '');
      fields.setTopic(nextTopic);
    } else if (request.to?.type === 'direct') {
      fields.setMode('direct');
      fields.setRecipients(request.to.userIds);
    }
    let caret: number | null = null;
    openBox();
    closePreview();
    if (request.insert !== null) {
      const field = document.getElementById('compose-content') as HTMLTextAreaElement | null;
      const current = fields.contentRef.current;
      const at = field && document.activeElement === field ? field.selectionStart : current.length;
      const result = insertOnOwnLine(current, at, request.insert);
      fields.setContent(result.text);
      fields.saveDraft({ topic: nextTopic, content: result.text });
      caret = result.caret;
    }
    setPendingFocus({ seq: request.seq, id: FOCUS_TARGET[request.focus], caret });
  };
  useEffect(() => {
    // A request for another view's box (one being navigated to) waits for that box.
    if (!request || !isRequestFor(request, fields.draftKey)) return;
    useComposeRequests.getState().taken(request.seq);
    if (Date.now() - request.at <= REQUEST_LIFETIME_MS) applyRequest.current?.(request);
  }, [request, fields.draftKey]);
  useEffect(() => {
    if (!pendingFocus) return;
    const field = document.getElementById(pendingFocus.id) as
      HTMLInputElement | HTMLTextAreaElement | null;
    field?.focus();
    if (field && pendingFocus.caret !== null)
      field.setSelectionRange(pendingFocus.caret, pendingFocus.caret);
  }, [pendingFocus]);
}
