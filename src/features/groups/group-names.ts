/**
 * How groups are named and listed on the screens: system groups by what their role means (in the
 * interface's language), the groups people made by their own names.
 */
import type { UserGroup } from '../../api/model';
import { i18n } from '../../i18n';
import { namedUserGroups, type UserGroupsState } from '../../model/user-groups';

const SYSTEM_GROUP_KEYS = {
  'role:internet': 'systemGroups.internet',
  'role:everyone': 'systemGroups.everyone',
  'role:members': 'systemGroups.members',
  'role:fullmembers': 'systemGroups.fullmembers',
  'role:moderators': 'systemGroups.moderators',
  'role:administrators': 'systemGroups.administrators',
  'role:owners': 'systemGroups.owners',
  'role:nobody': 'systemGroups.nobody',
} as const;

/** The name a person reads: "Moderators" for `role:moderators`, else the group's own name. */
export function groupDisplayName(group: Pick<UserGroup, 'name' | 'is_system_group'>): string {
  if (!group.is_system_group) return group.name;
  const key = SYSTEM_GROUP_KEYS[group.name as keyof typeof SYSTEM_GROUP_KEYS];
  return key ? i18n.t(`groups:${key}`) : group.name;
}

export type GroupTab = 'mine' | 'all';

/**
 * The groups the list shows: the ones people made (system groups follow roles and are managed
 * through roles, so the list leaves them out as the reference app does), on the "mine" tab only
 * those the user is a direct member of, matching the filter by name or description.
 */
export function listedGroups(
  state: UserGroupsState,
  tab: GroupTab,
  ownUserId: number,
  filter: string,
): UserGroup[] {
  const needle = filter.trim().toLowerCase();
  return namedUserGroups(state)
    .filter((group) => tab === 'all' || group.members.includes(ownUserId))
    .filter(
      (group) =>
        !needle ||
        group.name.toLowerCase().includes(needle) ||
        group.description.toLowerCase().includes(needle),
    );
}

/**
 * The groups a group setting may name, in the reference app's order: the role groups from the
 * widest to the narrowest (without `role:internet` and `role:owners`, which the server refuses
 * for mentions), then the groups people made.
 */
export function mentionSettingChoices(state: UserGroupsState): UserGroup[] {
  const order = [
    'role:everyone',
    'role:members',
    'role:fullmembers',
    'role:moderators',
    'role:administrators',
    'role:nobody',
  ];
  const all = Object.values(state.byId);
  const system = order
    .map((name) => all.find((group) => group.is_system_group && group.name === name))
    .filter((group): group is UserGroup => group !== undefined);
  return [...system, ...namedUserGroups(state)];
}

/** Groups that may become subgroups: made by people, not the group itself, nor one that holds it. */
export function subgroupCandidates(state: UserGroupsState, group: UserGroup): UserGroup[] {
  const holdsGroup = (candidate: number): boolean => {
    const seen = new Set<number>();
    const pending = [candidate];
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (id === group.id) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      pending.push(...(state.byId[id]?.direct_subgroup_ids ?? []));
    }
    return false;
  };
  return namedUserGroups(state).filter(
    (candidate) => !group.direct_subgroup_ids.includes(candidate.id) && !holdsGroup(candidate.id),
  );
}
