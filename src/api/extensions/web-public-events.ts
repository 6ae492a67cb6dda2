/**
 * `web_public_events`: a Parley extension (see mail-log.ts for how extensions are announced) that
 * streams the web-public channels' events, live, to visitors, who have no event queue. The
 * stream is Server-Sent Events; each message's data is a JSON array of events shaped as GET
 * /events gives them: `message`, `update_message`, `delete_message`, `reaction` and `submessage`
 * (these two with the `stream_id` of their message), `stream` (a channel arriving as `create`,
 * leaving as `delete`, or changing), `realm` (the organization closing to visitors, last) and
 * `heartbeat`.
 */
import { ApiRequestError } from '../errors';
import type { ApiConnection } from '../connection';

export const WEB_PUBLIC_EVENTS = 'web_public_events';
export const WEB_PUBLIC_EVENTS_PATH = '/parley/web_public_events';

/**
 * Cuts Server-Sent Events text into its messages as chunks arrive: `push` returns the data of
 * each message the text completed. Comments and other fields are skipped.
 */
export class EventStreamParser {
  private buffer = '';

  push(text: string): string[] {
    this.buffer = (this.buffer + text).replace(/\r\n/g, '\n');
    const out: string[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) !== -1) {
      const message = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const data = message
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
      if (data.length) out.push(data.join('\n'));
    }
    return out;
  }
}

export interface WebPublicEventHandlers {
  /** the server accepted: events flow from now on */
  opened(): void;
  /** one batch of events, unparsed (parse each with parseEvent) */
  batch(events: unknown[]): void;
}

/**
 * GET /parley/web_public_events, followed until the server ends the stream (then it resolves) or
 * it fails (then it rejects, with an ApiRequestError for a refusal or a broken connection).
 * Aborting `signal` stops it.
 */
export async function followWebPublicEvents(
  connection: ApiConnection,
  handlers: WebPublicEventHandlers,
  signal: AbortSignal,
): Promise<void> {
  const body = await connection.openStream(WEB_PUBLIC_EVENTS_PATH, { signal });
  handlers.opened();
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new EventStreamParser();
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal.aborted) throw error;
        throw new ApiRequestError({ kind: 'network', message: 'the event stream broke off' });
      }
      if (chunk.done) return;
      for (const data of parser.push(decoder.decode(chunk.value, { stream: true })))
        handlers.batch(batchOf(data));
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

function batchOf(data: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed))
    throw new ApiRequestError({ kind: 'malformed', status: 200, message: 'not a list of events' });
  return parsed;
}
