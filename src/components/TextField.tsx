/** One labelled text field of a form: a label above a line of text, or above a box of lines. */
import { useId, type ReactNode } from 'react';

export function TextField({
  label,
  value,
  onChange,
  maxLength,
  required = false,
  multiline = false,
  rowClassName = 'settings-row',
  inputClassName = 'text-input',
  hint,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  maxLength: number;
  required?: boolean;
  /** a box of three lines rather than one line */
  multiline?: boolean;
  rowClassName?: string;
  inputClassName?: string;
  /** a line of help under the field */
  hint?: ReactNode;
}) {
  const id = useId();
  const common = {
    id,
    className: inputClassName,
    value,
    maxLength,
    required,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  };
  return (
    <div className={rowClassName}>
      <label htmlFor={id}>{label}</label>
      {multiline ? <textarea rows={3} {...common} /> : <input {...common} />}
      {hint && <p className="settings-hint">{hint}</p>}
    </div>
  );
}
