/**
 * One control per personal setting: it shows the live value from the store (user_settings events
 * keep it current, also from other tabs), saves at once with PATCH /settings, and shows its own
 * "Saving…", "Saved" or the server's refusal beside it. While a save is in flight the control
 * shows the value being saved, so the change is on screen before the event returns.
 */
import type { UserSettings } from '../../api/model';
import { useUserSetting } from '../../model/hooks';
import { useUpdateSettings } from '../../queries/settings';
import { SelectRow, ToggleRow } from './controls';

/** The on/off settings of the shared list. */
export type BooleanSetting = {
  [K in keyof UserSettings]: UserSettings[K] extends boolean ? K : never;
}[keyof UserSettings];

/** The settings chosen from a list of values. */
export type ChoiceSetting = {
  [K in keyof UserSettings]: UserSettings[K] extends boolean ? never : K;
}[keyof UserSettings];

export function SettingToggle({
  name,
  label,
  hint,
}: {
  name: BooleanSetting;
  label: string;
  hint?: string;
}) {
  const live = useUserSetting(name);
  const save = useUpdateSettings();
  const value = (save.isPending ? save.variables[name] : undefined) ?? live;
  if (value === undefined) return null; // a server without this setting
  return (
    <ToggleRow
      label={label}
      hint={hint}
      checked={value}
      onChange={(checked) => save.mutate({ [name]: checked })}
      save={save}
    />
  );
}

export function SettingSelect<K extends ChoiceSetting>({
  name,
  label,
  hint,
  options,
}: {
  name: K;
  label: string;
  hint?: string;
  options: readonly (readonly [UserSettings[K], string])[];
}) {
  const live = useUserSetting(name);
  const save = useUpdateSettings();
  const pending = save.isPending
    ? (save.variables[name] as UserSettings[K] | undefined)
    : undefined;
  const value = pending ?? live;
  if (value === undefined) return null;
  // A value set elsewhere that this list does not offer still shows as itself.
  const shown = options.some(([v]) => v === value)
    ? options
    : [...options, [value, String(value)] as const];
  return (
    <SelectRow<UserSettings[K] & (string | number)>
      label={label}
      hint={hint}
      value={value as UserSettings[K] & (string | number)}
      options={shown as readonly (readonly [UserSettings[K] & (string | number), string])[]}
      onChange={(chosen) => save.mutate({ [name]: chosen })}
      save={save}
    />
  );
}

/** An on/off setting that reads better as a choice of two ("12-hour" or "24-hour"). */
export function SettingBooleanSelect({
  name,
  label,
  hint,
  whenTrue,
  whenFalse,
}: {
  name: BooleanSetting;
  label: string;
  hint?: string;
  whenTrue: string;
  whenFalse: string;
}) {
  const live = useUserSetting(name);
  const save = useUpdateSettings();
  const value = (save.isPending ? save.variables[name] : undefined) ?? live;
  if (value === undefined) return null;
  return (
    <SelectRow<'true' | 'false'>
      label={label}
      hint={hint}
      value={value ? 'true' : 'false'}
      options={[
        ['false', whenFalse],
        ['true', whenTrue],
      ]}
      onChange={(chosen) => save.mutate({ [name]: chosen === 'true' })}
      save={save}
    />
  );
}
