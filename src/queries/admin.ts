/**
 * What administrators do to the organization. The people list reads the live store, which the
 * realm_user events keep current, so nothing here touches a cache.
 */
import { useMutation } from '@tanstack/react-query';
import { createInviteLink, deactivateUser, reactivateUser } from '../api/routes/admin';
import { useSessionCore } from '../model/session-core';

export interface NewInviteLink {
  role: number;
  /** null: the link never expires */
  expiresInMinutes: number | null;
}

/** A reusable sign-up link; new people join the organization's default channels. */
export function useCreateInviteLink() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ role, expiresInMinutes }: NewInviteLink) =>
      createInviteLink(connection, {
        invite_as: role,
        invite_expires_in_minutes: expiresInMinutes,
        include_realm_default_subscriptions: true,
      }),
  });
}

export function useDeactivateUser() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (userId: number) => deactivateUser(connection, userId) });
}

export function useReactivateUser() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (userId: number) => reactivateUser(connection, userId) });
}
