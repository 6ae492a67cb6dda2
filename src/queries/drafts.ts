/** What the user does to drafts the server keeps; the drafts events update the list. */
import { useMutation } from '@tanstack/react-query';
import { deleteDraft } from '../api/routes/drafts';
import { useSessionCore } from '../model/session-core';

export function useDeleteDraft() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (draftId: number) => deleteDraft(connection, draftId) });
}
