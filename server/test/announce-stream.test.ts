import { beforeAll, describe, expect, it } from 'vitest';
import { databases, useServer } from './fixtures.js';

describe.each(databases('both'))('announcing new channels on %s', (db) => {
  const w = useServer({ db, people: ['iago', 'hamlet'] });
  const { iago, hamlet } = w.as;

  beforeAll(async () => {
    expect(
      (await iago.patch('/realm', { new_stream_announcements_stream_id: String(w.stream.general) }))
        .status,
    ).toBe(200);
  });

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
      `@_**King Hamlet|${w.id.hamlet}** created a new channel #**loud-one**.`,
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
