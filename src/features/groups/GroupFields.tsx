/** A group's name and description fields, as the create form and the info section both show them. */
import { useTranslation } from 'react-i18next';

export const MAX_NAME_LENGTH = 100;
export const MAX_DESCRIPTION_LENGTH = 1024;

export function GroupFields({
  ids,
  name,
  description,
  onName,
  onDescription,
}: {
  /** The form's `useId()`: the fields are `${ids}-name` and `${ids}-description`. */
  ids: string;
  name: string;
  description: string;
  onName(value: string): void;
  onDescription(value: string): void;
}) {
  const { t } = useTranslation('groups');
  return (
    <>
      <div className="groups-field">
        <label htmlFor={`${ids}-name`}>{t('fields.name')}</label>
        <input
          id={`${ids}-name`}
          className="text-input"
          value={name}
          maxLength={MAX_NAME_LENGTH}
          required
          onChange={(e) => onName(e.target.value)}
        />
      </div>
      <div className="groups-field">
        <label htmlFor={`${ids}-description`}>{t('fields.description')}</label>
        <textarea
          id={`${ids}-description`}
          className="text-input groups-textarea"
          value={description}
          maxLength={MAX_DESCRIPTION_LENGTH}
          rows={3}
          onChange={(e) => onDescription(e.target.value)}
        />
      </div>
    </>
  );
}
