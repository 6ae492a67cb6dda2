/**
 * Who may create and change user groups, as the server decides it, so the screens offer only
 * what the person may do. Our server (and the spec) use the organization's integer
 * `user_group_edit_policy`, and let a group's own members, moderators and administrators change
 * it; newer servers send group settings instead (`can_create_groups`, `can_manage_all_groups`,
 * a group's `can_manage_group`), which are honoured when present. System groups follow roles and
 * are never edited. The server keeps the last word: a refusal is shown at the control.
 */
import type { User, UserGroup } from '../../api/model';
import { ROLE } from '../../api/model/user';
import type { UserGroupsState } from '../../model/user-groups';
import { groupSettingIncludes } from '../topics/permissions';

type Settings = Readonly<Record<string, unknown>>;
export type GroupActor = Pick<User, 'user_id' | 'date_joined'> & { role: number };

const DAY_MS = 24 * 60 * 60 * 1000;

/** `user_group_edit_policy`: 1 members, 2 administrators, 3 full members, 4 moderators. */
function passesEditPolicy(settings: Settings, actor: GroupActor, now: number): boolean {
  if (actor.role >= ROLE.GUEST) return false;
  switch (settings.user_group_edit_policy ?? 1) {
    case 1:
      return true;
    case 2:
      return actor.role <= ROLE.ADMINISTRATOR;
    case 3: {
      if (actor.role <= ROLE.MODERATOR) return true;
      const waitDays = Number(settings.waiting_period_threshold ?? 0);
      return now - Date.parse(actor.date_joined) >= waitDays * DAY_MS;
    }
    case 4:
      return actor.role <= ROLE.MODERATOR;
    default:
      return false;
  }
}

export function mayCreateGroups(
  settings: Settings,
  actor: GroupActor,
  groups: UserGroupsState,
  now = Date.now(),
): boolean {
  if (settings.can_create_groups !== undefined)
    return groupSettingIncludes(settings.can_create_groups, actor.user_id, groups);
  return passesEditPolicy(settings, actor, now);
}

/** Rename, describe, change members, subgroups and settings, or delete the group. */
export function mayManageGroup(
  group: UserGroup,
  settings: Settings,
  actor: GroupActor,
  groups: UserGroupsState,
  now = Date.now(),
): boolean {
  if (group.is_system_group || group.deactivated) return false;
  if (settings.can_manage_all_groups !== undefined || group.can_manage_group !== undefined)
    return (
      groupSettingIncludes(settings.can_manage_all_groups, actor.user_id, groups) ||
      groupSettingIncludes(group.can_manage_group, actor.user_id, groups)
    );
  if (!passesEditPolicy(settings, actor, now)) return false;
  return actor.role <= ROLE.MODERATOR || group.members.includes(actor.user_id);
}
