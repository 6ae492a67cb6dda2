/**
 * Organization permissions: who may join and invite, create and manage channels and groups, and
 * what people may change about themselves. Settings the server keeps for owners say so.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useRealmSetting, useUserGroupsState } from '../../model/hooks';
import { SettingsGroup } from '../settings/controls';
import { ReadOnlyNote, RealmAmount, RealmSelect, RealmToggle } from './org-controls';
import {
  botCreationPolicy,
  commonPolicy,
  deleteOwnMessagePolicy,
  directMessagePolicy,
  editTopicPolicy,
  emailVisibility,
  policyWithNobody,
  waitingPeriodPresets,
  webPublicStreamPolicy,
  wildcardMentionPolicy,
} from './org-options';

/** System groups a realm permission may name; the server refuses role:internet and role:owners. */
const PICKABLE_SYSTEM_GROUPS = [
  'role:administrators',
  'role:moderators',
  'role:fullmembers',
  'role:members',
  'role:everyone',
  'role:nobody',
] as const;

function useSystemGroupName() {
  const { t } = useTranslation('adminOrg');
  return (name: string): string => {
    switch (name) {
      case 'role:administrators':
        return t('groups.administrators');
      case 'role:moderators':
        return t('groups.moderators');
      case 'role:fullmembers':
        return t('groups.fullMembers');
      case 'role:members':
        return t('groups.members');
      case 'role:everyone':
        return t('groups.everyone');
      case 'role:nobody':
        return t('groups.nobody');
      default:
        return name;
    }
  };
}

/** A permission held by a user group: the spec allows system groups here. */
function GroupPermission({ name, label, hint }: { name: string; label: string; hint?: string }) {
  const groups = useUserGroupsState().byId;
  const groupName = useSystemGroupName();
  const options = useMemo(
    () =>
      PICKABLE_SYSTEM_GROUPS.flatMap((systemName) => {
        const group = Object.values(groups).find((g) => g.is_system_group && g.name === systemName);
        return group ? [[group.id, groupName(systemName)] as const] : [];
      }),
    [groups, groupName],
  );
  if (!options.length) return null;
  return <RealmSelect name={name} label={label} hint={hint} options={options} ownerOnly />;
}

/** The sign-in methods; the server offers email and password only, so it stays on. */
function AuthenticationMethods() {
  const { t } = useTranslation('adminOrg');
  const methods = useRealmSetting('authentication_methods') as Record<string, boolean> | undefined;
  if (!methods) return null;
  return (
    <ul className="admin-auth-methods" aria-label={t('permissions.authMethods')}>
      {Object.entries(methods).map(([method, enabled]) => (
        <li key={method}>
          <span>{method === 'Email' ? t('permissions.authEmail') : method}</span>
          <span className={enabled ? 'admin-pill admin-pill-on' : 'admin-pill'}>
            {enabled ? t('permissions.enabled') : t('permissions.unavailable')}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Who may join, invite, and look in without an account. */
function JoiningPermissions() {
  const { t } = useTranslation('adminOrg');
  return (
    <SettingsGroup title={t('permissions.joining')}>
      <RealmToggle name="invite_required" label={t('permissions.inviteRequired')} ownerOnly />
      <RealmSelect
        name="invite_to_realm_policy"
        label={t('permissions.invitePolicy')}
        options={policyWithNobody(t)}
        ownerOnly
      />
      <GroupPermission
        name="create_multiuse_invite_group"
        label={t('permissions.inviteLinkGroup')}
      />
      <RealmToggle
        name="emails_restricted_to_domains"
        label={t('permissions.restrictDomains')}
        ownerOnly
      />
      <RealmToggle
        name="disallow_disposable_email_addresses"
        label={t('permissions.noDisposable')}
        ownerOnly
      />
      <RealmAmount
        name="waiting_period_threshold"
        label={t('permissions.waitingPeriod')}
        hint={t('permissions.waitingPeriodHint')}
        presets={waitingPeriodPresets(t)}
        unitLabel={t('unit.days')}
        ownerOnly
      />
      <RealmToggle
        name="enable_spectator_access"
        label={t('permissions.spectators')}
        hint={t('permissions.spectatorsHint')}
      />
    </SettingsGroup>
  );
}

/** Who may create channels, add subscribers and mention everyone. */
function ChannelPermissions() {
  const { t } = useTranslation('adminOrg');
  return (
    <SettingsGroup title={t('permissions.channels')}>
      <RealmSelect
        name="create_public_stream_policy"
        label={t('permissions.createPublic')}
        options={commonPolicy(t)}
      />
      <RealmSelect
        name="create_private_stream_policy"
        label={t('permissions.createPrivate')}
        options={commonPolicy(t)}
      />
      <RealmSelect
        name="create_web_public_stream_policy"
        label={t('permissions.createWebPublic')}
        options={webPublicStreamPolicy(t)}
      />
      <RealmSelect
        name="invite_to_stream_policy"
        label={t('permissions.addSubscribers')}
        options={commonPolicy(t)}
      />
      <RealmSelect
        name="wildcard_mention_policy"
        label={t('permissions.wildcardMentions')}
        options={wildcardMentionPolicy(t)}
      />
    </SettingsGroup>
  );
}

/** Who may edit topics, move and delete messages, and write direct messages. */
function MessagePermissions() {
  const { t } = useTranslation('adminOrg');
  return (
    <SettingsGroup title={t('permissions.messages')}>
      <RealmSelect
        name="edit_topic_policy"
        label={t('permissions.editTopics')}
        options={editTopicPolicy(t)}
      />
      <RealmSelect
        name="move_messages_between_streams_policy"
        label={t('permissions.moveBetweenChannels')}
        options={policyWithNobody(t)}
      />
      <RealmSelect
        name="delete_own_message_policy"
        label={t('permissions.deleteOwn')}
        options={deleteOwnMessagePolicy(t)}
      />
      <RealmSelect
        name="private_message_policy"
        label={t('permissions.directMessages')}
        options={directMessagePolicy(t)}
      />
    </SettingsGroup>
  );
}

/** Who may edit groups, add emoji and create bots. */
function GroupAndOtherPermissions() {
  const { t } = useTranslation('adminOrg');
  return (
    <SettingsGroup title={t('permissions.groupsAndOther')}>
      <RealmSelect
        name="user_group_edit_policy"
        label={t('permissions.editGroups')}
        options={commonPolicy(t)}
      />
      <RealmSelect
        name="add_custom_emoji_policy"
        label={t('permissions.addEmoji')}
        options={commonPolicy(t)}
      />
      <RealmSelect
        name="bot_creation_policy"
        label={t('permissions.createBots')}
        options={botCreationPolicy(t)}
      />
    </SettingsGroup>
  );
}

/** What people may change about themselves, and who sees email addresses. */
function IdentityPermissions() {
  const { t } = useTranslation('adminOrg');
  return (
    <SettingsGroup title={t('permissions.identity')}>
      <RealmToggle name="name_changes_disabled" label={t('permissions.noNameChanges')} />
      <RealmToggle name="email_changes_disabled" label={t('permissions.noEmailChanges')} />
      <RealmToggle name="avatar_changes_disabled" label={t('permissions.noAvatarChanges')} />
      <RealmToggle name="require_unique_names" label={t('permissions.uniqueNames')} />
      <RealmSelect
        name="email_address_visibility"
        label={t('permissions.emailVisibility')}
        options={emailVisibility(t)}
      />
    </SettingsGroup>
  );
}

export function OrgPermissionsSection() {
  const { t } = useTranslation('adminOrg');
  return (
    <div className="admin-org">
      <ReadOnlyNote />
      <JoiningPermissions />
      <SettingsGroup title={t('permissions.authentication')}>
        <AuthenticationMethods />
      </SettingsGroup>
      <ChannelPermissions />
      <MessagePermissions />
      <GroupAndOtherPermissions />
      <IdentityPermissions />
    </div>
  );
}
