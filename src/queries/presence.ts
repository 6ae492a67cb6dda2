/**
 * The signals a session sends while the user is around: presence and typing. Fire and forget:
 * a missed one is corrected by the next, so failures are dropped here.
 */
import { useMutation } from '@tanstack/react-query';
import { setTypingStatus, type TypingOptions } from '../api/routes/messages';
import { reportPresence } from '../api/routes/users';
import { useSessionCore } from '../model/session-core';

export type { TypingOptions };

export function useReportPresence() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (options: { status: 'active' | 'idle'; newUserInput: boolean }) =>
      reportPresence(connection, {
        status: options.status,
        new_user_input: options.newUserInput,
        ping_only: true,
        slim_presence: true,
      }),
    onError: () => {},
  });
}

export function useSetTypingStatus() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (options: TypingOptions) => setTypingStatus(connection, options),
    onError: () => {},
  });
}
