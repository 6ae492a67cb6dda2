import { useMemo } from 'react';
import { ROLE } from '../../api/model/user';
import { useOwnUserId, useRealmLimits, useUserGroups, useUsersById } from '../../model/hooks';
import { useSessionCore } from '../../model/session-core';
import { topicPermissions, type TopicActor, type TopicPermissions } from './permissions';

const NONE: TopicPermissions = { editTopic: false, resolve: false, moveBetweenChannels: false };

/** What the current person may do to topics, with what decided it. */
export function useTopicPermissions(): {
  allowed: TopicPermissions;
  actor: TopicActor;
  settings: Readonly<Record<string, unknown>>;
} {
  const spectator = useSessionCore().spectator;
  const ownUserId = useOwnUserId();
  const role = useUsersById()[ownUserId]?.role ?? ROLE.MEMBER;
  const groups = useUserGroups();
  const { settings } = useRealmLimits();
  return useMemo(() => {
    const actor = { userId: ownUserId, role, groups };
    return {
      actor,
      settings,
      allowed: spectator ? NONE : topicPermissions(settings, actor),
    };
  }, [spectator, ownUserId, role, groups, settings]);
}
