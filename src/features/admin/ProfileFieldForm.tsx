/**
 * The form that adds or edits a custom profile field: its kind, name and hint, the choices of a
 * choice field, the kind of an external account, and where the field shows.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomProfileField, CustomProfileFieldType } from '../../api/model';
import { useProfileFields } from '../../model/hooks';
import { fieldChoices } from '../../model/profile-fields';
import { EditFormButtons } from './EditableRow';
import { useCreateProfileField, useUpdateProfileField } from './org-queries';

/** The server shows at most this many fields in the profile summary (the user card). */
export const SUMMARY_LIMIT = 2;
const FIELD_TYPES: CustomProfileFieldType[] = [1, 2, 3, 4, 5, 6, 7, 8];
/** Long text and person fields cannot be shown in the summary. */
const NOT_IN_SUMMARY = new Set<number>([2, 6]);
const EXTERNAL_SUBTYPES = ['github', 'twitter', 'custom'] as const;
type Subtype = (typeof EXTERNAL_SUBTYPES)[number];
/** Brand names, the same in every language. */
const SUBTYPE_NAMES = { github: 'GitHub', twitter: 'X (Twitter)' };
const EXAMPLE_URL_PATTERN = 'https://example.com/%(username)s';

export function useTypeName() {
  const { t } = useTranslation('adminOrg');
  return (type: number): string => {
    switch (type) {
      case 1:
        return t('fields.type.shortText');
      case 2:
        return t('fields.type.longText');
      case 3:
        return t('fields.type.choice');
      case 4:
        return t('fields.type.date');
      case 5:
        return t('fields.type.link');
      case 6:
        return t('fields.type.person');
      case 7:
        return t('fields.type.external');
      case 8:
        return t('fields.type.pronouns');
      default:
        return String(type);
    }
  };
}

function externalData(field: CustomProfileField): { subtype: Subtype; url_pattern: string } {
  try {
    const data = JSON.parse(field.field_data) as { subtype?: string; url_pattern?: string };
    const subtype = (EXTERNAL_SUBTYPES as readonly string[]).includes(data.subtype ?? '')
      ? (data.subtype as Subtype)
      : 'custom';
    return { subtype, url_pattern: data.url_pattern ?? '' };
  } catch {
    return { subtype: 'custom', url_pattern: '' };
  }
}

interface Draft {
  type: CustomProfileFieldType;
  name: string;
  hint: string;
  choices: string[];
  subtype: Subtype;
  urlPattern: string;
  summary: boolean;
  required: boolean;
  editableByUser: boolean;
}

const emptyDraft: Draft = {
  type: 1,
  name: '',
  hint: '',
  choices: ['', ''],
  subtype: 'github',
  urlPattern: '',
  summary: false,
  required: false,
  editableByUser: true,
};

function draftOf(field: CustomProfileField): Draft {
  const external = externalData(field);
  return {
    type: field.type,
    name: field.name,
    hint: field.hint,
    choices: fieldChoices(field).map((c) => c.text),
    subtype: external.subtype,
    urlPattern: external.url_pattern,
    summary: field.display_in_profile_summary === true,
    required: field.required === true,
    editableByUser: field.editable_by_user !== false,
  };
}

function fieldData(draft: Draft): object | undefined {
  if (draft.type === 3)
    return Object.fromEntries(
      draft.choices
        .map((text) => text.trim())
        .filter(Boolean)
        .map((text, i) => [String(i), { text, order: String(i + 1) }]),
    );
  if (draft.type === 7)
    return draft.subtype === 'custom'
      ? { subtype: 'custom', url_pattern: draft.urlPattern }
      : { subtype: draft.subtype };
  return undefined;
}

type SetDraft = (changes: Partial<Draft>) => void;

/** The create and edit form; `field` present means editing it (its type stays). */
export function FieldForm({ field, onDone }: { field?: CustomProfileField; onDone(): void }) {
  const { t } = useTranslation('adminOrg');
  const create = useCreateProfileField();
  const update = useUpdateProfileField();
  const save = field ? update : create;
  const [draft, setDraft] = useState<Draft>(() => (field ? draftOf(field) : emptyDraft));
  const set: SetDraft = (changes) => setDraft((d) => ({ ...d, ...changes }));
  const summaryImpossible = NOT_IN_SUMMARY.has(draft.type);
  const defaultExternal = draft.type === 7 && draft.subtype !== 'custom';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const common = {
      ...(defaultExternal ? {} : { name: draft.name, hint: draft.hint }),
      field_data: fieldData(draft),
      display_in_profile_summary: draft.summary && !summaryImpossible,
      required: draft.required,
      editable_by_user: draft.editableByUser,
    };
    if (field) update.mutate({ id: field.id, changes: common }, { onSuccess: onDone });
    else create.mutate({ ...common, field_type: draft.type }, { onSuccess: onDone });
  };
  return (
    <form
      className="admin-form"
      onSubmit={submit}
      aria-label={field ? t('fields.editTitle', { name: field.name }) : t('fields.addTitle')}
    >
      <FieldBasics field={field} draft={draft} set={set} />
      {draft.type === 3 && <ChoiceList draft={draft} set={set} />}
      <FieldChecks field={field} draft={draft} set={set} />
      <EditFormButtons
        save={save}
        submitLabel={field ? t('save') : t('fields.add')}
        onCancel={onDone}
      />
    </form>
  );
}

interface DraftProps {
  field?: CustomProfileField;
  draft: Draft;
  set: SetDraft;
}

/** Kind, external account kind, URL pattern, name and hint. */
function FieldBasics({ field, draft, set }: DraftProps) {
  const { t } = useTranslation('adminOrg');
  const typeName = useTypeName();
  const ids = { type: useId(), name: useId(), hint: useId(), subtype: useId(), pattern: useId() };
  const defaultExternal = draft.type === 7 && draft.subtype !== 'custom';
  return (
    <div className="admin-form-grid">
      {!field && (
        <div className="admin-field">
          <label htmlFor={ids.type}>{t('fields.typeLabel')}</label>
          <select
            id={ids.type}
            className="text-input"
            value={draft.type}
            onChange={(e) => set({ type: Number(e.target.value) as CustomProfileFieldType })}
          >
            {FIELD_TYPES.map((type) => (
              <option key={type} value={type}>
                {typeName(type)}
              </option>
            ))}
          </select>
        </div>
      )}
      {draft.type === 7 && (
        <div className="admin-field">
          <label htmlFor={ids.subtype}>{t('fields.externalKind')}</label>
          <select
            id={ids.subtype}
            className="text-input"
            value={draft.subtype}
            disabled={field !== undefined}
            onChange={(e) => set({ subtype: e.target.value as Subtype })}
          >
            <option value="github">{SUBTYPE_NAMES.github}</option>
            <option value="twitter">{SUBTYPE_NAMES.twitter}</option>
            <option value="custom">{t('fields.externalCustom')}</option>
          </select>
        </div>
      )}
      {draft.type === 7 && draft.subtype === 'custom' && (
        <div className="admin-field admin-field-wide">
          <label htmlFor={ids.pattern}>{t('fields.urlPattern')}</label>
          <input
            id={ids.pattern}
            className="text-input"
            value={draft.urlPattern}
            placeholder={EXAMPLE_URL_PATTERN}
            onChange={(e) => set({ urlPattern: e.target.value })}
          />
          <p className="settings-hint">{t('fields.urlPatternHint')}</p>
        </div>
      )}
      {!defaultExternal && <NameAndHint draft={draft} set={set} ids={ids} />}
    </div>
  );
}

/** The field's name and hint; an external account of a known kind has them already. */
function NameAndHint({
  draft,
  set,
  ids,
}: Omit<DraftProps, 'field'> & { ids: { name: string; hint: string } }) {
  const { t } = useTranslation('adminOrg');
  return (
    <>
      <div className="admin-field">
        <label htmlFor={ids.name}>{t('fields.name')}</label>
        <input
          id={ids.name}
          className="text-input"
          value={draft.name}
          maxLength={40}
          required
          onChange={(e) => set({ name: e.target.value })}
        />
      </div>
      <div className="admin-field">
        <label htmlFor={ids.hint}>{t('fields.hint')}</label>
        <input
          id={ids.hint}
          className="text-input"
          value={draft.hint}
          maxLength={80}
          onChange={(e) => set({ hint: e.target.value })}
        />
      </div>
    </>
  );
}

/** A choice field's choices, at least one. */
function ChoiceList({ draft, set }: DraftProps) {
  const { t } = useTranslation('adminOrg');
  return (
    <fieldset className="admin-choices">
      <legend>{t('fields.choices')}</legend>
      {draft.choices.map((choice, i) => (
        <div className="admin-inline" key={i}>
          <input
            className="text-input"
            aria-label={t('fields.choiceN', { n: i + 1 })}
            value={choice}
            onChange={(e) =>
              set({ choices: draft.choices.map((c, j) => (j === i ? e.target.value : c)) })
            }
          />
          <button
            type="button"
            className="button button-quiet"
            aria-label={t('fields.removeChoiceN', { n: i + 1 })}
            disabled={draft.choices.length <= 1}
            onClick={() => set({ choices: draft.choices.filter((_, j) => j !== i) })}
          >
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button button-small"
        onClick={() => set({ choices: [...draft.choices, ''] })}
      >
        {t('fields.addChoice')}
      </button>
    </fieldset>
  );
}

/** Whether the field shows in the profile summary, must be filled in, and may be changed by its person. */
function FieldChecks({ field, draft, set }: DraftProps) {
  const { t } = useTranslation('adminOrg');
  const fields = useProfileFields();
  const summaryHintId = useId();
  const othersInSummary = fields.filter(
    (f) => f.display_in_profile_summary && f.id !== field?.id,
  ).length;
  const summaryFull = othersInSummary >= SUMMARY_LIMIT;
  const summaryImpossible = NOT_IN_SUMMARY.has(draft.type);
  return (
    <div className="admin-checks">
      <label className="settings-toggle">
        <input
          type="checkbox"
          checked={draft.summary && !summaryImpossible}
          disabled={summaryImpossible || (summaryFull && !draft.summary)}
          aria-describedby={summaryHintId}
          onChange={(e) => set({ summary: e.target.checked })}
        />
        <span>{t('fields.summary')}</span>
      </label>
      <p className="settings-hint" id={summaryHintId}>
        {summaryImpossible
          ? t('fields.summaryImpossible')
          : summaryFull && !draft.summary
            ? t('fields.summaryFull', { count: SUMMARY_LIMIT })
            : t('fields.summaryHint', { count: SUMMARY_LIMIT })}
      </p>
      <label className="settings-toggle">
        <input
          type="checkbox"
          checked={draft.required}
          onChange={(e) => set({ required: e.target.checked })}
        />
        <span>{t('fields.required')}</span>
      </label>
      <label className="settings-toggle">
        <input
          type="checkbox"
          checked={draft.editableByUser}
          onChange={(e) => set({ editableByUser: e.target.checked })}
        />
        <span>{t('fields.editableByUser')}</span>
      </label>
    </div>
  );
}
