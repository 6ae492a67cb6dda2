/**
 * What the user changes about their own account. Not optimistic through a cache: the settings
 * live in the store, which the user_settings and realm_user events update. Until those arrive a
 * control shows the mutation's `variables`, so the new value is on screen at once.
 */
import { useMutation } from '@tanstack/react-query';
import { muteUser, unmuteUser, updateSettings, type SettingsChanges } from '../api/routes/users';
import { useSessionCore } from '../model/session-core';

export type { SettingsChanges };

/**
 * PATCH /settings for one control. Each control owns its own instance, so its "Saving…",
 * "Saved" and error sit beside it and not beside its neighbours.
 */
export function useUpdateSettings() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (changes: SettingsChanges) => updateSettings(connection, changes),
  });
}

export interface PasswordChange {
  oldPassword: string;
  newPassword: string;
}

/** The password goes through PATCH /settings too, but never shows as a pending value. */
export function useChangePassword() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: PasswordChange) =>
      updateSettings(connection, { old_password: oldPassword, new_password: newPassword }),
  });
}

/**
 * Mutes or unmutes someone. One hook for both, so the muted-users section has one status line
 * that always tells the outcome of the last thing the user did there.
 */
export function useMuteUser() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ userId, muted }: { userId: number; muted: boolean }) =>
      muted ? muteUser(connection, userId) : unmuteUser(connection, userId),
  });
}
