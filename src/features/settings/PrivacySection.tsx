/**
 * Privacy: what others may see of this person (typing, reading, being online, the email address),
 * where drafts are kept, data export, and the people this person muted.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveUsers, useMutedUsers, useOwnUserId, useUsersById } from '../../model/hooks';
import { useMuteUser } from '../../queries/settings';
import { SettingsGroup, StatusNote } from './controls';
import { SettingSelect, SettingToggle } from './fields';

function MutedUsers() {
  const { t } = useTranslation('settings');
  const mute = useMuteUser();
  const ownUserId = useOwnUserId();
  const muted = useMutedUsers();
  const users = useUsersById();
  const candidates = useActiveUsers().filter(
    (u) => u.user_id !== ownUserId && !(u.user_id in muted),
  );
  const [chosen, setChosen] = useState('');
  const run = (userId: number, muted: boolean) =>
    mute.mutate({ userId, muted }, { onSuccess: () => setChosen('') });
  const mutedIds = Object.keys(muted)
    .map(Number)
    .sort((a, b) => (users[a]?.full_name ?? '').localeCompare(users[b]?.full_name ?? ''));
  return (
    <>
      <p className="settings-hint settings-hint-block">{t('muted.hint')}</p>
      {mutedIds.length > 0 ? (
        <ul className="settings-list" aria-label={t('muted.list')}>
          {mutedIds.map((id) => {
            const name = users[id]?.full_name ?? t('muted.unknown');
            return (
              <li key={id}>
                <span>{name}</span>
                <button
                  type="button"
                  className="button button-small"
                  aria-label={t('muted.unmuteName', { name })}
                  onClick={() => run(id, false)}
                >
                  {t('muted.unmute')}
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="settings-empty">{t('muted.none')}</p>
      )}
      <form
        className="settings-row settings-inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (chosen) run(Number(chosen), true);
        }}
      >
        <label htmlFor="setting-mute-user">{t('muted.choose')}</label>
        <select
          id="setting-mute-user"
          className="text-input"
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
        >
          <option value="">{t('muted.placeholder')}</option>
          {candidates.map((u) => (
            <option key={u.user_id} value={u.user_id}>
              {u.full_name}
            </option>
          ))}
        </select>
        <button type="submit" className="button" disabled={!chosen}>
          {t('muted.mute')}
        </button>
        <StatusNote save={mute} />
      </form>
    </>
  );
}

export function PrivacySection() {
  const { t } = useTranslation('settings');
  return (
    <>
      <SettingsGroup title={t('privacy.title')}>
        <SettingToggle name="send_private_typing_notifications" label={t('privacy.typingDirect')} />
        <SettingToggle name="send_stream_typing_notifications" label={t('privacy.typingChannel')} />
        <SettingToggle name="receives_typing_notifications" label={t('privacy.typingReceive')} />
        <SettingToggle
          name="send_read_receipts"
          label={t('privacy.readReceipts')}
          hint={t('privacy.readReceiptsHint')}
        />
        <SettingToggle
          name="presence_enabled"
          label={t('privacy.presence')}
          hint={t('privacy.presenceHint')}
        />
        <SettingSelect
          name="email_address_visibility"
          label={t('privacy.emailVisibility')}
          options={[
            [1, t('privacy.visibleEveryone')],
            [2, t('privacy.visibleMembers')],
            [5, t('privacy.visibleModerators')],
            [3, t('privacy.visibleAdmins')],
            [4, t('privacy.visibleNobody')],
          ]}
        />
        <SettingToggle
          name="allow_private_data_export"
          label={t('privacy.dataExport')}
          hint={t('privacy.dataExportHint')}
        />
      </SettingsGroup>
      <SettingsGroup title={t('privacy.drafts')}>
        <SettingToggle
          name="enable_drafts_synchronization"
          label={t('privacy.draftsSync')}
          hint={t('privacy.draftsSyncHint')}
        />
      </SettingsGroup>
      <SettingsGroup title={t('muted.title')}>
        <MutedUsers />
      </SettingsGroup>
    </>
  );
}
