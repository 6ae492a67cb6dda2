import { useEffect, useState, type CSSProperties, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { UserStatus } from '../../api/model';
import { useOwnUserId, useUserSetting, useUserStatus } from '../../model/hooks';
import { useUpdateStatus } from '../../queries/people';
import { useUpdateSettings } from '../../queries/settings';
import { EmojiPicker } from '../emoji/EmojiPicker';
import { StatusNote, ToggleRow } from '../settings/controls';
import { StatusEmoji } from './StatusBadge';

const MAX_STATUS_LENGTH = 60;

/** Your status: an emoji and a short text, set together; and clearing both at once. */
export function StatusSetting() {
  const { t } = useTranslation('people');
  const live = useUserStatus(useOwnUserId());
  const save = useUpdateStatus();
  const draft = useStatusDraft(live, save);
  const { shownEmoji } = draft;
  const [picker, setPicker] = useState<CSSProperties | null>(null);
  const hasStatus = !!(live.status_text || live.emoji_name);
  const openPicker = (button: HTMLElement) => {
    const box = button.getBoundingClientRect();
    setPicker(
      window.innerWidth < 600
        ? { position: 'fixed', left: 8, right: 8, bottom: 8 }
        : { position: 'fixed', top: box.bottom + 4, left: box.left },
    );
  };

  return (
    <form className="settings-row people-status-form" onSubmit={draft.submit}>
      <label htmlFor="people-status-text">{t('settings.statusText')}</label>
      <div className="people-status-inputs">
        <button
          type="button"
          className="button people-status-emoji"
          aria-label={
            shownEmoji.emoji_name
              ? t('settings.statusEmojiChosen', { name: shownEmoji.emoji_name.replace(/_/g, ' ') })
              : t('settings.statusEmoji')
          }
          aria-haspopup="dialog"
          aria-expanded={picker !== null}
          onClick={(e) => (picker ? setPicker(null) : openPicker(e.currentTarget))}
        >
          {shownEmoji.emoji_name ? <StatusEmoji status={shownEmoji} /> : <span aria-hidden>☺</span>}
        </button>
        <input
          id="people-status-text"
          className="text-input"
          value={draft.shownText}
          maxLength={MAX_STATUS_LENGTH}
          placeholder={t('settings.statusPlaceholder')}
          onChange={(e) => draft.setText(e.target.value)}
        />
      </div>
      <div className="people-status-buttons">
        <button type="submit" className="button button-primary" disabled={!draft.changed}>
          {t('settings.saveStatus')}
        </button>
        <button
          type="button"
          className="button button-quiet"
          disabled={!hasStatus}
          onClick={draft.clear}
        >
          {t('settings.clearStatus')}
        </button>
        <StatusNote save={save} />
      </div>
      {picker &&
        createPortal(
          <EmojiPicker
            label={t('settings.statusEmoji')}
            className="people-emoji-picker"
            style={picker}
            onClose={() => setPicker(null)}
            onPick={(picked) => {
              draft.setEmoji({
                emoji_name: picked.name,
                emoji_code: picked.code,
                reaction_type: picked.kind,
              });
              setPicker(null);
            }}
          />,
          document.body,
        )}
    </form>
  );
}

/** The status being edited: drafts over the live status, saved together or cleared together. */
function useStatusDraft(live: UserStatus, save: ReturnType<typeof useUpdateStatus>) {
  const [text, setText] = useState<string | null>(null);
  const [emoji, setEmoji] = useState<UserStatus | null>(null);
  const shownText = text ?? live.status_text ?? '';
  const shownEmoji = emoji ?? live;
  const changed = text !== null || emoji !== null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      status_text: shownText.trim(),
      emoji_name: shownEmoji.emoji_name ?? '',
      emoji_code: shownEmoji.emoji_code ?? '',
      reaction_type: shownEmoji.emoji_name ? (shownEmoji.reaction_type ?? 'unicode_emoji') : '',
    });
  };
  // The drafts give way once the event brings what was saved (no flicker back in between).
  const liveText = live.status_text ?? '';
  const liveEmoji = live.emoji_name ?? '';
  useEffect(() => {
    if (text !== null && text.trim() === liveText) setText(null);
  }, [text, liveText]);
  useEffect(() => {
    if (emoji !== null && (emoji.emoji_name ?? '') === liveEmoji) setEmoji(null);
  }, [emoji, liveEmoji]);
  const clear = () =>
    save.mutate(
      { status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' },
      {
        onSuccess: () => {
          setText(null);
          setEmoji(null);
        },
      },
    );
  return { shownText, shownEmoji, changed, setText, setEmoji, submit, clear };
}

/**
 * The value a toggle shows: the one asked for until the event brings it (or the request fails),
 * then the live one; so it never flickers back between the answer and the event.
 */
function useWanted(live: boolean, failed: boolean) {
  const [wanted, setWanted] = useState<boolean | null>(null);
  useEffect(() => {
    if (wanted !== null && (wanted === live || failed)) setWanted(null);
  }, [wanted, live, failed]);
  return [wanted ?? live, setWanted] as const;
}

/** "Away" is part of the status; being invisible is not sharing presence at all. */
export function AvailabilitySetting() {
  const { t } = useTranslation('people');
  const away = useUserStatus(useOwnUserId()).away === true;
  const saveAway = useUpdateStatus();
  const invisible = useUserSetting('presence_enabled') === false;
  const saveInvisible = useUpdateSettings();
  const [shownAway, wantAway] = useWanted(away, saveAway.isError);
  const [shownInvisible, wantInvisible] = useWanted(invisible, saveInvisible.isError);
  return (
    <>
      <ToggleRow
        label={t('settings.away')}
        hint={t('settings.awayHint')}
        checked={shownAway}
        onChange={(checked) => {
          wantAway(checked);
          saveAway.mutate({ away: checked });
        }}
        save={saveAway}
      />
      <ToggleRow
        label={t('settings.invisible')}
        hint={t('settings.invisibleHint')}
        checked={shownInvisible}
        onChange={(checked) => {
          wantInvisible(checked);
          saveInvisible.mutate({ presence_enabled: !checked });
        }}
        save={saveInvisible}
      />
    </>
  );
}
