import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ROLE } from '../../api/model/user';
import { Avatar } from '../../components/Avatar';
import { useOwnUserId, useRealmSetting, useUser } from '../../model/hooks';
import { useDeleteAvatar, useUploadAvatar } from '../../queries/people';
import { StatusNote } from '../settings/controls';

/** Upload a picture or go back to the generated one. */
export function AvatarSetting() {
  const { t } = useTranslation('people');
  const me = useUser(useOwnUserId());
  const upload = useUploadAvatar();
  const remove = useDeleteAvatar();
  const input = useRef<HTMLInputElement>(null);
  const locked =
    useRealmSetting('avatar_changes_disabled') === true &&
    (me?.role ?? ROLE.GUEST) > ROLE.ADMINISTRATOR;
  if (!me) return null;
  const busy = upload.isPending || remove.isPending;
  const last = remove.submittedAt > upload.submittedAt ? remove : upload;
  return (
    <div className="settings-row people-avatar-row">
      <Avatar url={me.avatar_url} name={me.full_name} size={72} />
      <div className="people-avatar-actions">
        <input
          ref={input}
          id="people-avatar-file"
          className="visually-hidden"
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          disabled={locked || busy}
          aria-label={t('settings.avatarFile')}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) upload.mutate(file);
            e.target.value = '';
          }}
        />
        <button
          type="button"
          className="button"
          disabled={locked || busy}
          onClick={() => input.current?.click()}
        >
          {t('settings.uploadAvatar')}
        </button>
        <button
          type="button"
          className="button button-quiet"
          disabled={locked || busy}
          onClick={() => remove.mutate()}
        >
          {t('settings.removeAvatar')}
        </button>
        {locked && <p className="settings-hint">{t('settings.avatarLocked')}</p>}
        <StatusNote save={last} />
      </div>
    </div>
  );
}
