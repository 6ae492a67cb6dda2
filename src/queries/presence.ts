/**
 * The signals a session sends while the user is around: presence and typing. Fire and forget:
 * a missed one is corrected by the next, so failures are dropped. Plain callbacks rather than
 * mutations: a mutation's state would re-render the whole shell at every presence ping and the
 * compose box at every typing notice, and nobody shows that state.
 */
import { useCallback } from 'react';
import { setTypingStatus, updatePresence, type TypingOptions } from '../api/routes/users';
import { useSessionCore } from '../model/session-core';

export type { TypingOptions };

export function useReportPresence() {
  const { connection } = useSessionCore();
  return useCallback(
    (options: { status: 'active' | 'idle'; newUserInput: boolean }) =>
      void updatePresence(connection, {
        status: options.status,
        new_user_input: options.newUserInput,
        ping_only: true,
        slim_presence: true,
      }).catch(() => {}),
    [connection],
  );
}

export function useSetTypingStatus() {
  const { connection } = useSessionCore();
  return useCallback(
    (options: TypingOptions) => void setTypingStatus(connection, options).catch(() => {}),
    [connection],
  );
}
