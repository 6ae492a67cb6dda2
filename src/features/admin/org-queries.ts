/**
 * What administrators change about the organization. Nothing here touches a cache: the realm
 * settings, profile fields, linkifiers and emoji live in the store, which realm,
 * custom_profile_fields, realm_linkifiers and realm_emoji events keep current (in every window).
 * Each control owns its mutation, so its status shows beside it.
 */
import { useMutation } from '@tanstack/react-query';
import type { Params } from '../../api/connection';
import {
  addLinkifier,
  createCustomProfileField,
  deactivateCustomEmoji,
  removeLinkifier,
  deleteCustomProfileField,
  reorderCustomProfileFields,
  updateLinkifier,
  updateCustomProfileField,
  updateRealm,
  uploadCustomEmoji,
  type LinkifierInput,
  type ProfileFieldChanges,
} from '../../api/routes/server-and-organizations';
import { useSessionCore } from '../../model/session-core';

export function useUpdateRealm() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (changes: Params) => updateRealm(connection, changes) });
}

export function useCreateProfileField() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (field: ProfileFieldChanges & { field_type: number }) =>
      createCustomProfileField(connection, field),
  });
}

export function useUpdateProfileField() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: ProfileFieldChanges }) =>
      updateCustomProfileField(connection, id, changes),
  });
}

export function useReorderProfileFields() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (order: readonly number[]) => reorderCustomProfileFields(connection, order),
  });
}

export function useDeleteProfileField() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (id: number) => deleteCustomProfileField(connection, id) });
}

export function useSaveLinkifier() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ id, linkifier }: { id?: number; linkifier: LinkifierInput }) =>
      id === undefined
        ? addLinkifier(connection, linkifier)
        : updateLinkifier(connection, id, linkifier),
  });
}

export function useDeleteLinkifier() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (id: number) => removeLinkifier(connection, id) });
}

export function useUploadEmoji() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ name, file }: { name: string; file: Blob }) =>
      uploadCustomEmoji(connection, name, file),
  });
}

export function useDeactivateEmoji() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (name: string) => deactivateCustomEmoji(connection, name) });
}
