/**
 * Editing a message in place: loads its Markdown source, saves with PATCH /messages/{id}. The new
 * rendering arrives as an update_message event, like everyone else's copy.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import { LoadError } from '../../components/QueryState';
import { useRealmLimits } from '../../model/hooks';
import { useEditMessage, useMessageSource } from '../../queries/message-actions';

export function MessageEditor({ messageId, onDone }: { messageId: number; onDone(): void }) {
  const { t } = useTranslation('messages');
  const limits = useRealmLimits();
  const source = useMessageSource(messageId);
  const edit = useEditMessage(messageId);
  const [text, setText] = useState<string | null>(null);
  // An empty message is refused here, before the server is asked.
  const [emptyError, setEmptyError] = useState(false);
  const saving = edit.isPending;
  const error = emptyError ? t('editor.empty') : edit.isError ? errorText(edit.error) : null;
  const field = useRef<HTMLTextAreaElement>(null);
  const value = text ?? source.data?.raw_content ?? '';

  useEffect(() => {
    if (source.data && field.current) {
      field.current.focus();
      field.current.setSelectionRange(field.current.value.length, field.current.value.length);
    }
  }, [source.data]);

  const save = (event?: FormEvent) => {
    event?.preventDefault();
    setEmptyError(!value.trim());
    if (!value.trim()) return;
    if (value === source.data?.raw_content) return onDone();
    edit.mutate(value, { onSuccess: onDone });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save();
    }
  };

  if (source.isError)
    return (
      <SourceLoadError error={source.error} retry={() => void source.refetch()} onDone={onDone} />
    );

  return (
    <form className="message-editor" onSubmit={save}>
      <label className="visually-hidden" htmlFor={`edit-${messageId}`}>
        {t('editor.label')}
      </label>
      <textarea
        id={`edit-${messageId}`}
        ref={field}
        className="text-input message-editor-field"
        value={value}
        disabled={!source.data || saving}
        maxLength={limits.maxMessageLength}
        rows={Math.min(12, Math.max(2, value.split('\n').length + 1))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {error && (
        <p className="message-editor-error" role="alert">
          {error}
        </p>
      )}
      <EditorActions saveDisabled={!source.data || saving} saving={saving} onCancel={onDone} />
    </form>
  );
}

/** Shown in place of the editor when the message's source could not be fetched. */
function SourceLoadError({
  error,
  retry,
  onDone,
}: {
  error: unknown;
  retry(): void;
  onDone(): void;
}) {
  const { t } = useTranslation('messages');
  return (
    <div className="message-editor">
      <LoadError compact title={t('editor.loadFailed')} error={error} retry={retry} />
      <button type="button" className="button button-small button-quiet" onClick={onDone}>
        {t('editor.close')}
      </button>
    </div>
  );
}

function EditorActions({
  saveDisabled,
  saving,
  onCancel,
}: {
  saveDisabled: boolean;
  saving: boolean;
  onCancel(): void;
}) {
  const { t } = useTranslation('messages');
  return (
    <div className="message-editor-actions">
      <button type="submit" className="button button-small button-primary" disabled={saveDisabled}>
        {saving ? t('editor.saving') : t('editor.save')}
      </button>
      <button type="button" className="button button-small button-quiet" onClick={onCancel}>
        {t('editor.cancel')}
      </button>
      <span className="message-editor-hint">{t('editor.hint')}</span>
    </div>
  );
}
