/**
 * Rows for organization settings: each reads its value live from the store (realm events update
 * it in every window), saves itself at once with PATCH /realm, and shows "Saving…", "Saved" or
 * the server's refusal beside it. While a save is in flight the row shows the value being saved.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParamValue } from '../../api/connection';
import { ROLE } from '../../api/model/user';
import { useOwnUserId, useRealmSetting, useUsersById } from '../../model/hooks';
import { SelectRow, StatusNote, ToggleRow } from '../settings/controls';
import { useUpdateRealm } from './org-queries';

/** What the reader may change: administrators edit, owners also the owner-only settings. */
export function useOrgRole() {
  const role = useUsersById()[useOwnUserId()]?.role ?? ROLE.GUEST;
  return {
    role,
    isAdmin: role <= ROLE.ADMINISTRATOR,
    isOwner: role <= ROLE.OWNER,
  };
}

/** Whether this reader may change a setting, and the hint that says why not. */
function useEditable(ownerOnly: boolean | undefined): { editable: boolean; why?: string } {
  const { t } = useTranslation('adminOrg');
  const { isAdmin, isOwner } = useOrgRole();
  if (!isAdmin) return { editable: false };
  if (ownerOnly && !isOwner) return { editable: false, why: t('ownerOnly') };
  return { editable: true };
}

/** The note at the top of a section a member may read but not change. */
export function ReadOnlyNote() {
  const { t } = useTranslation('adminOrg');
  const { isAdmin } = useOrgRole();
  if (isAdmin) return null;
  return <p className="admin-note">{t('readOnly')}</p>;
}

function useSetting<T>(name: string, save: ReturnType<typeof useUpdateRealm>): T {
  const live = useRealmSetting(name) as T;
  if (save.isPending && save.variables && name in save.variables) return save.variables[name] as T;
  return live;
}

interface RowProps {
  /** the setting's API name, without `realm_` */
  name: string;
  label: string;
  hint?: string;
  ownerOnly?: boolean;
}

export function RealmToggle({ name, label, hint, ownerOnly }: RowProps) {
  const save = useUpdateRealm();
  const value = useSetting<unknown>(name, save);
  const { editable, why } = useEditable(ownerOnly);
  if (typeof value !== 'boolean') return null; // a server without this setting
  return (
    <ToggleRow
      label={label}
      hint={[hint, why].filter(Boolean).join(' ') || undefined}
      checked={value}
      disabled={!editable}
      onChange={(checked) => save.mutate({ [name]: checked })}
      save={save}
    />
  );
}

export function RealmSelect<V extends string | number>({
  name,
  label,
  hint,
  ownerOnly,
  options,
  value: shown,
  toWire,
}: RowProps & {
  options: readonly (readonly [V, string])[];
  /** the shown value, when it is not the setting itself (e.g. -1 for "none") */
  value?: V;
  toWire?: (value: V) => ParamValue;
}) {
  const save = useUpdateRealm();
  const live = useSetting<V>(name, save);
  const { editable, why } = useEditable(ownerOnly);
  const value = shown ?? live;
  if (value === undefined) return null;
  // A value the list does not name (set by another client) still shows, as itself.
  const all = options.some(([v]) => String(v) === String(value))
    ? options
    : [...options, [value, String(value)] as const];
  return (
    <SelectRow
      label={label}
      hint={[hint, why].filter(Boolean).join(' ') || undefined}
      value={value}
      options={all}
      disabled={!editable}
      onChange={(chosen) => save.mutate({ [name]: toWire ? toWire(chosen) : chosen })}
      save={save}
    />
  );
}

/** A text setting with its own Save button (a save per keystroke would be noise). */
export function RealmText({
  name,
  label,
  hint,
  ownerOnly,
  multiline,
  maxLength,
  initial,
  placeholder,
  emptyAs,
}: RowProps & {
  multiline?: boolean;
  /** what an emptied field saves as, when the server wants a word for "none" */
  emptyAs?: string;
  maxLength?: number;
  /** the text to edit, when the stored value is not plain text (the rendered description) */
  initial?: string;
  placeholder?: string;
}) {
  const { t } = useTranslation('adminOrg');
  const save = useUpdateRealm();
  const live = useRealmSetting(name);
  const current = initial ?? (typeof live === 'string' ? live : '');
  const [draft, setDraft] = useState<string | null>(null);
  const { editable, why } = useEditable(ownerOnly);
  const id = useId();
  const text = draft ?? current;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      { [name]: text === '' && emptyAs ? emptyAs : text },
      { onSuccess: () => setDraft(null) },
    );
  };
  const common = {
    id,
    className: 'text-input',
    value: text,
    maxLength,
    placeholder,
    disabled: !editable,
    onChange: (e: { target: { value: string } }) => setDraft(e.target.value),
  };
  return (
    <form className="settings-row admin-text-row" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <div className="admin-inline">
        {multiline ? <textarea rows={3} {...common} /> : <input type="text" {...common} />}
        {editable && (
          <button
            type="submit"
            className="button"
            disabled={draft === null || draft === current || save.isPending}
          >
            {t('save')}
          </button>
        )}
      </div>
      {(hint || why) && <p className="settings-hint">{[hint, why].filter(Boolean).join(' ')}</p>}
      <StatusNote save={save} />
    </form>
  );
}

/** The number field "Custom" reveals, with its unit and its own Save button. */
function CustomAmountField({
  id,
  unitLabel,
  value,
  editable,
  saving,
  onChange,
}: {
  id: string;
  unitLabel: string;
  value: string;
  editable: boolean;
  saving: boolean;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation('adminOrg');
  return (
    <div className="admin-inline">
      <label htmlFor={id} className="admin-unit">
        {unitLabel}
      </label>
      <input
        id={id}
        type="number"
        min={0}
        className="text-input admin-number"
        value={value}
        disabled={!editable}
        onChange={(e) => onChange(e.target.value)}
      />
      {editable && (
        <button type="submit" className="button" disabled={saving}>
          {t('save')}
        </button>
      )}
    </div>
  );
}

const presetKey = (v: number | null) => (v === null ? 'none' : String(v));

type AmountPresets = readonly (readonly [number | null, string])[];

/**
 * The amount being chosen: a preset, or the custom text being typed (`custom` is null until
 * "Custom" is picked or typed in), and the saves for each.
 */
function amountChoice({
  name,
  value,
  presets,
  unitSize,
  save,
  custom,
  setCustom,
}: {
  name: string;
  value: number | null;
  presets: AmountPresets;
  unitSize: number;
  save: ReturnType<typeof useUpdateRealm>;
  custom: string | null;
  setCustom: (custom: string | null) => void;
}) {
  const isPreset = presets.some(([v]) => v === value);
  const choosingCustom = custom !== null || !isPreset;
  const shownCustom = custom ?? (isPreset || value === null ? '' : String(value / unitSize));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(shownCustom);
    if (!Number.isFinite(n) || shownCustom.trim() === '') return;
    save.mutate({ [name]: Math.round(n * unitSize) }, { onSuccess: () => setCustom(null) });
  };
  const choose = (chosenKey: string) => {
    if (chosenKey === 'custom') {
      setCustom(shownCustom);
      return;
    }
    setCustom(null);
    const chosen = presets.find(([v]) => presetKey(v) === chosenKey);
    if (chosen) save.mutate({ [name]: chosen[0] === null ? 'unlimited' : chosen[0] });
  };
  return { choosingCustom, shownCustom, submit, choose };
}

/**
 * A number chosen from presets, or typed: time limits (null for none), retention (-1 forever),
 * the waiting period. `presets` name the common values; "Custom" reveals a number field in
 * `unit`s of `unitSeconds` (so minutes for a limit in seconds).
 */
export function RealmAmount({
  name,
  label,
  hint,
  ownerOnly,
  presets,
  unitLabel,
  unitSize = 1,
}: RowProps & {
  presets: AmountPresets;
  /** the unit of the custom field, e.g. "minutes" */
  unitLabel: string;
  /** how many stored units one typed unit is (60 for minutes of a limit in seconds) */
  unitSize?: number;
}) {
  const { t } = useTranslation('adminOrg');
  const save = useUpdateRealm();
  const live = useSetting<number | null | undefined>(name, save);
  const { editable, why } = useEditable(ownerOnly);
  const [custom, setCustom] = useState<string | null>(null);
  const id = useId();
  const numberId = useId();
  if (live === undefined) return null;
  const value = live;
  const { choosingCustom, shownCustom, submit, choose } = amountChoice({
    name,
    value,
    presets,
    unitSize,
    save,
    custom,
    setCustom,
  });
  return (
    <form className="settings-row" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="text-input"
        value={choosingCustom ? 'custom' : presetKey(value)}
        disabled={!editable || save.isPending}
        onChange={(e) => choose(e.target.value)}
      >
        {presets.map(([v, text]) => (
          <option key={presetKey(v)} value={presetKey(v)}>
            {text}
          </option>
        ))}
        <option value="custom">{t('custom')}</option>
      </select>
      {choosingCustom && (
        <CustomAmountField
          id={numberId}
          unitLabel={unitLabel}
          value={shownCustom}
          editable={editable}
          saving={save.isPending}
          onChange={setCustom}
        />
      )}
      {(hint || why) && <p className="settings-hint">{[hint, why].filter(Boolean).join(' ')}</p>}
      <StatusNote save={save} />
    </form>
  );
}
