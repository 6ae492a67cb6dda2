import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomProfileField } from '../../api/model';
import { useActiveUsers, useOwnUserId, useProfileFields, useUser } from '../../model/hooks';
import { fieldChoices } from '../../model/profile-fields';
import { useUpdateProfileField } from '../../queries/people';
import { StatusNote } from '../settings/controls';

/** Your values for the organization's custom profile fields, each saved on its own. */
export function ProfileFieldsSetting() {
  const { t } = useTranslation('people');
  const fields = useProfileFields().filter((field) => field.editable_by_user !== false);
  if (!fields.length) return <p className="settings-hint">{t('settings.noFields')}</p>;
  return (
    <>
      {fields.map((field) => (
        <FieldEditor key={field.id} field={field} />
      ))}
    </>
  );
}

function FieldLabel({ field, htmlFor }: { field: CustomProfileField; htmlFor?: string }) {
  const { t } = useTranslation('people');
  return (
    <label htmlFor={htmlFor}>
      {field.name}
      {field.required && (
        <span className="people-required" title={t('settings.required')}>
          {' '}
          *<span className="visually-hidden"> {t('settings.required')}</span>
        </span>
      )}
    </label>
  );
}

function FieldEditor({ field }: { field: CustomProfileField }) {
  const me = useUser(useOwnUserId());
  const current = me?.profile_data?.[String(field.id)]?.value ?? '';
  if (field.type === 3) return <ChoiceEditor field={field} current={current} />;
  if (field.type === 6) return <PeopleEditor field={field} current={current} />;
  return <TextEditor field={field} current={current} />;
}

const INPUT_TYPES: Partial<Record<number, string>> = { 4: 'date', 5: 'url' };

function TextEditor({ field, current }: { field: CustomProfileField; current: string }) {
  const { t } = useTranslation('people');
  const save = useUpdateProfileField();
  const [draft, setDraft] = useState<string | null>(null);
  const value = draft ?? current;
  const id = `people-field-${field.id}`;
  const hintId = `${id}-hint`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ id: field.id, value: value.trim() }, { onSuccess: () => setDraft(null) });
  };
  const common = {
    id,
    className: 'text-input',
    value,
    'aria-describedby': field.hint ? hintId : undefined,
    required: field.required,
  };
  return (
    <form className="settings-row people-field-row" onSubmit={submit}>
      <FieldLabel field={field} htmlFor={id} />
      {field.type === 2 ? (
        <textarea {...common} rows={3} onChange={(e) => setDraft(e.target.value)} />
      ) : (
        <input
          {...common}
          type={INPUT_TYPES[field.type] ?? 'text'}
          onChange={(e) => setDraft(e.target.value)}
        />
      )}
      {field.hint && (
        <p className="settings-hint" id={hintId}>
          {field.hint}
        </p>
      )}
      <div className="people-field-buttons">
        <button
          type="submit"
          className="button"
          disabled={draft === null || draft.trim() === current}
          aria-label={t('settings.saveField', { name: field.name })}
        >
          {t('settings.save')}
        </button>
        <StatusNote save={save} />
      </div>
    </form>
  );
}

function ChoiceEditor({ field, current }: { field: CustomProfileField; current: string }) {
  const { t } = useTranslation('people');
  const save = useUpdateProfileField();
  const id = `people-field-${field.id}`;
  const value =
    save.isPending && typeof save.variables.value === 'string' ? save.variables.value : current;
  return (
    <div className="settings-row people-field-row">
      <FieldLabel field={field} htmlFor={id} />
      <select
        id={id}
        className="text-input"
        value={value}
        onChange={(e) => save.mutate({ id: field.id, value: e.target.value })}
      >
        <option value="">{t('settings.noChoice')}</option>
        {fieldChoices(field).map((choice) => (
          <option key={choice.key} value={choice.key}>
            {choice.text}
          </option>
        ))}
      </select>
      {field.hint && <p className="settings-hint">{field.hint}</p>}
      <StatusNote save={save} />
    </div>
  );
}

function parseIds(value: string): number[] {
  try {
    const ids = JSON.parse(value || '[]') as unknown;
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

function PeopleEditor({ field, current }: { field: CustomProfileField; current: string }) {
  const { t } = useTranslation('people');
  const save = useUpdateProfileField();
  const users = useActiveUsers().filter((u) => !u.is_bot);
  const ids =
    save.isPending && Array.isArray(save.variables.value)
      ? save.variables.value
      : parseIds(current);
  const id = `people-field-${field.id}`;
  const byId = new Map(users.map((u) => [u.user_id, u]));
  return (
    <div className="settings-row people-field-row">
      <FieldLabel field={field} htmlFor={id} />
      {ids.length > 0 && (
        <ul className="people-chosen">
          {ids.map((userId) => {
            const name = byId.get(userId)?.full_name ?? String(userId);
            return (
              <li key={userId}>
                {name}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('settings.removePerson', { name })}
                  onClick={() =>
                    save.mutate({ id: field.id, value: ids.filter((other) => other !== userId) })
                  }
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <select
        id={id}
        className="text-input"
        value=""
        onChange={(e) => {
          const chosen = Number(e.target.value);
          if (chosen) save.mutate({ id: field.id, value: [...ids, chosen] });
        }}
      >
        <option value="">{t('settings.addPerson')}</option>
        {users
          .filter((u) => !ids.includes(u.user_id))
          .map((u) => (
            <option key={u.user_id} value={u.user_id}>
              {u.full_name}
            </option>
          ))}
      </select>
      {field.hint && <p className="settings-hint">{field.hint}</p>}
      <StatusNote save={save} />
    </div>
  );
}
