/** The message as it will look: rendered by the server, shown in place of the text field. */
import { useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import { useOwnUserId, useUserSetting } from '../../model/hooks';
import { useRenderMessage } from '../../queries/compose';
import { sanitizeMessageHtml } from '../message-list/sanitize';

export function useComposePreview(
  content: string,
  messageField: RefObject<HTMLTextAreaElement | null>,
  onProblem: (problem: string) => void,
) {
  const { t } = useTranslation('compose');
  const ownUserId = useOwnUserId();
  const emojiset = useUserSetting('emojiset');
  const render = useRenderMessage();
  /** the sanitised HTML while previewing, null while editing */
  const [html, setHtml] = useState<string | null>(null);

  const toggle = () => {
    if (html !== null) {
      setHtml(null);
      requestAnimationFrame(() => messageField.current?.focus());
      return;
    }
    render.mutate(content, {
      onSuccess: (rendered) => setHtml(sanitizeMessageHtml(rendered, ownUserId, { emojiset })),
      onError: (error) => onProblem(t('previewFailed', { error: errorText(error, String(error)) })),
    });
  };

  return {
    html,
    shown: html !== null,
    pending: render.isPending,
    toggle,
    close: () => setHtml(null),
  };
}

export type ComposePreviewState = ReturnType<typeof useComposePreview>;
