/** Files attached by the button, a drop or a paste: uploaded one by one, each linked in the message. */
import { useState, type ClipboardEvent, type DragEvent } from 'react';
import { errorText } from '../../api/errors';
import { useUploadFile } from '../../queries/uploads';
import type { ComposeFields } from './use-compose-fields';

export interface Upload {
  id: string;
  name: string;
  error: string | null;
}

/** A file name as link text: brackets would end the link early. */
export function markdownLinkText(name: string): string {
  return name.replace(/[[\]\\]/g, (c) => `\\${c}`);
}

export function useUploads(fields: ComposeFields) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const { mutateAsync: upload } = useUploadFile();

  /** Uploads files one by one and adds a Markdown link to each at the end of the message. */
  const attach = async (files: readonly File[]) => {
    for (const file of files) {
      const id = `${Date.now()}-${Math.random()}`;
      setUploads((list) => [...list, { id, name: file.name, error: null }]);
      try {
        const url = await upload(file);
        const current = fields.contentRef.current;
        const separator = current === '' || current.endsWith('\n') ? '' : '\n';
        const next = `${current}${separator}[${markdownLinkText(file.name)}](${url})\n`;
        fields.setContent(next);
        fields.saveDraft({ content: next });
        setUploads((list) => list.filter((u) => u.id !== id));
      } catch (error) {
        const message = errorText(error, String(error));
        setUploads((list) => list.map((u) => (u.id === id ? { ...u, error: message } : u)));
      }
    }
  };

  const dismiss = (id: string) => setUploads((list) => list.filter((u) => u.id !== id));

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

  return { uploads, attach, dismiss, dropTarget: { onDragOver, onDrop, onPaste } };
}
