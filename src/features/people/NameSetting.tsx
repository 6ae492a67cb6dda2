import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ROLE } from '../../api/model/user';
import { useOwnUserId, useRealmSetting, useUser } from '../../model/hooks';
import { useUpdateSettings } from '../../queries/settings';
import { StatusNote } from '../settings/controls';

/** Your name; organizations may reserve name changes for administrators. */
export function NameSetting() {
  const { t } = useTranslation('people');
  const save = useUpdateSettings();
  const me = useUser(useOwnUserId());
  const locked =
    useRealmSetting('name_changes_disabled') === true &&
    (me?.role ?? ROLE.GUEST) > ROLE.ADMINISTRATOR;
  const [draft, setDraft] = useState<string | null>(null);
  const current = me?.full_name ?? '';
  const value = draft ?? current;
  const trimmed = value.trim();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || trimmed === current) return;
    save.mutate({ full_name: trimmed });
  };
  // The draft gives way once the event brings the saved name.
  useEffect(() => {
    if (draft !== null && draft.trim() === current) setDraft(null);
  }, [draft, current]);
  return (
    <form className="settings-row settings-inline-form" onSubmit={submit}>
      <label htmlFor="people-full-name">{t('settings.name')}</label>
      <input
        className="text-input"
        id="people-full-name"
        value={value}
        maxLength={60}
        disabled={locked}
        aria-describedby={locked ? 'people-name-locked' : undefined}
        onChange={(e) => setDraft(e.target.value)}
        autoComplete="name"
      />
      {!locked && (
        <button type="submit" className="button" disabled={!trimmed || trimmed === current}>
          {t('settings.saveName')}
        </button>
      )}
      {locked && (
        <p className="settings-hint" id="people-name-locked">
          {t('settings.nameLocked')}
        </p>
      )}
      <StatusNote save={save} />
    </form>
  );
}
