/** The parts of the move dialog: destination channel, which messages, notices, a refusal. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PropagateMode } from '../../queries/topics';
import type { MoveFailure } from './move-error';

export function ChannelField(props: {
  value: number;
  onChange(streamId: number): void;
  choices: { id: number; name: string }[];
  disabled: boolean;
}) {
  const { t } = useTranslation('search');
  const id = useId();
  return (
    <div className="topic-dialog-field">
      <label htmlFor={id} className="compose-label">
        {t('move.channel')}
      </label>
      <select
        id={id}
        className="text-input"
        value={props.value}
        disabled={props.disabled}
        aria-describedby={props.disabled ? `${id}-why` : undefined}
        onChange={(e) => props.onChange(Number(e.target.value))}
      >
        {props.choices.map((c) => (
          <option key={c.id} value={c.id}>
            #{c.name}
          </option>
        ))}
      </select>
      {props.disabled && (
        <span id={`${id}-why`} className="topic-dialog-hint">
          {t('move.topicOnly')}
        </span>
      )}
    </div>
  );
}

const MODES: PropagateMode[] = ['change_one', 'change_later', 'change_all'];

export function PropagateField(props: {
  value: PropagateMode;
  onChange(mode: PropagateMode): void;
}) {
  const { t } = useTranslation('search');
  const id = useId();
  return (
    <div className="topic-dialog-field">
      <label htmlFor={id} className="compose-label">
        {t('move.which')}
      </label>
      <select
        id={id}
        className="text-input"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as PropagateMode)}
      >
        {MODES.map((value) => (
          <option key={value} value={value}>
            {t(`move.modes.${value}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

interface NoticeChoice {
  notifyNew: boolean;
  notifyOld: boolean;
}

/** Whether Notification Bot tells each topic; by default the new one only, as upstream. */
export function NoticeChoices({
  notifyNew,
  notifyOld,
  onChange,
}: NoticeChoice & { onChange(choice: NoticeChoice): void }) {
  const { t } = useTranslation('search');
  return (
    <fieldset className="topic-dialog-notices">
      <legend className="visually-hidden">{t('move.notifications')}</legend>
      <label>
        <input
          type="checkbox"
          checked={notifyNew}
          onChange={(e) => onChange({ notifyOld, notifyNew: e.target.checked })}
        />{' '}
        {t('move.noticeNew')}
      </label>
      <label>
        <input
          type="checkbox"
          checked={notifyOld}
          onChange={(e) => onChange({ notifyNew, notifyOld: e.target.checked })}
        />{' '}
        {t('move.noticeOld')}
      </label>
    </fieldset>
  );
}

/** A refused move in words, with the offer to move the part the time limit allows. */
export function FailureNotice(props: {
  failure: MoveFailure;
  pending: boolean;
  onMoveAllowed(firstId: number): void;
}) {
  const { t } = useTranslation('search');
  const { failure } = props;
  return (
    <div className="topic-dialog-error" role="alert">
      <p>{failure.text}</p>
      {failure.kind === 'time-limit' && failure.firstAllowedId !== null && (
        <button
          type="button"
          className="button button-small"
          disabled={props.pending}
          onClick={() => props.onMoveAllowed(failure.firstAllowedId!)}
        >
          {t('move.moveAllowed', { count: failure.allowed })}
        </button>
      )}
    </div>
  );
}
