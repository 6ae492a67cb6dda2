import type { ApiResult } from './client.js';

/** The extension's path under /api/v1. */
export const VISITOR_STREAM_PATH = '/parley/web_public_events';

/**
 * A visitor's stream of web-public events (GET /parley/web_public_events), read as a browser
 * reads Server-Sent Events: every event that arrived, in order, heartbeats included.
 */
export class VisitorStream {
  readonly events: any[] = [];
  /** resolves when the server ends the stream (or it is closed here) */
  readonly ended: Promise<void>;
  private wake: (() => void)[] = [];
  private finished = false;

  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {
    this.ended = this.read().finally(() => {
      this.finished = true;
      for (const w of this.wake.splice(0)) w();
    });
  }

  /**
   * Opens the stream. A refusal (any answer that is not an event stream) comes back as the
   * ApiResult of its JSON envelope instead.
   */
  static async open(
    baseUrl: string,
    headers: Record<string, string> = {},
  ): Promise<VisitorStream | ApiResult> {
    const abort = new AbortController();
    const response = await fetch(`${baseUrl}/api/v1${VISITOR_STREAM_PATH}`, {
      headers: { Accept: 'text/event-stream', ...headers },
      signal: abort.signal,
    });
    if (!String(response.headers.get('content-type')).startsWith('text/event-stream')) {
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: response.status, body, headers: response.headers };
    }
    return new VisitorStream(response, abort);
  }

  /** Opens the stream, or fails the test with the refusal. */
  static async connect(baseUrl: string): Promise<VisitorStream> {
    const opened = await VisitorStream.open(baseUrl);
    if (!(opened instanceof VisitorStream))
      throw new Error(`no stream: ${opened.status} ${JSON.stringify(opened.body)}`);
    await opened.waitFor((e) => e.type === 'heartbeat');
    return opened;
  }

  /** The events that are not heartbeats. */
  get news(): any[] {
    return this.events.filter((e) => e.type !== 'heartbeat');
  }

  /** The first event (since the start) that `match`es, waiting up to `timeoutMs` for it. */
  async waitFor(match: (event: any) => boolean, timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      if (this.finished) throw new Error(`the stream ended; it had ${this.describe()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such event in time; the stream had ${this.describe()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close() {
    this.abort.abort();
  }

  private describe() {
    return JSON.stringify(this.news).slice(0, 1500);
  }

  private async read() {
    const reader = this.response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (data) this.events.push(...(JSON.parse(data) as any[]));
        }
        for (const w of this.wake.splice(0)) w();
      }
    } catch {
      /* aborted here, or the connection broke */
    }
  }
}

/**
 * The authorization matrix's view of the stream: opened, its first message read, closed. A
 * stream is a 200 whose body is that first batch; a refusal is its envelope.
 */
export async function visitorStreamResult(
  baseUrl: string,
  headers: Record<string, string>,
): Promise<ApiResult> {
  const opened = await VisitorStream.open(baseUrl, headers);
  if (!(opened instanceof VisitorStream)) return opened;
  try {
    await opened.waitFor(() => true);
  } finally {
    opened.close();
  }
  return { status: opened.response.status, body: opened.events, headers: opened.response.headers };
}
