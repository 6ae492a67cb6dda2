/**
 * The pieces every settings and administration section is built from: a titled group, and rows
 * whose control saves at once and shows its own confirmation or the server's refusal beside it
 * (so an error is never far from the control that caused it).
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';

/** What StatusNote reads of a mutation: its own save, beside its own control. */
export interface SaveState {
  status: 'idle' | 'pending' | 'success' | 'error';
  error: unknown;
}

export function StatusNote({ save }: { save: SaveState }) {
  const { t } = useTranslation();
  if (save.status === 'idle') return null;
  if (save.status === 'error')
    return (
      <span className="settings-status settings-status-error" role="alert">
        {errorText(save.error)}
      </span>
    );
  return (
    <span className="settings-status" role="status">
      {save.status === 'pending' ? t('controls.saving') : t('controls.saved')}
    </span>
  );
}

/**
 * The value a control shows: the one just chosen, from the click until the store holds it (its
 * event arrives) or the save fails, and the store's otherwise. Without it a checkbox would spring
 * back to its old state while the save is under way, then forward again when the event lands.
 */
function useHeldValue<V>(value: V, save: SaveState): [V, (chosen: V) => void] {
  const [held, setHeld] = useState<{ value: V } | null>(null);
  useEffect(() => setHeld(null), [value]);
  useEffect(() => {
    if (save.status === 'error') setHeld(null);
  }, [save.status]);
  return [held ? held.value : value, (chosen) => setHeld({ value: chosen })];
}

/** A titled group of rows inside a section ("Notifications for direct messages"). */
export function SettingsGroup({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="settings-section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

interface ToggleRowProps {
  label: string;
  hint?: string;
  checked: boolean;
  disabled?: boolean;
  onChange(checked: boolean): void;
  save: SaveState;
}

export function ToggleRow({ label, hint, checked, disabled, onChange, save }: ToggleRowProps) {
  const [shown, hold] = useHeldValue(checked, save);
  return (
    <div className="settings-row">
      <label className="settings-toggle">
        <input
          type="checkbox"
          checked={shown}
          disabled={disabled || save.status === 'pending'}
          onChange={(e) => {
            hold(e.target.checked);
            onChange(e.target.checked);
          }}
        />
        <span>{label}</span>
      </label>
      {hint && <p className="settings-hint">{hint}</p>}
      <StatusNote save={save} />
    </div>
  );
}

interface SelectRowProps<V extends string | number> {
  label: string;
  hint?: string;
  value: V;
  options: readonly (readonly [V, string])[];
  disabled?: boolean;
  onChange(value: V): void;
  save: SaveState;
}

export function SelectRow<V extends string | number>({
  label,
  hint,
  value,
  options,
  disabled,
  onChange,
  save,
}: SelectRowProps<V>) {
  const id = useId();
  const [shown, hold] = useHeldValue(value, save);
  return (
    <div className="settings-row">
      <label htmlFor={id}>{label}</label>
      <select
        className="text-input"
        id={id}
        value={String(shown)}
        disabled={disabled || save.status === 'pending'}
        onChange={(e) => {
          const chosen = options.find(([v]) => String(v) === e.target.value)?.[0];
          if (chosen === undefined) return;
          hold(chosen);
          onChange(chosen);
        }}
      >
        {options.map(([v, text]) => (
          <option key={String(v)} value={String(v)}>
            {text}
          </option>
        ))}
      </select>
      {hint && <p className="settings-hint">{hint}</p>}
      <StatusNote save={save} />
    </div>
  );
}
