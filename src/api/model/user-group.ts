/** Wire types for user groups (`realm_user_groups`, `user_group` events). */

/** Newer servers may name an anonymous group (members and subgroups) instead of a group id. */
export interface AnonymousGroup {
  direct_members: number[];
  direct_subgroups: number[];
}

export type GroupSetting = number | AnonymousGroup;

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  /** direct members only */
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  can_mention_group?: GroupSetting;
  date_created?: number | null;
  creator_id?: number | null;
  deactivated?: boolean;
  /** further group settings newer servers add */
  [setting: string]: unknown;
}
