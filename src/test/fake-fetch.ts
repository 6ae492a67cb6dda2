/** A fetch that records every request and answers from a queue of scripted responses. */
export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  body: URLSearchParams;
  headers: Record<string, string>;
}

type Scripted =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { networkError: string }
  | ((request: RecordedRequest) => Promise<Response> | Response);

export class FakeFetch {
  readonly requests: RecordedRequest[] = [];
  private readonly script: Scripted[] = [];

  /** Queues a JSON response; `result: success` and `msg` are added when `json` has no result. */
  respond(json: Record<string, unknown>, status = 200, headers: Record<string, string> = {}) {
    const body = 'result' in json ? json : { result: 'success', msg: '', ...json };
    this.script.push({ status, json: body, headers });
    return this;
  }

  respondError(code: string, msg: string, status = 400, extra: Record<string, unknown> = {}) {
    return this.respond({ result: 'error', code, msg, ...extra }, status);
  }

  respondRaw(status: number, json: unknown) {
    this.script.push({ status, json });
    return this;
  }

  failNetwork(message = 'Failed to fetch') {
    this.script.push({ networkError: message });
    return this;
  }

  respondWith(handler: (request: RecordedRequest) => Promise<Response> | Response) {
    this.script.push(handler);
    return this;
  }

  get last(): RecordedRequest {
    return this.requests[this.requests.length - 1];
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = String(input);
    const parsed = new URL(url, 'http://parley.test');
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      url,
      path: parsed.pathname,
      query: parsed.searchParams,
      body: new URLSearchParams(typeof init.body === 'string' ? init.body : ''),
      headers: { ...(init.headers as Record<string, string>) },
    };
    this.requests.push(request);
    const next = this.script.shift();
    if (!next)
      throw new Error(`FakeFetch: no scripted response for ${request.method} ${request.path}`);
    if (typeof next === 'function') return next(request);
    if ('networkError' in next) throw new TypeError(next.networkError);
    const body = typeof next.json === 'string' ? next.json : JSON.stringify(next.json);
    return new Response(body, {
      status: next.status,
      headers: { 'Content-Type': 'application/json', ...next.headers },
    });
  };
}
