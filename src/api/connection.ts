import { ApiRequestError, retryAfterSeconds, type ApiFailure } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A parameter value before wire encoding; undefined means "leave it out". */
export type ParamValue = string | number | boolean | null | undefined | readonly unknown[] | object;
export type Params = Record<string, ParamValue>;

export interface Credentials {
  email: string;
  apiKey: string;
}

export interface ConnectionOptions {
  /** defaults to the same origin's /api/v1 */
  baseUrl?: string;
  credentials?: Credentials | null;
  fetch?: typeof fetch;
  /** how to wait before the one retry after RATE_LIMIT_HIT; injectable for tests */
  sleep?: (ms: number) => Promise<void>;
  /** waits longer than this are not retried but surfaced to the caller */
  maxRateLimitWaitMs?: number;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** the request outlives the page (fetch's keepalive): for what a closing page still says */
  keepalive?: boolean;
  /** the browser's fetch priority; a request nothing waits for (a long-poll) can be 'low' */
  priority?: RequestPriority;
}

/** How much of an upload's request body has gone, in bytes. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions extends RequestOptions {
  /** called as the request body goes out (where the browser has XMLHttpRequest) */
  onProgress?: (progress: UploadProgress) => void;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Encodes one parameter as the API wants it: lists and objects as JSON, booleans as true/false. */
export function encodeParamValue(value: Exclude<ParamValue, undefined>): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function encodeParams(params: Params): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) out.append(key, encodeParamValue(value));
  }
  return out;
}

function basicAuthHeader({ email, apiKey }: Credentials): string {
  const bytes = new TextEncoder().encode(`${email}:${apiKey}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

/** The one transport: every request of the app goes through here. */
export class ApiConnection {
  readonly baseUrl: string;
  readonly credentials: Credentials | null;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly maxRateLimitWaitMs: number;

  constructor(options: ConnectionOptions = {}) {
    this.baseUrl = (options.baseUrl ?? '/api/v1').replace(/\/$/, '');
    this.credentials = options.credentials ?? null;
    // Bound so that a window.fetch keeps its `this`.
    this.fetchImpl = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.sleep = options.sleep ?? defaultSleep;
    this.maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 10_000;
  }

  async request<T>(
    method: HttpMethod,
    path: string,
    params: Params = {},
    options: RequestOptions = {},
  ): Promise<T> {
    try {
      return await this.requestOnce<T>(method, path, params, options);
    } catch (error) {
      const waitSeconds =
        error instanceof ApiRequestError ? retryAfterSeconds(error.failure) : null;
      if (waitSeconds === null || waitSeconds * 1000 > this.maxRateLimitWaitMs) throw error;
      await this.sleep(waitSeconds * 1000);
      return this.requestOnce<T>(method, path, params, options);
    }
  }

  /**
   * A GET answered with a stream of Server-Sent Events (a Parley extension's): its body, once the
   * server has accepted. A refusal is thrown as `request` throws it; an answer that is not an
   * event stream is `malformed`.
   */
  async openStream(
    path: string,
    options: RequestOptions = {},
  ): Promise<ReadableStream<Uint8Array>> {
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (this.credentials) headers.Authorization = basicAuthHeader(this.credentials);
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}${path}`, {
        headers,
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ApiRequestError({
        kind: 'network',
        message: error instanceof Error ? error.message : String(error),
      });
    }
    const type = response.headers.get('Content-Type') ?? '';
    if (response.ok && type.startsWith('text/event-stream') && response.body) return response.body;
    if (!response.ok) await readResponse(response);
    await response.body?.cancel().catch(() => {});
    throw new ApiRequestError({
      kind: 'malformed',
      status: response.status,
      message: 'response is not an event stream',
    });
  }

  /**
   * A multipart POST with one file (uploads); same errors and answers as `request`. It goes by
   * XMLHttpRequest where there is one, since only that reports the body's progress.
   */
  upload<T>(path: string, file: Blob, filename: string, options: UploadOptions = {}): Promise<T> {
    const body = new FormData();
    body.append('file', file, filename);
    // No Content-Type: the browser writes the multipart boundary itself.
    if (typeof XMLHttpRequest === 'undefined') return this.send<T>('POST', path, body, {}, options);
    return this.sendWithProgress<T>(path, body, file.size, options);
  }

  /** One POST by XMLHttpRequest, its answer read as `send` reads fetch's. */
  private sendWithProgress<T>(
    path: string,
    body: FormData,
    size: number,
    options: UploadOptions,
  ): Promise<T> {
    const { signal, onProgress } = options;
    const aborted = () =>
      signal?.reason ?? new DOMException('The upload was cancelled.', 'AbortError');
    if (signal?.aborted) return Promise.reject(aborted());
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${this.baseUrl}${path}`);
      xhr.setRequestHeader('Accept', 'application/json');
      if (this.credentials)
        xhr.setRequestHeader('Authorization', basicAuthHeader(this.credentials));
      const onAbort = () => xhr.abort();
      const settle = () => signal?.removeEventListener('abort', onAbort);
      signal?.addEventListener('abort', onAbort);
      if (onProgress)
        xhr.upload.onprogress = (event) =>
          onProgress({
            loaded: event.loaded,
            // without a length, the file's size is near enough (the form adds a little)
            total: event.lengthComputable ? event.total : size,
          });
      xhr.onload = () => {
        settle();
        resolve(xhrResponse(xhr));
      };
      xhr.onerror = () => {
        settle();
        reject(new ApiRequestError({ kind: 'network', message: 'the upload did not get through' }));
      };
      xhr.onabort = () => {
        settle();
        reject(aborted());
      };
      xhr.send(body);
    }).then((response) => readResponse<T>(response));
  }

  private requestOnce<T>(
    method: HttpMethod,
    path: string,
    params: Params,
    options: RequestOptions,
  ): Promise<T> {
    const encoded = encodeParams(params).toString();
    if (method === 'GET')
      return this.send<T>(method, encoded ? `${path}?${encoded}` : path, undefined, {}, options);
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    return this.send<T>(method, path, encoded, form, options);
  }

  /** One HTTP exchange with credentials; a failure to reach the server is a `network` error. */
  private async send<T>(
    method: HttpMethod,
    pathAndQuery: string,
    body: FormData | string | undefined,
    extraHeaders: Record<string, string>,
    options: RequestOptions,
  ): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
    if (this.credentials) headers.Authorization = basicAuthHeader(this.credentials);
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}${pathAndQuery}`, {
        method,
        headers,
        body,
        signal: options.signal,
        ...(options.keepalive ? { keepalive: true } : {}),
        ...(options.priority && { priority: options.priority }),
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ApiRequestError({
        kind: 'network',
        message: error instanceof Error ? error.message : String(error),
      });
    }
    return readResponse<T>(response);
  }
}

/** An XMLHttpRequest's answer as a fetch Response, for `readResponse`. */
function xhrResponse(xhr: XMLHttpRequest): Response {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  // A Response of 204 or 304 may have no body.
  const text = xhr.status === 204 || xhr.status === 304 ? null : xhr.responseText;
  return new Response(text, { status: xhr.status, statusText: xhr.statusText, headers });
}

async function readResponse<T>(response: Response): Promise<T> {
  const { status } = response;
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    json = undefined;
  }
  const envelope = isEnvelope(json) ? json : null;

  if (status >= 500) {
    const message =
      typeof envelope?.msg === 'string' && envelope.msg ? envelope.msg : response.statusText;
    throw new ApiRequestError({ kind: 'server', status, message });
  }
  if (!envelope)
    throw new ApiRequestError({
      kind: 'malformed',
      status,
      message: 'response is not a JSON envelope',
    });
  if (envelope.result === 'success' && status >= 200 && status < 300) return envelope as T;
  if (envelope.result === 'error')
    throw new ApiRequestError(apiFailure(status, envelope, response.headers));
  throw new ApiRequestError({
    kind: 'malformed',
    status,
    message: `result "${String(envelope.result)}" with HTTP ${status}`,
  });
}

function isEnvelope(
  json: unknown,
): json is { result: unknown; msg?: unknown } & Record<string, unknown> {
  return typeof json === 'object' && json !== null && 'result' in json;
}

function apiFailure(
  status: number,
  envelope: Record<string, unknown>,
  headers: Headers,
): ApiFailure {
  const { result: _result, msg, code, ...extra } = envelope;
  const failure: ApiFailure = {
    kind: 'api',
    status,
    code: typeof code === 'string' ? code : 'BAD_REQUEST',
    msg: typeof msg === 'string' ? msg : '',
    extra,
  };
  // The header is the fallback for servers that put the delay only there.
  const header = headers.get('Retry-After');
  if (failure.code === 'RATE_LIMIT_HIT' && extra['retry-after'] === undefined && header !== null) {
    failure.extra = { ...extra, 'retry-after': Number(header) };
  }
  return failure;
}
