import { useTranslation } from 'react-i18next';
import type { Upload } from './use-uploads';

/** The uploads under way, and those that failed until dismissed. */
export function UploadList({
  uploads,
  onDismiss,
}: {
  uploads: readonly Upload[];
  onDismiss(id: string): void;
}) {
  const { t } = useTranslation('compose');
  if (uploads.length === 0) return null;
  return (
    <ul className="compose-uploads" aria-label={t('uploads')}>
      {uploads.map((upload) => (
        <li key={upload.id} role={upload.error ? 'alert' : 'status'}>
          {upload.error ? (
            <>
              <span className="compose-upload-error">
                {t('uploadFailed', { name: upload.name, error: upload.error })}
              </span>
              <button
                type="button"
                className="button button-small button-quiet"
                onClick={() => onDismiss(upload.id)}
              >
                {t('dismiss')}
              </button>
            </>
          ) : (
            <span>{t('uploading', { name: upload.name })}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
