/** A minimal HTTP client for the tests, speaking the API as third-party clients do. */
export interface ApiResult {
  status: number;
  body: any;
  headers: Headers;
}

export class TestClient {
  constructor(
    readonly baseUrl: string,
    readonly email?: string,
    readonly apiKey?: string,
  ) {}

  /**
   * Takes over another client's address and credentials: the server fixture hands out its
   * clients when the test file is collected, and logs them in once the server has started.
   */
  adopt(other: TestClient): void {
    Object.assign(this, other);
  }

  static async login(baseUrl: string, email: string, password: string): Promise<TestClient> {
    const anon = new TestClient(baseUrl);
    const r = await anon.post('/fetch_api_key', { username: email, password });
    if (r.status !== 200) throw new Error(`login failed for ${email}: ${JSON.stringify(r.body)}`);
    return new TestClient(baseUrl, r.body.email, r.body.api_key);
  }

  /** The `Authorization` header this client sends, for tests that make requests of their own. */
  headers(): Record<string, string> {
    if (!this.email) return {};
    return {
      Authorization: 'Basic ' + Buffer.from(`${this.email}:${this.apiKey}`).toString('base64'),
    };
  }

  static encode(params: Record<string, unknown>): URLSearchParams {
    const out = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined) continue;
      out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    return out;
  }

  /** A multipart body, for requests that carry a file (a Blob or File among the parameters). */
  static form(params: Record<string, unknown>): FormData {
    const out = new FormData();
    for (const [k, v] of Object.entries(params)) {
      if (v instanceof Blob) out.set(k, v);
      else if (v !== undefined) out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    return out;
  }

  async request(
    method: string,
    path: string,
    params: Record<string, unknown> = {},
    init: RequestInit = {},
  ): Promise<ApiResult> {
    const multipart = Object.values(params).some((v) => v instanceof Blob);
    const encoded = TestClient.encode(params);
    const url =
      `${this.baseUrl}/api/v1${path}` +
      (method === 'GET' && [...encoded].length ? `?${encoded}` : '');
    return fetchResult(url, {
      method,
      headers: {
        ...this.headers(),
        ...(method !== 'GET' && !multipart
          ? { 'Content-Type': 'application/x-www-form-urlencoded' }
          : {}),
      },
      body: method === 'GET' ? undefined : multipart ? TestClient.form(params) : encoded.toString(),
      ...init,
    });
  }

  get(path: string, params?: Record<string, unknown>) {
    return this.request('GET', path, params);
  }
  post(path: string, params?: Record<string, unknown>) {
    return this.request('POST', path, params);
  }
  patch(path: string, params?: Record<string, unknown>) {
    return this.request('PATCH', path, params);
  }
  put(path: string, params?: Record<string, unknown>) {
    return this.request('PUT', path, params);
  }
  delete(path: string, params?: Record<string, unknown>) {
    return this.request('DELETE', path, params);
  }
}

/** Fetches `url`: the status, the headers, and the body parsed as JSON, or as text where it is not. */
export async function fetchResult(url: string, init: RequestInit = {}): Promise<ApiResult> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* pages, files and metrics are not JSON */
  }
  return { status: res.status, body, headers: res.headers };
}

/** Every event a queue holds right now, without waiting (the tests' view of what an action emitted). */
export async function drain(client: TestClient, queueId: string): Promise<any[]> {
  return (await client.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true }))
    .body.events;
}
