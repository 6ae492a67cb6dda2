/** The parts of the move dialog: destination channel, which messages, notices, a refusal. */
import { useId } from 'react';
import type { PropagateMode } from '../../queries/topics';
import type { MoveFailure } from './move-error';

export function ChannelField(props: {
  value: number;
  onChange(streamId: number): void;
  choices: { id: number; name: string }[];
  disabled: boolean;
}) {
  const id = useId();
  return (
    <div className="topic-dialog-field">
      <label htmlFor={id} className="compose-label">
        Channel
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
          You may change the topic here, not the channel.
        </span>
      )}
    </div>
  );
}

const MODES: [PropagateMode, string][] = [
  ['change_one', 'Move only this message'],
  ['change_later', 'Move this and all following messages'],
  ['change_all', 'Move all messages in this topic'],
];

export function PropagateField(props: {
  value: PropagateMode;
  onChange(mode: PropagateMode): void;
}) {
  const id = useId();
  return (
    <div className="topic-dialog-field">
      <label htmlFor={id} className="compose-label">
        Which messages
      </label>
      <select
        id={id}
        className="text-input"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as PropagateMode)}
      >
        {MODES.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
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
  return (
    <fieldset className="topic-dialog-notices">
      <legend className="visually-hidden">Notifications</legend>
      <label>
        <input
          type="checkbox"
          checked={notifyNew}
          onChange={(e) => onChange({ notifyOld, notifyNew: e.target.checked })}
        />{' '}
        Send automated notice to new topic
      </label>
      <label>
        <input
          type="checkbox"
          checked={notifyOld}
          onChange={(e) => onChange({ notifyNew, notifyOld: e.target.checked })}
        />{' '}
        Send automated notice to old topic
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
          {failure.allowed === 1
            ? 'Move only the most recent message'
            : `Move only the ${failure.allowed} most recent messages`}
        </button>
      )}
    </div>
  );
}
