/**
 * Changes to one's own profile. The results arrive as events (user_status, realm_user) in the
 * store; until then each control shows the mutation's `variables`, so the change is on screen at
 * once, and its own "Saving…", "Saved" or refusal beside it.
 */
import { useMutation } from '@tanstack/react-query';
import type { UserStatusChange } from '../api/model';
import {
  deleteAvatar,
  removeProfileData,
  updateProfileData,
  updateStatus,
  uploadAvatar,
} from '../api/routes/users';
import { useSessionCore } from '../model/session-core';

export function useUpdateStatus() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (change: UserStatusChange) => updateStatus(connection, change),
  });
}

export function useUploadAvatar() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (file: File) => uploadAvatar(connection, file, file.name) });
}

export function useDeleteAvatar() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: () => deleteAvatar(connection) });
}

/** One custom field's value; an empty value (or no people) clears it. */
export interface ProfileFieldChange {
  id: number;
  value: string | number[];
}

export function useUpdateProfileField() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ id, value }: ProfileFieldChange) =>
      (Array.isArray(value) ? value.length === 0 : value.trim() === '')
        ? removeProfileData(connection, [id])
        : updateProfileData(connection, [{ id, value }]),
  });
}
