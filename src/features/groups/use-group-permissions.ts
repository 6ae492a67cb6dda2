/** What the current user may do with user groups, from the live store. */
import type { UserGroup } from '../../api/model';
import { useOwnUserId, useRealmLimits, useUser, useUserGroups } from '../../model/hooks';
import { mayCreateGroups, mayManageGroup } from './permissions';

export function useMayCreateGroups(): boolean {
  const me = useUser(useOwnUserId());
  const settings = useRealmLimits().settings;
  const groups = useUserGroups();
  return me !== undefined && mayCreateGroups(settings, me, groups);
}

export function useMayManageGroup(group: UserGroup | undefined): boolean {
  const me = useUser(useOwnUserId());
  const settings = useRealmLimits().settings;
  const groups = useUserGroups();
  return group !== undefined && me !== undefined && mayManageGroup(group, settings, me, groups);
}
