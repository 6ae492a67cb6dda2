/**
 * Personal settings: each control saves itself with PATCH /settings, as in the reference app. The
 * values shown come from the live store, so a change made in another tab (a user_settings event)
 * shows here too; while a save is in flight the control shows the value being saved. Each
 * section lives in its own file.
 */
import { useTranslation } from 'react-i18next';
import { ROLE } from '../../api/model/user';
import { useOwnUserId, useUsersById } from '../../model/hooks';
import { AccountSection } from './AccountSection';
import { NotificationsSection } from './NotificationsSection';
import { PreferencesSection } from './PreferencesSection';
import { PrivacySection } from './PrivacySection';
import { ProfileSettings } from '../people/ProfileSettings';
import { SettingsLayout, type SettingsSection } from './SettingsLayout';
import { OwnBotsSection } from '../admin/users/BotsSection';

/** The personal settings, one URL each: `/settings/<id>`. */
function usePersonalSections(): SettingsSection[] {
  const { t } = useTranslation(['settings', 'adminUsers']);
  return [
    { id: 'profile', title: t('sections.profile'), Component: ProfileSettings },
    { id: 'account', title: t('sections.account'), Component: AccountSection },
    { id: 'preferences', title: t('sections.preferences'), Component: PreferencesSection },
    { id: 'notifications', title: t('sections.notifications'), Component: NotificationsSection },
    { id: 'privacy', title: t('sections.privacy'), Component: PrivacySection },
    { id: 'bots', title: t('adminUsers:sections.bots'), Component: OwnBotsSection },
  ];
}

export function SettingsView({ section }: { section: string | undefined }) {
  const { t } = useTranslation();
  // Organization settings are for administrators (the server refuses anyone else).
  const isAdmin = (useUsersById()[useOwnUserId()]?.role ?? ROLE.GUEST) <= ROLE.ADMINISTRATOR;
  return (
    <SettingsLayout
      title={t('pages.settings')}
      basePath="/settings"
      sections={usePersonalSections()}
      active={section}
      other={isAdmin ? { to: '/organization', label: t('pages.organization') } : undefined}
    />
  );
}
