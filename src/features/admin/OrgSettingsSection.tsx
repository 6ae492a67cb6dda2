/**
 * Organization settings, grouped as the reference app groups them: language, notifications,
 * message editing and deletion, message retention, and what messages show.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useRealmSetting, useStreamsById } from '../../model/hooks';
import { SettingsGroup } from '../settings/controls';
import { ReadOnlyNote, RealmAmount, RealmSelect, RealmText, RealmToggle } from './org-controls';
import { gifRatings, languages, retentionPresets, timeLimits, weekdays } from './org-options';

const EXAMPLE_MEET_URL = 'https://meet.example.com';

/** A channel chosen for announcements, or -1 for none. */
function AnnouncementChannel({ name, label }: { name: string; label: string }) {
  const { t } = useTranslation('adminOrg');
  const streams = useStreamsById();
  const options = useMemo(
    () => [
      [-1, t('settings.noChannel')] as const,
      ...Object.values(streams)
        .filter((s) => !s.is_archived)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((s) => [s.stream_id, `#${s.name}`] as const),
    ],
    [streams, t],
  );
  return <RealmSelect name={name} label={label} options={options} />;
}

function VideoProvider() {
  const { t } = useTranslation('adminOrg');
  const available = useRealmSetting('available_video_chat_providers') as
    Record<string, { name: string; id: number }> | undefined;
  const options = Object.entries(available ?? {}).map(
    ([key, p]) => [p.id, key === 'disabled' ? t('settings.videoNone') : p.name] as const,
  );
  if (!options.length) return null;
  return (
    <RealmSelect name="video_chat_provider" label={t('settings.videoProvider')} options={options} />
  );
}

/** Where announcements go, and which emails people get. */
function NotificationSettings() {
  const { t } = useTranslation('adminOrg');
  return (
    <SettingsGroup title={t('settings.notifications')}>
      <AnnouncementChannel
        name="new_stream_announcements_stream_id"
        label={t('settings.newChannelAnnouncements')}
      />
      <AnnouncementChannel
        name="signup_announcements_stream_id"
        label={t('settings.signupAnnouncements')}
      />
      <AnnouncementChannel
        name="zulip_update_announcements_stream_id"
        label={t('settings.updateAnnouncements')}
      />
      <RealmToggle name="send_welcome_emails" label={t('settings.welcomeEmails')} />
      <RealmToggle
        name="message_content_allowed_in_email_notifications"
        label={t('settings.contentInEmails')}
      />
      <RealmToggle name="digest_emails_enabled" label={t('settings.digestEmails')} />
      <RealmSelect name="digest_weekday" label={t('settings.digestDay')} options={weekdays()} />
    </SettingsGroup>
  );
}

/** Whether and how long people may edit, delete and move their messages. */
function EditingSettings() {
  const { t } = useTranslation('adminOrg');
  const limits = timeLimits(t);
  return (
    <SettingsGroup title={t('settings.editing')}>
      <RealmToggle name="allow_message_editing" label={t('settings.allowEditing')} />
      <RealmAmount
        name="message_content_edit_limit_seconds"
        label={t('settings.editLimit')}
        presets={limits}
        unitLabel={t('unit.minutes')}
        unitSize={60}
      />
      <RealmToggle name="allow_edit_history" label={t('settings.editHistory')} />
      <RealmAmount
        name="message_content_delete_limit_seconds"
        label={t('settings.deleteLimit')}
        presets={limits}
        unitLabel={t('unit.minutes')}
        unitSize={60}
      />
      <RealmAmount
        name="move_messages_within_stream_limit_seconds"
        label={t('settings.moveTopicLimit')}
        hint={t('settings.moveLimitHint')}
        presets={limits}
        unitLabel={t('unit.minutes')}
        unitSize={60}
      />
      <RealmAmount
        name="move_messages_between_streams_limit_seconds"
        label={t('settings.moveChannelLimit')}
        hint={t('settings.moveLimitHint')}
        presets={limits}
        unitLabel={t('unit.minutes')}
        unitSize={60}
      />
    </SettingsGroup>
  );
}

/** What messages require and show: topics, previews, receipts, code, GIFs and calls. */
function MessageDisplaySettings() {
  const { t } = useTranslation('adminOrg');
  return (
    <SettingsGroup title={t('settings.messages')}>
      <RealmToggle
        name="mandatory_topics"
        label={t('settings.mandatoryTopics')}
        hint={t('settings.mandatoryTopicsHint')}
      />
      <RealmToggle name="inline_image_preview" label={t('settings.imagePreviews')} />
      <RealmToggle name="inline_url_embed_preview" label={t('settings.linkPreviews')} />
      <RealmToggle name="enable_read_receipts" label={t('settings.readReceipts')} />
      <RealmToggle
        name="presence_disabled"
        label={t('settings.presenceDisabled')}
        hint={t('settings.presenceDisabledHint')}
      />
      <RealmText
        name="default_code_block_language"
        label={t('settings.codeLanguage')}
        hint={t('settings.codeLanguageHint')}
        maxLength={100}
      />
      <RealmSelect name="giphy_rating" label={t('settings.gifRating')} options={gifRatings(t)} />
      <VideoProvider />
      <RealmText
        name="jitsi_server_url"
        label={t('settings.meetServer')}
        hint={t('settings.meetServerHint')}
        placeholder={EXAMPLE_MEET_URL}
        maxLength={200}
        emptyAs="default"
      />
    </SettingsGroup>
  );
}

export function OrgSettingsSection() {
  const { t } = useTranslation('adminOrg');
  return (
    <div className="admin-org">
      <ReadOnlyNote />
      <SettingsGroup title={t('settings.language')}>
        <RealmSelect
          name="default_language"
          label={t('settings.defaultLanguage')}
          hint={t('settings.defaultLanguageHint')}
          options={languages()}
        />
      </SettingsGroup>
      <NotificationSettings />
      <EditingSettings />
      <SettingsGroup title={t('settings.retention')}>
        <RealmAmount
          name="message_retention_days"
          label={t('settings.retentionDays')}
          hint={t('settings.retentionHint')}
          presets={retentionPresets(t)}
          unitLabel={t('unit.days')}
          ownerOnly
        />
      </SettingsGroup>
      <MessageDisplaySettings />
      <SettingsGroup title={t('settings.guests')}>
        <RealmToggle name="enable_guest_user_indicator" label={t('settings.guestIndicator')} />
        <RealmToggle name="enable_guest_user_dm_warning" label={t('settings.guestDmWarning')} />
      </SettingsGroup>
    </div>
  );
}
