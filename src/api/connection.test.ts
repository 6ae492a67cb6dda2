import { describe, expect, it, vi } from 'vitest';
import { FakeFetch } from '../test/fake-fetch';
import { ApiConnection } from './connection';
import { ApiRequestError } from './errors';
import { fetchApiKey, getMessages, registerQueue, sendMessage, updateMessageFlags } from '.';

function connect(
  fake: FakeFetch,
  extra: Partial<ConstructorParameters<typeof ApiConnection>[0]> = {},
) {
  return new ApiConnection({
    fetch: fake.fetch,
    credentials: { email: 'hamlet@example.com', apiKey: 'k3y' },
    ...extra,
  });
}

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiRequestError);
  return (error as ApiRequestError).failure;
}

describe('ApiConnection', () => {
  it('defaults to the same origin /api/v1 and sends Basic auth', async () => {
    const fake = new FakeFetch().respond({ messages: [] });
    await connect(fake).request('GET', '/messages');
    expect(fake.last.url).toBe('/api/v1/messages');
    expect(fake.last.headers.Authorization).toBe(`Basic ${btoa('hamlet@example.com:k3y')}`);
  });

  it('puts GET parameters in the query string, JSON-encoding lists', async () => {
    const fake = new FakeFetch().respond({
      messages: [],
      anchor: 1,
      found_oldest: true,
      found_newest: true,
    });
    await getMessages(connect(fake), {
      anchor: 'first_unread',
      num_before: 50,
      num_after: 50,
      narrow: [{ operator: 'channel', operand: 5 }],
    });
    expect(fake.last.method).toBe('GET');
    expect(fake.last.query.get('anchor')).toBe('first_unread');
    expect(fake.last.query.get('num_before')).toBe('50');
    expect(fake.last.query.get('apply_markdown')).toBe('true');
    expect(JSON.parse(fake.last.query.get('narrow')!)).toEqual([
      { operator: 'channel', operand: 5 },
    ]);
  });

  it('sends POST bodies form-encoded, with booleans as true/false and objects as JSON', async () => {
    const fake = new FakeFetch().respond({ queue_id: 'q', last_event_id: -1 });
    await registerQueue(connect(fake), {
      apply_markdown: true,
      client_gravatar: false,
      client_capabilities: { bulk_message_deletion: true },
    });
    expect(fake.last.method).toBe('POST');
    expect(fake.last.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(fake.last.body.get('apply_markdown')).toBe('true');
    expect(fake.last.body.get('client_gravatar')).toBe('false');
    expect(JSON.parse(fake.last.body.get('client_capabilities')!)).toEqual({
      bulk_message_deletion: true,
    });
  });

  it('encodes a direct message recipient list as JSON and leaves out undefined parameters', async () => {
    const fake = new FakeFetch().respond({ id: 42 });
    const result = await sendMessage(connect(fake), {
      type: 'direct',
      to: [8, 9],
      content: 'hi',
      queue_id: undefined,
    });
    expect(result.id).toBe(42);
    expect(fake.last.body.get('to')).toBe('[8,9]');
    expect(fake.last.body.has('queue_id')).toBe(false);
  });

  it('logs in without credentials', async () => {
    const fake = new FakeFetch().respond({ api_key: 'abc', email: 'a@b.c', user_id: 1 });
    const anonymous = new ApiConnection({
      fetch: fake.fetch,
      baseUrl: 'https://chat.example.com/api/v1/',
    });
    await fetchApiKey(anonymous, { username: 'a@b.c', password: 'pw' });
    expect(fake.last.url).toBe('https://chat.example.com/api/v1/fetch_api_key');
    expect(fake.last.headers.Authorization).toBeUndefined();
    expect(fake.last.body.get('password')).toBe('pw');
  });

  it('turns an error envelope into an api failure with its code and extra fields', async () => {
    const fake = new FakeFetch().respondError(
      'REQUEST_VARIABLE_MISSING',
      "Missing 'flag' argument",
      400,
      { var_name: 'flag' },
    );
    const failure = await failureOf(
      updateMessageFlags(connect(fake), { messages: [1], op: 'add', flag: 'read' }),
    );
    expect(failure).toEqual({
      kind: 'api',
      status: 400,
      code: 'REQUEST_VARIABLE_MISSING',
      msg: "Missing 'flag' argument",
      extra: { var_name: 'flag' },
    });
  });

  it('defaults a missing code to BAD_REQUEST', async () => {
    const fake = new FakeFetch().respondRaw(400, { result: 'error', msg: 'nope' });
    expect(await failureOf(connect(fake).request('GET', '/x'))).toMatchObject({
      kind: 'api',
      code: 'BAD_REQUEST',
      msg: 'nope',
    });
  });

  it('reports 5xx as a server failure', async () => {
    const fake = new FakeFetch().respondRaw(502, 'Bad gateway');
    expect(await failureOf(connect(fake).request('GET', '/x'))).toMatchObject({
      kind: 'server',
      status: 502,
    });
  });

  it('reports a thrown fetch as a network failure', async () => {
    const fake = new FakeFetch().failNetwork('Failed to fetch');
    expect(await failureOf(connect(fake).request('GET', '/x'))).toEqual({
      kind: 'network',
      message: 'Failed to fetch',
    });
  });

  it('reports a 200 without an envelope as malformed', async () => {
    const fake = new FakeFetch().respondWith(() => new Response('<html>', { status: 200 }));
    expect(await failureOf(connect(fake).request('GET', '/x'))).toMatchObject({
      kind: 'malformed',
      status: 200,
    });
  });

  it('waits for retry-after and retries a rate-limited request once', async () => {
    const sleep = vi.fn(async () => {});
    const fake = new FakeFetch()
      .respondError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429, { 'retry-after': 1.5 })
      .respond({ id: 7 });
    const result = await sendMessage(connect(fake, { sleep }), {
      type: 'stream',
      to: 5,
      topic: 't',
      content: 'x',
    });
    expect(sleep).toHaveBeenCalledWith(1500);
    expect(result.id).toBe(7);
    expect(fake.requests).toHaveLength(2);
  });

  it('surfaces a rate limit with its delay when the wait is too long or the retry fails too', async () => {
    const sleep = vi.fn(async () => {});
    const tooLong = new FakeFetch().respondError('RATE_LIMIT_HIT', 'slow down', 429, {
      'retry-after': 60,
    });
    expect(await failureOf(connect(tooLong, { sleep }).request('POST', '/x'))).toMatchObject({
      code: 'RATE_LIMIT_HIT',
      extra: { 'retry-after': 60 },
    });
    expect(sleep).not.toHaveBeenCalled();

    const twice = new FakeFetch()
      .respondError('RATE_LIMIT_HIT', 'slow down', 429, { 'retry-after': 1 })
      .respondError('RATE_LIMIT_HIT', 'slow down', 429, { 'retry-after': 1 });
    expect(await failureOf(connect(twice, { sleep }).request('POST', '/x'))).toMatchObject({
      code: 'RATE_LIMIT_HIT',
    });
    expect(twice.requests).toHaveLength(2);
  });

  it('reads the delay from the Retry-After header when the body lacks it', async () => {
    const sleep = vi.fn(async () => {});
    const fake = new FakeFetch()
      .respond({ result: 'error', code: 'RATE_LIMIT_HIT', msg: 'slow' }, 429, {
        'Retry-After': '2',
      })
      .respond({});
    await connect(fake, { sleep }).request('GET', '/x');
    expect(sleep).toHaveBeenCalledWith(2000);
  });
});
