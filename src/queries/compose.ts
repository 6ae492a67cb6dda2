/** Compose box server calls: the Markdown preview. */
import { useMutation } from '@tanstack/react-query';
import { renderMessage } from '../api/routes/messages';
import { useSessionCore } from '../model/session-core';

/** Renders a draft to HTML (unsanitised: the caller sanitises before showing it). */
export function useRenderMessage() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: async (content: string) => (await renderMessage(connection, { content })).rendered,
  });
}
