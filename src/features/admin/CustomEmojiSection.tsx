/**
 * Custom emoji: the organization's own images, usable as :name: in messages and as reactions.
 * Whoever the organization's setting allows may add one; its author or an administrator may
 * deactivate it (old messages keep showing it). realm_emoji events update every window.
 */
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { RealmEmoji } from '../../api/model';
import { errorText } from '../../api/errors';
import { EmptyState } from '../../components/StatePanel';
import { useOwnUserId, useRealmEmojiById, useRealmSetting, useUsersById } from '../../model/hooks';
import { policyAllows } from '../message-list/permissions';
import { StatusNote } from '../settings/controls';
import { Confirm } from './Confirm';
import { useOrgRole } from './org-controls';
import { useDeactivateEmoji, useUploadEmoji } from './org-queries';

/** Emoji names as the server accepts them: lowercase letters, digits, dashes and underscores. */
const NAME = /^[a-z0-9_-]+$/;

function UploadForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation('adminOrg');
  const upload = useUploadEmoji();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { name: useId(), file: useId(), nameHint: useId() };
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  const nameOk = NAME.test(name);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file || !nameOk) return;
    upload.mutate({ name, file }, { onSuccess: onDone });
  };
  return (
    <form className="admin-form" onSubmit={submit} aria-label={t('emoji.addTitle')}>
      <div className="admin-form-grid">
        <div className="admin-field">
          <label htmlFor={ids.name}>{t('emoji.name')}</label>
          <input
            id={ids.name}
            className="text-input"
            value={name}
            required
            aria-describedby={ids.nameHint}
            aria-invalid={name !== '' && !nameOk}
            onChange={(e) => setName(e.target.value.toLowerCase().replace(/\s+/g, '_'))}
          />
          <p className="settings-hint" id={ids.nameHint}>
            {name !== '' && !nameOk ? t('emoji.nameInvalid') : t('emoji.nameHint')}
          </p>
        </div>
        <div className="admin-field">
          <label htmlFor={ids.file}>{t('emoji.image')}</label>
          <input
            id={ids.file}
            ref={fileInput}
            type="file"
            className="admin-file"
            accept="image/png,image/gif,image/jpeg,image/webp"
            required
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </div>
      </div>
      {preview && (
        <p className="admin-emoji-preview">
          <img src={preview} alt="" className="admin-emoji-image" />
          <span>{name ? `:${name}:` : ''}</span>
        </p>
      )}
      <div className="admin-actions">
        <button type="button" className="button" onClick={onDone}>
          {t('cancel')}
        </button>
        <button
          type="submit"
          className="button button-primary"
          disabled={upload.isPending || !file || !nameOk}
        >
          {t('emoji.upload')}
        </button>
      </div>
      {upload.isError && (
        <p className="settings-status settings-status-error" role="alert">
          {errorText(upload.error)}
        </p>
      )}
    </form>
  );
}

function EmojiRow({ emoji, canDelete }: { emoji: RealmEmoji; canDelete: boolean }) {
  const { t } = useTranslation('adminOrg');
  const users = useUsersById();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeactivateEmoji();
  const author = emoji.author_id ? users[emoji.author_id]?.full_name : undefined;
  return (
    <li className="admin-item">
      <div className="admin-item-main">
        <img className="admin-emoji-image" src={emoji.source_url} alt="" />
        <div className="admin-item-text">
          <strong>:{emoji.name}:</strong>
          <p className="settings-hint">
            {author ? t('emoji.addedBy', { name: author }) : t('emoji.noAuthor')}
          </p>
        </div>
        {canDelete && !confirming && (
          <div className="admin-item-actions">
            <button
              type="button"
              className="button button-small"
              aria-label={t('emoji.delete', { name: emoji.name })}
              onClick={() => setConfirming(true)}
            >
              {t('delete')}
            </button>
          </div>
        )}
      </div>
      {confirming && (
        <Confirm
          confirmLabel={t('delete')}
          pending={remove.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate(emoji.name)}
        >
          {t('emoji.confirmDelete', { name: emoji.name })}
        </Confirm>
      )}
      {remove.isError && <StatusNote save={remove} />}
    </li>
  );
}

export function CustomEmojiSection() {
  const { t } = useTranslation('adminOrg');
  const byId = useRealmEmojiById();
  const { role, isAdmin } = useOrgRole();
  const ownUserId = useOwnUserId();
  const policy = useRealmSetting('add_custom_emoji_policy');
  const mayAdd = policyAllows(policy, role);
  const [adding, setAdding] = useState(false);
  const emoji = useMemo(
    () =>
      Object.values(byId)
        .filter((e) => !e.deactivated)
        .sort((a, b) => a.name.localeCompare(b.name)),
    [byId],
  );
  return (
    <div className="admin-org">
      <p className="settings-hint">{mayAdd ? t('emoji.intro') : t('emoji.introNoAdd')}</p>
      {mayAdd &&
        (adding ? (
          <UploadForm onDone={() => setAdding(false)} />
        ) : (
          <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
            {t('emoji.addButton')}
          </button>
        ))}
      {emoji.length === 0 ? (
        <EmptyState title={t('emoji.emptyTitle')}>{t('emoji.emptyMessage')}</EmptyState>
      ) : (
        <ul className="admin-list admin-emoji-list" aria-label={t('emoji.listLabel')}>
          {emoji.map((e) => (
            <EmojiRow key={e.id} emoji={e} canDelete={isAdmin || e.author_id === ownUserId} />
          ))}
        </ul>
      )}
    </div>
  );
}
