/**
 * Changes to user groups. The groups themselves live in the account store, which the
 * `user_group` events keep current for everyone (this window included), so nothing here touches
 * a cache: each mutation only reports its own progress and the server's refusal.
 */
import { useMutation } from '@tanstack/react-query';
import {
  createUserGroup,
  deleteUserGroup,
  updateUserGroup,
  updateUserGroupMembers,
  updateUserGroupSubgroups,
} from '../api/routes/users';
import { useSessionCore } from '../model/session-core';

export interface NewUserGroup {
  name: string;
  description: string;
  members: number[];
}

export function useCreateUserGroup() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (group: NewUserGroup) => createUserGroup(connection, group),
  });
}

export interface UserGroupChanges {
  name?: string;
  description?: string;
  canMentionGroup?: number;
}

export function useUpdateUserGroup(groupId: number) {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ name, description, canMentionGroup }: UserGroupChanges) =>
      updateUserGroup(connection, groupId, {
        name,
        description,
        can_mention_group: canMentionGroup,
      }),
  });
}

export function useDeleteUserGroup(groupId: number) {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: () => deleteUserGroup(connection, groupId) });
}

export interface MembershipChange {
  add?: number[];
  remove?: number[];
}

export function useUpdateGroupMembers(groupId: number) {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ add, remove }: MembershipChange) =>
      updateUserGroupMembers(connection, groupId, { add, delete: remove }),
  });
}

export function useUpdateSubgroups(groupId: number) {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ add, remove }: MembershipChange) =>
      updateUserGroupSubgroups(connection, groupId, { add, delete: remove }),
  });
}
