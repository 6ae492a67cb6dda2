/**
 * Notifications: what notifies this person, where (desktop, sound, phone, email), and how emails
 * are batched; the alert words; this browser's permission.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAvailableNotificationSounds } from '../../model/hooks';
import { AlertWords } from './AlertWords';
import { SettingsGroup } from './controls';
import { SettingSelect, SettingToggle } from './fields';

/** The reference app's batching choices, in seconds. */
const BATCHING_PERIODS = [120, 300, 600, 1800, 3600, 21600, 86400, 604800];

function durationName(seconds: number, t: ReturnType<typeof useTranslation<'settings'>>['t']) {
  if (seconds % 86400 === 0) return t('notifications.days', { count: seconds / 86400 });
  if (seconds % 3600 === 0) return t('notifications.hours', { count: seconds / 3600 });
  return t('notifications.minutes', { count: Math.round(seconds / 60) });
}

/** Asks the browser for permission to notify, and says where things stand. */
function BrowserPermission() {
  const { t } = useTranslation('settings');
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (!supported)
    return <p className="settings-hint settings-hint-block">{t('notifications.unsupported')}</p>;
  if (permission === 'granted')
    return <p className="settings-hint settings-hint-block">{t('notifications.granted')}</p>;
  if (permission === 'denied')
    return <p className="settings-hint settings-hint-block">{t('notifications.denied')}</p>;
  return (
    <div className="settings-row">
      <button
        type="button"
        className="button"
        onClick={() => void Notification.requestPermission().then(setPermission)}
      >
        {t('notifications.askPermission')}
      </button>
    </div>
  );
}

function SoundChoice() {
  const { t } = useTranslation('settings');
  const sounds = useAvailableNotificationSounds();
  const names: Record<string, string> = {
    none: t('notifications.soundNone'),
    zulip: t('notifications.soundDefault'),
  };
  const list = sounds.includes('none') ? sounds : [...sounds, 'none'];
  return (
    <SettingSelect
      name="notification_sound"
      label={t('notifications.sound')}
      options={list.map((s) => [s, names[s] ?? s.charAt(0).toUpperCase() + s.slice(1)] as const)}
    />
  );
}

export function NotificationsSection() {
  return (
    <>
      <ChannelNotifications />
      <FollowedTopicNotifications />
      <DirectMessageNotifications />
      <TopicFollowing />
      <DesktopNotifications />
      <MobileNotifications />
      <EmailNotifications />
      <AlertWordsGroup />
    </>
  );
}

/** What notifies in channels you are subscribed to. */
function ChannelNotifications() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('notifications.channels')}>
      <SettingToggle
        name="enable_stream_desktop_notifications"
        label={t('notifications.desktop')}
      />
      <SettingToggle
        name="enable_stream_audible_notifications"
        label={t('notifications.audible')}
      />
      <SettingToggle name="enable_stream_push_notifications" label={t('notifications.push')} />
      <SettingToggle name="enable_stream_email_notifications" label={t('notifications.email')} />
      <p className="settings-hint settings-hint-block">{t('notifications.channelsHint')}</p>
    </SettingsGroup>
  );
}

/** What notifies in topics you follow. */
function FollowedTopicNotifications() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('notifications.followed')}>
      <SettingToggle
        name="enable_followed_topic_desktop_notifications"
        label={t('notifications.desktop')}
      />
      <SettingToggle
        name="enable_followed_topic_audible_notifications"
        label={t('notifications.audible')}
      />
      <SettingToggle
        name="enable_followed_topic_push_notifications"
        label={t('notifications.push')}
      />
      <SettingToggle
        name="enable_followed_topic_email_notifications"
        label={t('notifications.email')}
      />
      <SettingToggle
        name="enable_followed_topic_wildcard_mentions_notify"
        label={t('notifications.wildcard')}
      />
    </SettingsGroup>
  );
}

/** What notifies for direct messages and mentions. */
function DirectMessageNotifications() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('notifications.direct')}>
      <SettingToggle name="enable_desktop_notifications" label={t('notifications.desktop')} />
      <SettingToggle name="enable_sounds" label={t('notifications.audible')} />
      <SettingToggle name="enable_offline_push_notifications" label={t('notifications.push')} />
      <SettingToggle name="enable_offline_email_notifications" label={t('notifications.email')} />
      <SettingToggle name="wildcard_mentions_notify" label={t('notifications.wildcard')} />
    </SettingsGroup>
  );
}

/** When topics are followed or unmuted for you. */
function TopicFollowing() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('notifications.topics')}>
      <SettingSelect
        name="automatically_follow_topics_policy"
        label={t('notifications.autoFollow')}
        options={[
          [1, t('notifications.topicsParticipate')],
          [2, t('notifications.topicsSend')],
          [3, t('notifications.topicsStart')],
          [4, t('notifications.topicsNever')],
        ]}
      />
      <SettingSelect
        name="automatically_unmute_topics_in_muted_streams_policy"
        label={t('notifications.autoUnmute')}
        options={[
          [1, t('notifications.topicsParticipate')],
          [2, t('notifications.topicsSend')],
          [3, t('notifications.topicsStart')],
          [4, t('notifications.topicsNever')],
        ]}
      />
      <SettingToggle
        name="automatically_follow_topics_where_mentioned"
        label={t('notifications.followMentioned')}
      />
    </SettingsGroup>
  );
}

/** This browser's notifications. */
function DesktopNotifications() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('notifications.desktopGroup')}>
      <BrowserPermission />
      <SettingToggle
        name="pm_content_in_desktop_notifications"
        label={t('notifications.dmContent')}
      />
      <SoundChoice />
      <SettingSelect
        name="desktop_icon_count_display"
        label={t('notifications.iconCount')}
        options={[
          [1, t('notifications.iconAll')],
          [2, t('notifications.iconDirect')],
          [3, t('notifications.iconNone')],
        ]}
      />
    </SettingsGroup>
  );
}

function MobileNotifications() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('notifications.mobile')}>
      <SettingToggle
        name="enable_online_push_notifications"
        label={t('notifications.pushWhileOnline')}
      />
    </SettingsGroup>
  );
}

/** When and how notification emails are sent. */
function EmailNotifications() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('notifications.emailGroup')}>
      <SettingSelect
        name="email_notifications_batching_period_seconds"
        label={t('notifications.batching')}
        options={BATCHING_PERIODS.map((s) => [s, durationName(s, t)] as const)}
      />
      <SettingSelect
        name="realm_name_in_email_notifications_policy"
        label={t('notifications.realmName')}
        options={[
          [1, t('notifications.automatic')],
          [2, t('notifications.always')],
          [3, t('notifications.never')],
        ]}
      />
      <SettingToggle
        name="message_content_in_email_notifications"
        label={t('notifications.emailContent')}
      />
      <SettingToggle name="enable_digest_emails" label={t('notifications.digest')} />
      <SettingToggle name="enable_login_emails" label={t('notifications.login')} />
      <SettingToggle name="enable_marketing_emails" label={t('notifications.marketing')} />
    </SettingsGroup>
  );
}

function AlertWordsGroup() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('notifications.alertWords')}>
      <AlertWords />
    </SettingsGroup>
  );
}
