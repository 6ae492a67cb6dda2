/**
 * Custom profile fields: the organization's extra questions on every profile. Administrators
 * add them (eight kinds, with choices or an external account kind), edit, reorder and delete
 * them; everyone else sees the list. The custom_profile_fields event updates every window.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomProfileField, CustomProfileFieldType } from '../../api/model';
import { errorText } from '../../api/errors';
import { useProfileFields } from '../../model/hooks';
import { fieldChoices } from '../../model/profile-fields';
import { StatusNote } from '../settings/controls';
import { EmptyState } from '../../components/StatePanel';
import { Confirm } from './Confirm';
import { ReadOnlyNote, useOrgRole } from './org-controls';
import {
  useCreateProfileField,
  useDeleteProfileField,
  useReorderProfileFields,
  useUpdateProfileField,
} from './org-queries';

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

function useTypeName() {
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

/** The create and edit form; `field` present means editing it (its type stays). */
function FieldForm({ field, onDone }: { field?: CustomProfileField; onDone(): void }) {
  const { t } = useTranslation('adminOrg');
  const typeName = useTypeName();
  const fields = useProfileFields();
  const create = useCreateProfileField();
  const update = useUpdateProfileField();
  const save = field ? update : create;
  const [draft, setDraft] = useState<Draft>(() => (field ? draftOf(field) : emptyDraft));
  const set = (changes: Partial<Draft>) => setDraft((d) => ({ ...d, ...changes }));
  const ids = {
    type: useId(),
    name: useId(),
    hint: useId(),
    subtype: useId(),
    pattern: useId(),
    summaryHint: useId(),
  };
  const othersInSummary = fields.filter(
    (f) => f.display_in_profile_summary && f.id !== field?.id,
  ).length;
  const summaryFull = othersInSummary >= SUMMARY_LIMIT;
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
        {!defaultExternal && (
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
        )}
      </div>
      {draft.type === 3 && (
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
      )}
      <div className="admin-checks">
        <label className="settings-toggle">
          <input
            type="checkbox"
            checked={draft.summary && !summaryImpossible}
            disabled={summaryImpossible || (summaryFull && !draft.summary)}
            aria-describedby={ids.summaryHint}
            onChange={(e) => set({ summary: e.target.checked })}
          />
          <span>{t('fields.summary')}</span>
        </label>
        <p className="settings-hint" id={ids.summaryHint}>
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
      <div className="admin-actions">
        <button type="button" className="button" onClick={onDone}>
          {t('cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {field ? t('save') : t('fields.add')}
        </button>
      </div>
      {save.isError && (
        <p className="settings-status settings-status-error" role="alert">
          {errorText(save.error)}
        </p>
      )}
    </form>
  );
}

function FieldRow({
  field,
  index,
  count,
  onMove,
  moving,
}: {
  field: CustomProfileField;
  index: number;
  count: number;
  onMove(from: number, to: number): void;
  moving: boolean;
}) {
  const { t } = useTranslation('adminOrg');
  const typeName = useTypeName();
  const { isAdmin } = useOrgRole();
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view');
  const remove = useDeleteProfileField();
  const choices = fieldChoices(field);
  return (
    <li className="admin-item">
      <div className="admin-item-main">
        <div className="admin-item-text">
          <strong>{field.name}</strong>
          <span className="admin-tag">{typeName(field.type)}</span>
          {field.display_in_profile_summary && (
            <span className="admin-tag admin-tag-accent">{t('fields.inSummary')}</span>
          )}
          {field.required && <span className="admin-tag">{t('fields.requiredTag')}</span>}
          {field.hint && <p className="settings-hint">{field.hint}</p>}
          {choices.length > 0 && (
            <p className="settings-hint">{choices.map((c) => c.text).join(' · ')}</p>
          )}
        </div>
        {isAdmin && mode === 'view' && (
          <div className="admin-item-actions">
            <button
              type="button"
              className="button button-small"
              aria-label={t('fields.moveUp', { name: field.name })}
              disabled={index === 0 || moving}
              onClick={() => onMove(index, index - 1)}
            >
              ↑
            </button>
            <button
              type="button"
              className="button button-small"
              aria-label={t('fields.moveDown', { name: field.name })}
              disabled={index === count - 1 || moving}
              onClick={() => onMove(index, index + 1)}
            >
              ↓
            </button>
            <button
              type="button"
              className="button button-small"
              aria-label={t('fields.edit', { name: field.name })}
              onClick={() => setMode('edit')}
            >
              {t('edit')}
            </button>
            <button
              type="button"
              className="button button-small"
              aria-label={t('fields.delete', { name: field.name })}
              onClick={() => setMode('delete')}
            >
              {t('delete')}
            </button>
          </div>
        )}
      </div>
      {mode === 'edit' && <FieldForm field={field} onDone={() => setMode('view')} />}
      {mode === 'delete' && (
        <Confirm
          confirmLabel={t('delete')}
          pending={remove.isPending}
          onCancel={() => setMode('view')}
          onConfirm={() => remove.mutate(field.id)}
        >
          {t('fields.confirmDelete', { name: field.name })}
        </Confirm>
      )}
      {remove.isError && <StatusNote save={remove} />}
    </li>
  );
}

export function ProfileFieldsSection() {
  const { t } = useTranslation('adminOrg');
  const fields = useProfileFields();
  const { isAdmin } = useOrgRole();
  const [adding, setAdding] = useState(false);
  const reorder = useReorderProfileFields();
  // The order being saved shows at once and stays until the event brings the new list (or the
  // save fails), so the rows do not jump back in between.
  const [moved, setMoved] = useState<{ order: number[]; basis: typeof fields } | null>(null);
  const shown =
    moved && moved.basis === fields && !reorder.isError
      ? moved.order
          .map((id) => fields.find((f) => f.id === id))
          .filter((f): f is CustomProfileField => f !== undefined)
      : fields;
  const move = (from: number, to: number) => {
    const order = shown.map((f) => f.id);
    const [id] = order.splice(from, 1);
    order.splice(to, 0, id);
    setMoved({ order, basis: fields });
    reorder.mutate(order);
  };
  const inSummary = fields.filter((f) => f.display_in_profile_summary).length;
  return (
    <div className="admin-org">
      <ReadOnlyNote />
      <p className="settings-hint">
        {t('fields.intro')} {t('fields.summaryCount', { count: inSummary, limit: SUMMARY_LIMIT })}
      </p>
      {isAdmin &&
        (adding ? (
          <FieldForm onDone={() => setAdding(false)} />
        ) : (
          <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
            {t('fields.addButton')}
          </button>
        ))}
      {shown.length === 0 ? (
        <EmptyState title={t('fields.emptyTitle')}>{t('fields.emptyMessage')}</EmptyState>
      ) : (
        <ol className="admin-list" aria-label={t('fields.listLabel')}>
          {shown.map((field, i) => (
            <FieldRow
              key={field.id}
              field={field}
              index={i}
              count={shown.length}
              onMove={move}
              moving={reorder.isPending}
            />
          ))}
        </ol>
      )}
      {reorder.isError && <StatusNote save={reorder} />}
    </div>
  );
}
