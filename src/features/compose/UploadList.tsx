import { useTranslation } from 'react-i18next';
import { uploadPercent, type Upload } from './upload-queue';

/** The uploads under way, each with its progress and a cancel button; failures until dismissed. */
export function UploadList({
  uploads,
  onCancel,
  onDismiss,
}: {
  uploads: readonly Upload[];
  onCancel(id: string): void;
  onDismiss(id: string): void;
}) {
  const { t } = useTranslation('compose');
  if (uploads.length === 0) return null;
  return (
    <ul className="compose-uploads" aria-label={t('uploads')}>
      {uploads.map((upload) => (
        <li key={upload.id} role={upload.status === 'uploading' ? undefined : 'alert'}>
          {upload.status === 'uploading' ? (
            <UploadProgressRow upload={upload} onCancel={() => onCancel(upload.id)} />
          ) : (
            <>
              <span className="compose-upload-error">
                {upload.status === 'tooLarge'
                  ? t('uploadTooLarge', { name: upload.name, limit: upload.limitMib })
                  : t('uploadFailed', { name: upload.name, error: upload.error })}
              </span>
              <button
                type="button"
                className="button button-small button-quiet"
                onClick={() => onDismiss(upload.id)}
              >
                {t('dismiss')}
              </button>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

function UploadProgressRow({
  upload,
  onCancel,
}: {
  upload: Extract<Upload, { status: 'uploading' }>;
  onCancel(): void;
}) {
  const { t } = useTranslation('compose');
  const percent = uploadPercent(upload);
  return (
    <>
      <span className="compose-upload-name">{t('uploading', { name: upload.name })}</span>
      <progress
        className="compose-upload-progress"
        max={100}
        value={percent}
        aria-label={t('uploadProgress', { name: upload.name })}
      />
      <span className="compose-upload-percent" aria-hidden="true">
        {t('percent', { percent })}
      </span>
      <button
        type="button"
        className="button button-small button-quiet"
        aria-label={t('cancelUpload', { name: upload.name })}
        onClick={onCancel}
      >
        {t('cancel')}
      </button>
    </>
  );
}
