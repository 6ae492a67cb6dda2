/**
 * Who may rename, resolve and move topics, from what the server sent at register. Newer servers
 * send group settings (`can_move_messages_between_topics_group`, ...); older ones, and ours, the
 * integer policies (`edit_topic_policy`, ...). The server has the last word: this only decides
 * which actions are offered.
 */
import type { Message } from '../../api/model';
import { ROLE } from '../../api/model/user';
import { groupMembersDeep, type UserGroupsState } from '../../model/user-groups';

type Settings = Readonly<Record<string, unknown>>;

export interface TopicActor {
  userId: number;
  role: number;
  groups: UserGroupsState;
}

/**
 * The integer policies: 1 members, 2 administrators, 3 full members (the waiting period is the
 * server's to check), 4 moderators, 5 everyone, 6 nobody, 7 owners.
 */
export function policyPermits(policy: unknown, role: number): boolean {
  switch (policy) {
    case 1:
    case 3:
      return role <= ROLE.MEMBER;
    case 2:
      return role <= ROLE.ADMINISTRATOR;
    case 4:
      return role <= ROLE.MODERATOR;
    case 5:
      return true;
    case 7:
      return role <= ROLE.OWNER;
    default:
      return false;
  }
}

/** A group setting: a group's id, or an anonymous group of members and subgroups. */
export function groupSettingIncludes(
  value: unknown,
  userId: number,
  groups: UserGroupsState,
): boolean {
  if (typeof value === 'number') return groupMembersDeep(groups, value).has(userId);
  if (value && typeof value === 'object') {
    const { direct_members = [], direct_subgroups = [] } = value as {
      direct_members?: number[];
      direct_subgroups?: number[];
    };
    return (
      direct_members.includes(userId) ||
      direct_subgroups.some((id) => groupMembersDeep(groups, id).has(userId))
    );
  }
  return false;
}

function permits(
  settings: Settings,
  groupSetting: string,
  policy: string,
  actor: TopicActor,
  fallback: unknown,
) {
  if (settings[groupSetting] !== undefined)
    return groupSettingIncludes(settings[groupSetting], actor.userId, actor.groups);
  return policyPermits(settings[policy] ?? fallback, actor.role);
}

export interface TopicPermissions {
  /** rename a topic, or move messages to another topic of the same channel */
  editTopic: boolean;
  /** add or remove the ✔ mark */
  resolve: boolean;
  /** move messages to another channel */
  moveBetweenChannels: boolean;
}

export function topicPermissions(settings: Settings, actor: TopicActor): TopicPermissions {
  const editTopic = permits(
    settings,
    'can_move_messages_between_topics_group',
    'edit_topic_policy',
    actor,
    5,
  );
  return {
    editTopic,
    resolve:
      settings.can_resolve_topics_group !== undefined
        ? groupSettingIncludes(settings.can_resolve_topics_group, actor.userId, actor.groups)
        : editTopic,
    moveBetweenChannels: permits(
      settings,
      'can_move_messages_between_channels_group',
      'move_messages_between_streams_policy',
      actor,
      1,
    ),
  };
}

/** Moderators and above are exempt from the move time limits; a null limit means none. */
function withinMoveLimit(limit: unknown, message: Message, actor: TopicActor, now: number) {
  if (actor.role <= ROLE.MODERATOR) return true;
  return typeof limit !== 'number' || limit <= 0 || now - message.timestamp <= limit;
}

/** What may be done to one message now: change its topic, its channel, or neither. */
export function messageMovePermissions(
  message: Message,
  settings: Settings,
  actor: TopicActor,
  nowSeconds: number,
): { topic: boolean; channel: boolean } {
  if (message.type !== 'stream') return { topic: false, channel: false };
  const allowed = topicPermissions(settings, actor);
  return {
    topic:
      allowed.editTopic &&
      withinMoveLimit(
        settings.move_messages_within_stream_limit_seconds,
        message,
        actor,
        nowSeconds,
      ),
    channel:
      allowed.moveBetweenChannels &&
      withinMoveLimit(
        settings.move_messages_between_streams_limit_seconds,
        message,
        actor,
        nowSeconds,
      ),
  };
}
