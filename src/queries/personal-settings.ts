/**
 * The personal settings that are not one PATCH /settings value: the email change request, the
 * own account's deactivation and the alert words. Alert words arrive back as `alert_words`
 * events, so nothing here is cached.
 */
import { useMutation } from '@tanstack/react-query';
import {
  addAlertWords,
  deactivateOwnUser,
  removeAlertWords,
  updateSettings,
} from '../api/routes/users';
import { useSessionCore } from '../model/session-core';

export function useRequestEmailChange() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (email: string) => updateSettings(connection, { email }) });
}

export function useDeactivateOwnAccount() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: () => deactivateOwnUser(connection) });
}

export function useAddAlertWords() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (words: string[]) => addAlertWords(connection, words) });
}

export function useRemoveAlertWord() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (word: string) => removeAlertWords(connection, [word]) });
}
