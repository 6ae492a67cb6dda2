/**
 * Organization profile: its name (shown in everyone's top bar), description, type, icon and
 * whether it may be listed in the communities directory.
 */
import { useTranslation } from 'react-i18next';
import { useRealmIconUrl, useRealmName, useRealmSetting } from '../../model/hooks';
import { sanitizeHtml } from '../message-list/sanitize';
import { SettingsGroup } from '../settings/controls';
import { ReadOnlyNote, RealmSelect, RealmText, RealmToggle } from './org-controls';
import { orgTypes } from './org-options';

/** The description as typed: the server keeps it as rendered HTML of plain text. */
function descriptionText(html: unknown): string {
  if (typeof html !== 'string' || !html) return '';
  const doc = new DOMParser().parseFromString(sanitizeHtml(html), 'text/html');
  return doc.body.textContent ?? '';
}

export function OrgProfileSection() {
  const { t } = useTranslation('adminOrg');
  const name = useRealmName();
  const iconUrl = useRealmIconUrl();
  const description = useRealmSetting('description');
  return (
    <div className="admin-org">
      <ReadOnlyNote />
      <SettingsGroup title={t('profile.identity')}>
        <div className="admin-org-card">
          {iconUrl ? (
            <img className="admin-org-icon" src={iconUrl} alt={t('profile.icon', { name })} />
          ) : (
            <span className="admin-org-icon admin-org-icon-letter" aria-hidden="true">
              {name.slice(0, 1).toUpperCase()}
            </span>
          )}
          <div>
            <strong className="admin-org-name">{name}</strong>
            <p className="settings-hint">{t('profile.iconHint')}</p>
          </div>
        </div>
        <RealmText name="name" label={t('profile.name')} maxLength={40} />
        <RealmText
          name="description"
          label={t('profile.description')}
          hint={t('profile.descriptionHint')}
          multiline
          maxLength={1000}
          initial={descriptionText(description)}
        />
        <RealmSelect name="org_type" label={t('profile.orgType')} options={orgTypes(t)} />
        <RealmToggle
          name="want_advertise_in_communities_directory"
          label={t('profile.advertise')}
          hint={t('profile.advertiseHint')}
        />
      </SettingsGroup>
    </div>
  );
}
