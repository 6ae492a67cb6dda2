/** Preferences: how Parley looks and behaves for this person, grouped as the reference app does. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { languageChoices, languageSelfName, translationFor } from '../../i18n';
import { useUserSetting } from '../../model/hooks';
import { useEmojisetChoices } from '../../model/hooks';
import { COLOR_SCHEME } from './color-scheme';
import { SettingsGroup } from './controls';
import { SettingBooleanSelect, SettingSelect, SettingToggle } from './fields';

/** Every time zone this browser knows, in the order Intl lists them. */
function timeZones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  const zones = supported ? supported('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const FONT_SIZES = [12, 13, 14, 15, 16, 17, 18, 19, 20];
const LINE_HEIGHTS = [122, 130, 140, 150, 158];

function GeneralGroup() {
  const { t } = useTranslation('settings');
  const zones = useMemo(timeZones, []);
  const languages = useMemo(languageChoices, []);
  const language = useUserSetting('default_language');
  return (
    <SettingsGroup title={t('preferences.general')}>
      <SettingSelect
        name="default_language"
        label={t('preferences.language')}
        options={languages}
        hint={
          language && !translationFor(language)
            ? t('preferences.languageNotTranslated', { language: languageSelfName(language) })
            : undefined
        }
      />
      <SettingSelect
        name="timezone"
        label={t('preferences.timezone')}
        options={[
          ['', t('preferences.timezoneAutomatic', { zone: browserTimeZone() })],
          ...zones.map((zone) => [zone, zone.replaceAll('_', ' ')] as const),
        ]}
      />
      <SettingBooleanSelect
        name="twenty_four_hour_time"
        label={t('preferences.timeFormat')}
        whenFalse={t('preferences.time12')}
        whenTrue={t('preferences.time24')}
      />
      <SettingToggle name="hide_ai_features" label={t('preferences.hideAi')} />
    </SettingsGroup>
  );
}

function ThemeGroup() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('preferences.appearance')}>
      <SettingSelect
        name="color_scheme"
        label={t('preferences.theme')}
        options={[
          [COLOR_SCHEME.AUTOMATIC, t('preferences.themeAutomatic')],
          [COLOR_SCHEME.LIGHT, t('preferences.themeLight')],
          [COLOR_SCHEME.DARK, t('preferences.themeDark')],
        ]}
      />
      <SettingToggle name="high_contrast_mode" label={t('preferences.highContrast')} />
      <SettingSelect
        name="web_font_size_px"
        label={t('preferences.fontSize')}
        options={FONT_SIZES.map((px) => [px, t('preferences.pixels', { count: px })] as const)}
      />
      <SettingSelect
        name="web_line_height_percent"
        label={t('preferences.lineHeight')}
        options={LINE_HEIGHTS.map(
          (pct) => [pct, t('preferences.percent', { count: pct })] as const,
        )}
      />
      <SettingBooleanSelect
        name="fluid_layout_width"
        label={t('preferences.layoutWidth')}
        whenFalse={t('preferences.layoutFixed')}
        whenTrue={t('preferences.layoutFluid')}
      />
      <SettingToggle
        name="dense_mode"
        label={t('preferences.denseMode')}
        hint={t('preferences.denseModeHint')}
      />
    </SettingsGroup>
  );
}

function EmojiGroup() {
  const { t } = useTranslation('settings');
  const choices = useEmojisetChoices();
  const sets: readonly (readonly ['google' | 'google-blob' | 'twitter' | 'text', string])[] = [
    ['google', t('preferences.emojiGoogle')],
    ['google-blob', t('preferences.emojiGoogleBlob')],
    ['twitter', t('preferences.emojiTwitter')],
    ['text', t('preferences.emojiText')],
  ];
  // The server says which sets it offers; without that list all four are shown.
  const offered = choices.length
    ? sets.filter(([key]) => choices.some((c) => c.key === key))
    : sets;
  return (
    <SettingsGroup title={t('preferences.emoji')}>
      <SettingSelect name="emojiset" label={t('preferences.emojiset')} options={offered} />
      <SettingToggle
        name="translate_emoticons"
        label={t('preferences.translateEmoticons')}
        hint={t('preferences.translateEmoticonsHint')}
      />
      <SettingToggle name="display_emoji_reaction_users" label={t('preferences.reactionUsers')} />
    </SettingsGroup>
  );
}

function NavigationGroup() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('preferences.navigation')}>
      <SettingSelect
        name="web_home_view"
        label={t('preferences.homeView')}
        options={[
          ['inbox', t('preferences.homeInbox')],
          ['recent_topics', t('preferences.homeRecent')],
          ['all_messages', t('preferences.homeFeed')],
        ]}
      />
      <SettingToggle
        name="web_escape_navigates_to_home_view"
        label={t('preferences.escapeToHome')}
      />
      <SettingSelect
        name="web_channel_default_view"
        label={t('preferences.channelDefaultView')}
        options={[
          [1, t('preferences.channelTopTopic')],
          [2, t('preferences.channelFeed')],
          [3, t('preferences.channelTopicList')],
          [4, t('preferences.channelTopUnread')],
        ]}
      />
      <SettingToggle name="web_navigate_to_sent_message" label={t('preferences.navigateToSent')} />
      <SettingToggle name="web_suggest_update_timezone" label={t('preferences.suggestTimezone')} />
    </SettingsGroup>
  );
}

function SidebarGroup() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('preferences.sidebar')}>
      <SettingSelect
        name="demote_inactive_streams"
        label={t('preferences.demoteInactive')}
        options={[
          [1, t('preferences.automatic')],
          [2, t('preferences.always')],
          [3, t('preferences.never')],
        ]}
      />
      <SettingSelect
        name="web_stream_unreads_count_display_policy"
        label={t('preferences.unreadCounts')}
        options={[
          [1, t('preferences.unreadAllChannels')],
          [2, t('preferences.unreadUnmuted')],
          [3, t('preferences.unreadNone')],
        ]}
      />
      <SettingToggle
        name="web_left_sidebar_unreads_count_summary"
        label={t('preferences.unreadSummary')}
      />
      <SettingToggle
        name="web_left_sidebar_show_channel_folders"
        label={t('preferences.channelFolders')}
      />
      <SettingToggle name="starred_message_counts" label={t('preferences.starredCounts')} />
      <SettingSelect
        name="user_list_style"
        label={t('preferences.userListStyle')}
        options={[
          [1, t('preferences.userListCompact')],
          [2, t('preferences.userListStatus')],
          [3, t('preferences.userListAvatar')],
        ]}
      />
      <SettingToggle name="left_side_userlist" label={t('preferences.leftUserList')} />
    </SettingsGroup>
  );
}

function MessagesGroup() {
  const { t } = useTranslation('settings');
  return (
    <SettingsGroup title={t('preferences.messages')}>
      <SettingToggle
        name="enter_sends"
        label={t('preferences.enterSends')}
        hint={t('preferences.enterSendsHint')}
      />
      <SettingSelect
        name="web_mark_read_on_scroll_policy"
        label={t('preferences.markRead')}
        options={[
          [1, t('preferences.always')],
          [2, t('preferences.markReadConversations')],
          [3, t('preferences.never')],
        ]}
      />
      <SettingSelect
        name="resolved_topic_notice_auto_read_policy"
        label={t('preferences.resolvedNotices')}
        options={[
          ['always', t('preferences.always')],
          ['except_followed', t('preferences.resolvedExceptFollowed')],
          ['never', t('preferences.never')],
        ]}
      />
      <SettingSelect
        name="web_animate_image_previews"
        label={t('preferences.animateImages')}
        options={[
          ['always', t('preferences.always')],
          ['on_hover', t('preferences.animateOnHover')],
          ['never', t('preferences.never')],
        ]}
      />
    </SettingsGroup>
  );
}

export function PreferencesSection() {
  return (
    <>
      <GeneralGroup />
      <ThemeGroup />
      <NavigationGroup />
      <SidebarGroup />
      <MessagesGroup />
      <EmojiGroup />
    </>
  );
}
