/** Pieces the widgets share: the title its author may rename, and what went wrong. */
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import { EditIcon } from '../../components/icons';

interface EditableTitleProps {
  id: string;
  text: string;
  /** shown while the text is empty */
  fallback: string;
  /** only the message's sender may rename a poll's question or a list's title */
  canEdit: boolean;
  editLabel: string;
  inputLabel: string;
  /** saves the new text; `done` closes the editor once the server took it */
  onSave(text: string, done: () => void): void;
  saving: boolean;
}

export function EditableTitle(props: EditableTitleProps) {
  const { t } = useTranslation('widgets');
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null)
    return (
      <div className="widget-header">
        <span id={props.id} className="widget-title">
          {props.text || props.fallback}
        </span>
        {props.canEdit && (
          <button
            type="button"
            className="icon-button widget-edit"
            aria-label={props.editLabel}
            title={props.editLabel}
            onClick={() => setDraft(props.text)}
          >
            <EditIcon />
          </button>
        )}
      </div>
    );

  const save = () => {
    const text = draft.trim();
    if (text === '' || text === props.text) setDraft(null);
    else props.onSave(text, () => setDraft(null));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.stopPropagation();
      setDraft(null);
    }
  };
  return (
    <div className="widget-header widget-header-editing">
      {/* The title's id stays on the page, so that the widget keeps its name while renamed. */}
      <span id={props.id} className="visually-hidden">
        {props.text || props.fallback}
      </span>
      <input
        className="text-input widget-input"
        aria-label={props.inputLabel}
        value={draft}
        autoFocus
        disabled={props.saving}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <button
        type="button"
        className="button button-small button-primary"
        disabled={props.saving || draft.trim() === ''}
        onClick={save}
      >
        {t('save')}
      </button>
      <button
        type="button"
        className="button button-small button-quiet"
        onClick={() => setDraft(null)}
      >
        {t('cancel')}
      </button>
    </div>
  );
}

/** The server's refusal, quietly under the widget, until the next try. */
export function WidgetError({ error, problem }: { error: unknown; problem?: string | null }) {
  const text = problem ?? (error ? errorText(error) : null);
  return (
    <p className="widget-error" role="status">
      {text}
    </p>
  );
}
