/** The personal settings' "Profile" section: how others see you. */
import { useTranslation } from 'react-i18next';
import { SettingsGroup } from '../settings/controls';
import { AvatarSetting } from './AvatarSetting';
import { NameSetting } from './NameSetting';
import { ProfileFieldsSetting } from './ProfileFieldsSetting';
import { AvailabilitySetting, StatusSetting } from './StatusSetting';

export function ProfileSettings() {
  const { t } = useTranslation('people');
  return (
    <>
      <SettingsGroup title={t('settings.identity')}>
        <NameSetting />
        <AvatarSetting />
      </SettingsGroup>
      <SettingsGroup title={t('settings.status')}>
        <StatusSetting />
        <AvailabilitySetting />
      </SettingsGroup>
      <SettingsGroup title={t('settings.fields')}>
        <ProfileFieldsSetting />
      </SettingsGroup>
    </>
  );
}
