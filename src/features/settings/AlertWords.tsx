/**
 * Alert words: words that flag a message as if it mentioned this person. The list comes from the
 * store (alert_words events keep it current); adding and removing go to their own endpoints.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlertWords } from '../../model/hooks';
import { useAddAlertWords, useRemoveAlertWord } from '../../queries/personal-settings';
import { StatusNote } from './controls';

export function AlertWords() {
  const { t } = useTranslation('settings');
  const words = useAlertWords();
  const add = useAddAlertWords();
  const remove = useRemoveAlertWord();
  const [draft, setDraft] = useState('');
  const trimmed = draft.trim();
  const known = words.some((w) => w.toLowerCase() === trimmed.toLowerCase());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || known) return;
    remove.reset();
    add.mutate([trimmed], { onSuccess: () => setDraft('') });
  };
  const sorted = [...words].sort((a, b) => a.localeCompare(b));
  return (
    <>
      <p className="settings-hint settings-hint-block">{t('alertWords.hint')}</p>
      {sorted.length > 0 ? (
        <ul className="settings-list" aria-label={t('alertWords.list')}>
          {sorted.map((word) => (
            <li key={word}>
              <span className="settings-word">{word}</span>
              <button
                type="button"
                className="button button-small"
                aria-label={t('alertWords.remove', { word })}
                disabled={remove.isPending && remove.variables === word}
                onClick={() => {
                  add.reset();
                  remove.mutate(word);
                }}
              >
                {t('alertWords.removeShort')}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="settings-empty">{t('alertWords.none')}</p>
      )}
      <StatusNote save={remove} />
      <form className="settings-row settings-inline-form" onSubmit={submit}>
        <label htmlFor="setting-alert-word">{t('alertWords.new')}</label>
        <input
          id="setting-alert-word"
          className="text-input"
          value={draft}
          maxLength={100}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="button" disabled={!trimmed || known || add.isPending}>
          {t('alertWords.add')}
        </button>
        {known ? (
          <span className="settings-hint-inline">{t('alertWords.known')}</span>
        ) : (
          <StatusNote save={add} />
        )}
      </form>
    </>
  );
}
