import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { TestClient } from './client.js';

describe.each(DATABASES)('announcing new channels on %s', (db) => {
  let server: TestServer;
  let iago: TestClient;
  let hamlet: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ db });
    iago = await TestClient.login(server.url, 'iago@example.com', DEMO_PASSWORD);
    hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    const general = (await iago.get('/get_stream_id', { stream: 'general' })).body.stream_id;
    expect(
      (await iago.patch('/realm', { new_stream_announcements_stream_id: String(general) })).status,
    ).toBe(200);
  });
  afterAll(() => server?.close());

  const announcements = async () =>
    (
      await hamlet.get('/messages', {
        anchor: 'newest',
        num_before: 20,
        num_after: 0,
        narrow: [
          { operator: 'channel', operand: 'general' },
          { operator: 'topic', operand: 'new channels' },
        ],
        apply_markdown: false,
      })
    ).body.messages as { content: string }[];

  it('announces a new public channel when asked, and only then', async () => {
    const hamletId = (await hamlet.get('/users/me')).body.user_id;
    const quiet = await hamlet.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'quiet-one' }],
    });
    expect(quiet.status).toBe(200);
    expect(await announcements()).toHaveLength(0);

    const loud = await hamlet.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'loud-one' }],
      announce: true,
    });
    expect(loud.status).toBe(200);
    const said = await announcements();
    expect(said.map((m) => m.content)).toEqual([
      `@_**King Hamlet|${hamletId}** created a new channel #**loud-one**.`,
    ]);
  });

  it('never announces a private channel, nor an existing one joined again', async () => {
    const before = (await announcements()).length;
    await hamlet.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'hidden-one' }],
      invite_only: true,
      announce: true,
    });
    await hamlet.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'loud-one' }],
      announce: true,
    });
    expect(await announcements()).toHaveLength(before);
  });
});
