/** Reply, quote and the compose shortcuts reach the box through compose requests. */
import { useEffect, useRef } from 'react';
import {
  insertOnOwnLine,
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

export function useComposeRequestHandler(fields: ComposeFields, closePreview: () => void) {
  const request = useComposeRequests((s) => s.latest);
  const applyRequest = useRef<(request: ComposeRequest) => void>(null);
  applyRequest.current = (request) => {
    let nextTopic = fields.topic;
    if (request.to?.type === 'stream') {
      const streamId = request.to.streamId;
      nextTopic = request.to.topic;
      fields.setMode('stream');
      fields.setStreamName(fields.subscriptions.find((s) => s.stream_id === streamId)?.name ?? '');
      fields.setTopic(nextTopic);
    } else if (request.to?.type === 'direct') {
      fields.setMode('direct');
      fields.setRecipients(request.to.userIds);
    }
    let caret: number | null = null;
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
    const focusId = FOCUS_TARGET[request.focus];
    requestAnimationFrame(() => {
      const field = document.getElementById(focusId) as
        HTMLInputElement | HTMLTextAreaElement | null;
      field?.focus();
      if (field && caret !== null) field.setSelectionRange(caret, caret);
    });
  };
  useEffect(() => {
    if (!request) return;
    useComposeRequests.getState().taken(request.seq);
    if (Date.now() - request.at <= REQUEST_LIFETIME_MS) applyRequest.current?.(request);
  }, [request]);
}
