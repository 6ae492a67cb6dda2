/**
 * The files being uploaded from the compose box. Each one holds a placeholder line in the message
 * ("[Uploading a.txt…]()") until its link takes that place, reports how much of it has gone, and
 * can be cancelled, which stops the request and takes the placeholder out again. A file over the
 * server's limit is refused before any request.
 */
import type { UploadProgress } from '../../api/connection';
import { errorText } from '../../api/errors';

export type Upload = { id: string; name: string } & (
  | { status: 'uploading'; loaded: number; total: number }
  | { status: 'failed'; error: string }
  /** refused before sending: bigger than the server takes */
  | { status: 'tooLarge'; limitMib: number }
);

export interface UploadQueueOptions {
  /** sends one file, reporting progress, and answers its server path; rejects once aborted */
  send(
    file: File,
    options: { signal: AbortSignal; onProgress(progress: UploadProgress): void },
  ): Promise<string>;
  /** the message's text now */
  getContent(): string;
  setContent(next: string): void;
  /** the server's limit in MiB, or null when it did not say */
  maxSizeMib(): number | null;
  /** the placeholder's link text for a file, its name already escaped: "Uploading a.txt…" */
  placeholderText(escapedName: string): string;
  /** the list, each time it changes */
  onChange(uploads: readonly Upload[]): void;
}

export interface UploadQueue {
  /** starts uploading the files, all at once; settles when each has finished one way or another */
  attach(files: readonly File[]): Promise<void>;
  /** stops an upload under way and takes its placeholder out of the message */
  cancel(id: string): void;
  /** forgets a failed or refused upload */
  dismiss(id: string): void;
}

/** A file name as link text: brackets would end the link early. */
export function markdownLinkText(name: string): string {
  return name.replace(/[[\]\\]/g, (c) => `\\${c}`);
}

export const MIB = 1024 * 1024;

/** The text with a line added at its end, as links to uploads have always gone. */
function withLine(content: string, line: string): string {
  const separator = content === '' || content.endsWith('\n') ? '' : '\n';
  return `${content}${separator}${line}\n`;
}

/**
 * The text with `replacement` where the placeholder is; an empty one also takes out the line
 * break the placeholder brought. A placeholder the writer deleted leaves a link to go at the end.
 */
function filled(content: string, placeholder: string, replacement: string): string {
  const at = content.indexOf(placeholder);
  if (at === -1) return replacement ? withLine(content, replacement) : content;
  let end = at + placeholder.length;
  const ownLine = (at === 0 || content[at - 1] === '\n') && content[end] === '\n';
  if (!replacement && ownLine) end += 1;
  return content.slice(0, at) + replacement + content.slice(end);
}

export function createUploadQueue(options: UploadQueueOptions): UploadQueue {
  let uploads: readonly Upload[] = [];
  /** the uploads under way: how to stop each, and the text holding its place */
  const running = new Map<string, { controller: AbortController; placeholder: string }>();
  let lastId = 0;

  const update = (next: readonly Upload[]) => {
    uploads = next;
    options.onChange(uploads);
  };
  const replace = (id: string, upload: Upload) =>
    update(uploads.map((u) => (u.id === id ? upload : u)));
  const remove = (id: string) => update(uploads.filter((u) => u.id !== id));

  /** A placeholder found nowhere else: two uploads of a.txt each keep their own. */
  const placeholderFor = (name: string) => {
    const text = options.placeholderText(markdownLinkText(name));
    const content = options.getContent();
    const taken = (candidate: string) =>
      content.includes(candidate) || [...running.values()].some((r) => r.placeholder === candidate);
    let candidate = `[${text}]()`;
    for (let n = 2; taken(candidate); n++) candidate = `[${text} (${n})]()`;
    return candidate;
  };

  const appendLine = (line: string) => options.setContent(withLine(options.getContent(), line));
  const fillPlaceholder = (placeholder: string, replacement: string) =>
    options.setContent(filled(options.getContent(), placeholder, replacement));

  const start = async (file: File) => {
    lastId += 1;
    const id = `upload-${lastId}`;
    const name = file.name;
    const limitMib = options.maxSizeMib();
    if (limitMib !== null && file.size > limitMib * MIB) {
      update([...uploads, { id, name, status: 'tooLarge', limitMib }]);
      return;
    }
    const controller = new AbortController();
    const placeholder = placeholderFor(name);
    running.set(id, { controller, placeholder });
    appendLine(placeholder);
    update([...uploads, { id, name, status: 'uploading', loaded: 0, total: file.size }]);
    try {
      const url = await options.send(file, {
        signal: controller.signal,
        onProgress: ({ loaded, total }) => {
          if (running.has(id)) replace(id, { id, name, status: 'uploading', loaded, total });
        },
      });
      running.delete(id);
      fillPlaceholder(placeholder, `[${markdownLinkText(name)}](${url})`);
      remove(id);
    } catch (error) {
      // A cancelled upload was already taken out by `cancel`.
      if (controller.signal.aborted) return;
      running.delete(id);
      fillPlaceholder(placeholder, '');
      replace(id, { id, name, status: 'failed', error: errorText(error, String(error)) });
    }
  };

  return {
    attach: async (files) => {
      await Promise.all(files.map(start));
    },
    cancel: (id) => {
      const run = running.get(id);
      if (!run) return;
      running.delete(id);
      fillPlaceholder(run.placeholder, '');
      remove(id);
      run.controller.abort();
    },
    dismiss: (id) => {
      if (!running.has(id)) remove(id);
    },
  };
}

/** How far an upload has got, as a whole percentage. */
export function uploadPercent(upload: { loaded: number; total: number }): number {
  if (upload.total <= 0) return 0;
  return Math.min(100, Math.floor((upload.loaded / upload.total) * 100));
}
