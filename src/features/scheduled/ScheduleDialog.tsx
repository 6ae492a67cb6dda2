/**
 * Choosing when a message is sent: quick choices as the reference app offers them, or any date
 * and time (in this browser's time zone). A past time is refused before the server is asked.
 */
import { createPortal } from 'react-dom';
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import { useModalDialog } from '../../components/use-modal-dialog';
import { currentLocale } from '../../i18n';
import { fromInputValue, quickChoices, toInputValue, type QuickChoice } from './schedule-times';

export function formatScheduleTime(date: Date): string {
  return new Intl.DateTimeFormat(currentLocale(), {
    ...(date.getFullYear() !== new Date().getFullYear() ? { year: 'numeric' } : {}),
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  }).format(date);
}

function timeOfDay(date: Date): string {
  return new Intl.DateTimeFormat(currentLocale(), { hour: 'numeric', minute: '2-digit' }).format(
    date,
  );
}

export function ScheduleDialog({
  title,
  initial,
  onSchedule,
  onClose,
}: {
  title: string;
  /** the time already chosen, when rescheduling */
  initial?: Date;
  /** resolves when scheduled; rejects with the server's message */
  onSchedule(at: Date): Promise<void>;
  onClose(): void;
}) {
  const { t } = useTranslation('drafts');
  const dialog = useRef<HTMLDialogElement>(null);
  const inputId = useId();
  const errorId = useId();
  const choices = useMemo(() => quickChoices(new Date()), []);
  const [value, setValue] = useState(() =>
    toInputValue(initial ?? new Date(Date.now() + 3600_000)),
  );
  const { problem, setProblem, busy, choose } = useScheduleChoice(onSchedule, onClose);
  useModalDialog(dialog, onClose, 'button');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    void choose(fromInputValue(value));
  };

  // In a portal: the dialog is opened from inside other forms (compose), and forms do not nest.
  return createPortal(
    <dialog ref={dialog} className="schedule-dialog" aria-label={title} aria-modal="true">
      <form className="schedule-dialog-form" onSubmit={onSubmit} noValidate>
        <h2 className="schedule-dialog-title">{title}</h2>
        <QuickChoices choices={choices} busy={busy} choose={choose} />
        <div className="schedule-custom">
          <label htmlFor={inputId} className="compose-label">
            {t('schedule.customTime')}
          </label>
          <input
            id={inputId}
            type="datetime-local"
            className="text-input"
            value={value}
            aria-invalid={problem !== null}
            aria-describedby={problem ? errorId : undefined}
            onChange={(event) => {
              setValue(event.target.value);
              setProblem(null);
            }}
          />
        </div>
        {problem && (
          <p id={errorId} className="schedule-problem" role="alert">
            {problem}
          </p>
        )}
        <div className="schedule-dialog-buttons">
          <button type="button" className="button button-quiet" onClick={onClose}>
            {t('schedule.close')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy || !value}>
            {t('schedule.confirm')}
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}

/** Takes a time, refusing one that is unreadable or past; closes once the server agrees. */
function useScheduleChoice(onSchedule: (at: Date) => Promise<void>, onClose: () => void) {
  const { t } = useTranslation('drafts');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const choose = async (date: Date | null) => {
    if (!date) {
      setProblem(t('schedule.invalidTime'));
      return;
    }
    if (date.getTime() <= Date.now()) {
      setProblem(t('schedule.pastTime'));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      await onSchedule(date);
      onClose();
    } catch (error) {
      setProblem(errorText(error, error instanceof Error ? error.message : String(error)));
      setBusy(false);
    }
  };
  return { problem, setProblem, busy, choose };
}

function QuickChoices({
  choices,
  busy,
  choose,
}: {
  choices: QuickChoice[];
  busy: boolean;
  choose(date: Date): Promise<void>;
}) {
  const { t } = useTranslation('drafts');
  const label = (choice: QuickChoice) => {
    const time = timeOfDay(choice.at);
    switch (choice.kind) {
      case 'inHour':
        return t('schedule.inHour');
      case 'todayAt':
        return t('schedule.todayAt', { time });
      case 'tomorrowAt':
        return t('schedule.tomorrowAt', { time });
      case 'mondayAt':
        return t('schedule.mondayAt', { time });
    }
  };
  return (
    <ul className="schedule-choices" aria-label={t('schedule.quickChoices')}>
      {choices.map((choice) => (
        <li key={`${choice.kind}-${choice.at.getTime()}`}>
          <button
            type="button"
            className="schedule-choice"
            disabled={busy}
            onClick={() => void choose(choice.at)}
          >
            <span className="schedule-choice-label">{label(choice)}</span>
            <span className="schedule-choice-time">{formatScheduleTime(choice.at)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
