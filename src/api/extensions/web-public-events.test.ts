import { describe, expect, it } from 'vitest';
import { FakeFetch } from '../../test/fake-fetch';
import { ApiConnection } from '../connection';
import { ApiRequestError } from '../errors';
import { EventStreamParser, followWebPublicEvents } from './web-public-events';

/** An event-stream answer whose body arrives in the given chunks. */
function streamed(chunks: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } });
}

async function follow(fake: FakeFetch) {
  const connection = new ApiConnection({ baseUrl: '/api/v1', fetch: fake.fetch });
  const batches: unknown[][] = [];
  let opened = 0;
  await followWebPublicEvents(
    connection,
    { opened: () => opened++, batch: (events) => batches.push(events) },
    new AbortController().signal,
  );
  return { batches, opened };
}

describe('the visitors’ event stream', () => {
  it('cuts messages wherever the chunks break, and skips comments', () => {
    const parser = new EventStreamParser();
    expect(parser.push(': hello\n\ndata: [{"id":0,')).toEqual([]);
    expect(parser.push('"type":"heartbeat"}]\n')).toEqual([]);
    expect(parser.push('\ndata: [1]\r\n\r\ndata: [2]\n\n')).toEqual([
      '[{"id":0,"type":"heartbeat"}]',
      '[1]',
      '[2]',
    ]);
  });

  it('asks for an event stream, and hands over each batch until the server ends it', async () => {
    const fake = new FakeFetch().respondWith(() =>
      streamed(['data: [{"id":0,"type":"heartbeat"}]\n\nda', 'ta: [{"id":1,"type":"x"}]\n\n']),
    );
    const { batches, opened } = await follow(fake);
    expect(fake.last.path).toBe('/api/v1/parley/web_public_events');
    expect(fake.last.headers.Accept).toBe('text/event-stream');
    expect(fake.last.headers.Authorization).toBeUndefined();
    expect(opened).toBe(1);
    expect(batches).toEqual([[{ id: 0, type: 'heartbeat' }], [{ id: 1, type: 'x' }]]);
  });

  it('throws a refusal as the API error it is, and anything but a stream as malformed', async () => {
    const refused = follow(
      new FakeFetch().respondError('NOT_FOUND', 'turned off on this server', 404),
    );
    await expect(refused).rejects.toMatchObject({
      failure: { kind: 'api', status: 404, code: 'NOT_FOUND' },
    });
    const json = follow(new FakeFetch().respond({ heartbeat_seconds: 25 }));
    await expect(json).rejects.toBeInstanceOf(ApiRequestError);
    await expect(json).rejects.toMatchObject({ failure: { kind: 'malformed' } });
    const garbage = follow(new FakeFetch().respondWith(() => streamed(['data: {"no":1}\n\n'])));
    await expect(garbage).rejects.toMatchObject({ failure: { kind: 'malformed' } });
  });
});
