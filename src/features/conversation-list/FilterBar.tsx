/** The filters above a list of conversations: a text to look for, and switches. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function FilterBar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="view-filters" role="group" aria-label={label}>
      {children}
    </div>
  );
}

export function FilterText({ value, onChange }: { value: string; onChange(value: string): void }) {
  const { t } = useTranslation('navigation');
  return (
    <input
      type="search"
      className="text-input view-filter-text"
      aria-label={t('inbox.filterPlaceholder')}
      placeholder={t('inbox.filterPlaceholder')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoComplete="off"
    />
  );
}

export function FilterToggle({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <label className="view-filter-toggle">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}
