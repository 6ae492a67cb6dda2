/** A group's name and description fields, as the create form and the info section both show them. */
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/TextField';

export const MAX_NAME_LENGTH = 100;
export const MAX_DESCRIPTION_LENGTH = 1024;

export function GroupFields({
  name,
  description,
  onName,
  onDescription,
}: {
  name: string;
  description: string;
  onName(value: string): void;
  onDescription(value: string): void;
}) {
  const { t } = useTranslation('groups');
  return (
    <>
      <TextField
        label={t('fields.name')}
        value={name}
        onChange={onName}
        maxLength={MAX_NAME_LENGTH}
        required
        rowClassName="groups-field"
      />
      <TextField
        label={t('fields.description')}
        value={description}
        onChange={onDescription}
        maxLength={MAX_DESCRIPTION_LENGTH}
        multiline
        rowClassName="groups-field"
        inputClassName="text-input groups-textarea"
      />
    </>
  );
}
