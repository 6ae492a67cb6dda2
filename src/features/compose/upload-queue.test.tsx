import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiConnection } from '../../api/connection';
import { ApiRequestError } from '../../api/errors';
import { uploadFile } from '../../api/routes/messages';
import { eg } from '../../test/eg';
import { renderCompose } from './render-compose.test-helper';
import { createUploadQueue, MIB, type Upload } from './upload-queue';

/** A stand-in XMLHttpRequest: records what was asked, and answers when the test says. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  aborted = false;
  status = 0;
  statusText = '';
  responseText = '';
  responseHeaders = '';
  upload: { onprogress: ((event: ProgressEventInit) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  getAllResponseHeaders() {
    return this.responseHeaders;
  }

  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true });
  }
  respond(status: number, body: object, headers = 'content-type: application/json\r\n') {
    this.status = status;
    this.statusText = status === 200 ? 'OK' : 'Bad Request';
    this.responseText = JSON.stringify(body);
    this.responseHeaders = headers;
    this.onload?.();
  }
}

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Lets the promises waiting on a fake answer run. */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

const fileOf = (name: string, size: number) =>
  new File([new Uint8Array(size)], name, { type: 'text/plain' });

describe('the upload binding', () => {
  const connection = new ApiConnection({
    baseUrl: 'http://parley.test/api/v1',
    credentials: { email: 'me@example.com', apiKey: 'KEY' },
  });

  it('posts the file with credentials, reports progress and answers the envelope', async () => {
    const seen: Array<[number, number]> = [];
    const result = uploadFile(connection, fileOf('a.txt', 10), 'a.txt', {
      onProgress: ({ loaded, total }) => seen.push([loaded, total]),
    });
    const xhr = FakeXhr.sent[0]!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('http://parley.test/api/v1/user_uploads');
    expect(xhr.headers.Authorization).toBe(`Basic ${btoa('me@example.com:KEY')}`);
    expect(xhr.headers.Accept).toBe('application/json');
    expect((xhr.body!.get('file') as File).name).toBe('a.txt');
    xhr.progress(4, 200);
    xhr.progress(200, 200);
    xhr.respond(200, { result: 'success', msg: '', url: '/user_uploads/2/ab/a.txt' });
    expect(await result).toMatchObject({ url: '/user_uploads/2/ab/a.txt' });
    expect(seen).toEqual([
      [4, 200],
      [200, 200],
    ]);
  });

  it('turns an error envelope into the API error, as for every request', async () => {
    const result = uploadFile(connection, fileOf('a.txt', 10), 'a.txt');
    FakeXhr.sent[0]!.respond(400, { result: 'error', msg: 'File too big', code: 'BAD_REQUEST' });
    const error: unknown = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).failure).toMatchObject({ kind: 'api', msg: 'File too big' });
  });

  it('aborts the request when the signal does', async () => {
    const controller = new AbortController();
    const result = uploadFile(connection, fileOf('a.txt', 10), 'a.txt', {
      signal: controller.signal,
    });
    controller.abort();
    expect(FakeXhr.sent[0]!.aborted).toBe(true);
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
  });
});

/** A queue over a message held in a variable, sending through the binding and the fake. */
function queueWith(content = 'Hello', limitMib: number | null = 1) {
  const connection = new ApiConnection({ baseUrl: '/api/v1' });
  const state = { content, uploads: [] as readonly Upload[] };
  const queue = createUploadQueue({
    send: async (file, options) => (await uploadFile(connection, file, file.name, options)).url,
    getContent: () => state.content,
    setContent: (next) => (state.content = next),
    maxSizeMib: () => limitMib,
    placeholderText: (name) => `Uploading ${name}…`,
    onChange: (uploads) => (state.uploads = uploads),
  });
  return { queue, state };
}

describe('the upload queue', () => {
  it('holds a place for the file, follows its progress, then links it there', async () => {
    const { queue, state } = queueWith();
    const done = queue.attach([fileOf('notes [v2].txt', 100)]);
    expect(state.content).toBe('Hello\n[Uploading notes \\[v2\\].txt…]()\n');
    expect(state.uploads).toEqual([
      {
        id: expect.any(String),
        name: 'notes [v2].txt',
        status: 'uploading',
        loaded: 0,
        total: 100,
      },
    ]);
    const xhr = FakeXhr.sent[0]!;
    xhr.progress(60, 120);
    expect(state.uploads[0]).toMatchObject({ status: 'uploading', loaded: 60, total: 120 });
    state.content += 'More words';
    xhr.respond(200, { result: 'success', msg: '', url: '/user_uploads/2/cd/notes.txt' });
    await done;
    expect(state.content).toBe(
      'Hello\n[notes \\[v2\\].txt](/user_uploads/2/cd/notes.txt)\nMore words',
    );
    expect(state.uploads).toEqual([]);
  });

  it('cancels: aborts the request and takes the placeholder out', async () => {
    const { queue, state } = queueWith('Hello\n');
    const done = queue.attach([fileOf('big.bin', 500)]);
    expect(state.content).toBe('Hello\n[Uploading big.bin…]()\n');
    const id = state.uploads[0]!.id;
    queue.cancel(id);
    expect(FakeXhr.sent[0]!.aborted).toBe(true);
    await done;
    expect(state.content).toBe('Hello\n');
    expect(state.uploads).toEqual([]);
  });

  it('refuses a file over the limit before any request, saying the limit', async () => {
    const { queue, state } = queueWith('Hello', 1);
    await queue.attach([fileOf('huge.bin', MIB + 1)]);
    expect(FakeXhr.sent).toEqual([]);
    expect(state.content).toBe('Hello');
    expect(state.uploads).toEqual([
      { id: expect.any(String), name: 'huge.bin', status: 'tooLarge', limitMib: 1 },
    ]);
    queue.dismiss(state.uploads[0]!.id);
    expect(state.uploads).toEqual([]);
  });

  it('sends a file of exactly the limit, and any file when the server gave none', async () => {
    const limited = queueWith('', 1);
    void limited.queue.attach([fileOf('exact.bin', MIB)]);
    const unlimited = queueWith('', null);
    void unlimited.queue.attach([fileOf('any.bin', 2 * MIB)]);
    expect(FakeXhr.sent).toHaveLength(2);
  });

  it('takes the placeholder out of a failed upload and says why', async () => {
    const { queue, state } = queueWith('');
    const done = queue.attach([fileOf('a.txt', 5)]);
    FakeXhr.sent[0]!.respond(400, { result: 'error', msg: 'Uploads are off', code: 'BAD_REQUEST' });
    await done;
    expect(state.content).toBe('');
    expect(state.uploads).toEqual([
      { id: expect.any(String), name: 'a.txt', status: 'failed', error: 'Uploads are off' },
    ]);
  });

  it('gives two files of one name places of their own', async () => {
    const { queue, state } = queueWith('');
    const done = queue.attach([fileOf('a.txt', 5), fileOf('a.txt', 6)]);
    expect(state.content).toBe('[Uploading a.txt…]()\n[Uploading a.txt… (2)]()\n');
    FakeXhr.sent[1]!.respond(200, { result: 'success', msg: '', url: '/user_uploads/2/b/a.txt' });
    queue.cancel(state.uploads[0]!.id);
    await done;
    expect(state.content).toBe('[a.txt](/user_uploads/2/b/a.txt)\n');
  });
});

describe('uploads in the compose box', () => {
  const attach = (...files: File[]) =>
    fireEvent.change(screen.getByLabelText('Files to attach'), { target: { files } });

  it('show each file’s progress with a cancel button', async () => {
    const field = renderCompose(eg.registerResponse({ max_file_upload_size_mib: 1 }));
    attach(fileOf('report.pdf', 1000));
    expect(field.value).toBe('[Uploading report.pdf…]()\n');
    const bar = screen.getByRole('progressbar', { name: 'Upload of report.pdf' });
    act(() => FakeXhr.sent[0]!.progress(250, 1000));
    expect(bar.getAttribute('value')).toBe('25');
    expect(screen.getByText('25%')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the upload of report.pdf' }));
    expect(FakeXhr.sent[0]!.aborted).toBe(true);
    await settle();
    expect(field.value).toBe('');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('keep the message from being sent with a file still uploading', async () => {
    const field = renderCompose(eg.registerResponse({ max_file_upload_size_mib: 1 }));
    fireEvent.change(field, { target: { value: 'See the report' } });
    attach(fileOf('report.pdf', 1000));
    expect(screen.getByRole('button', { name: 'Send message' })).toHaveProperty('disabled', true);
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe(
      'Wait for the files to finish uploading, or cancel them, before sending.',
    );
    expect(field.value).toContain('[Uploading report.pdf…]()');
    FakeXhr.sent[0]!.respond(200, {
      result: 'success',
      msg: '',
      url: '/user_uploads/2/r/report.pdf',
    });
    await settle();
    expect(screen.getByRole('button', { name: 'Send message' })).toHaveProperty('disabled', false);
  });

  it('refuse a file over the server’s limit by name, sending nothing', () => {
    const field = renderCompose(eg.registerResponse({ max_file_upload_size_mib: 1 }));
    attach(fileOf('huge.iso', MIB + 1));
    expect(screen.getByRole('alert').textContent).toContain(
      'huge.iso is too large to upload: files can be at most 1 MiB.',
    );
    expect(FakeXhr.sent).toEqual([]);
    expect(field.value).toBe('');
  });
});
