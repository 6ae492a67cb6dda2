/** Files attached by the button, a drop or a paste: uploaded with their progress, each linked in the message. */
import { useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadFile } from '../../api/routes/messages';
import { useRealmLimits } from '../../model/hooks';
import { useSessionCore } from '../../model/session-core';
import { createUploadQueue, type Upload } from './upload-queue';
import type { ComposeFields } from './use-compose-fields';

export type { Upload } from './upload-queue';

export function useUploads(fields: ComposeFields) {
  const { t } = useTranslation('compose');
  const { connection } = useSessionCore();
  const { maxFileUploadSizeMib } = useRealmLimits();
  const [uploads, setUploads] = useState<readonly Upload[]>([]);
  // Uploads finish renders later: they read the fields and settings as they are then.
  const latest = useRef({ fields, connection, maxFileUploadSizeMib, t });
  latest.current = { fields, connection, maxFileUploadSizeMib, t };
  const [queue] = useState(() =>
    createUploadQueue({
      send: async (file, options) =>
        (await uploadFile(latest.current.connection, file, file.name, options)).url,
      getContent: () => latest.current.fields.contentRef.current,
      setContent: (next) => {
        const current = latest.current.fields;
        // Two uploads may change the text before the next render.
        current.contentRef.current = next;
        current.setContent(next);
        current.saveDraft({ content: next });
      },
      maxSizeMib: () => latest.current.maxFileUploadSizeMib,
      placeholderText: (name) => latest.current.t('uploadPlaceholder', { name }),
      onChange: setUploads,
    }),
  );

  const attach = (files: readonly File[]) => queue.attach(files);

  const onDragOver = (event: DragEvent) => {
    if (event.dataTransfer.types.includes('Files')) event.preventDefault();
  };
  const onDrop = (event: DragEvent) => {
    if (!event.dataTransfer.files.length) return;
    event.preventDefault();
    void attach([...event.dataTransfer.files]);
  };
  const onPaste = (event: ClipboardEvent) => {
    if (!event.clipboardData.files.length) return;
    event.preventDefault();
    void attach([...event.clipboardData.files]);
  };

  return {
    uploads,
    attach,
    cancel: queue.cancel,
    dismiss: queue.dismiss,
    dropTarget: { onDragOver, onDrop, onPaste },
  };
}
