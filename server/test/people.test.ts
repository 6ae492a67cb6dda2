import { describe, expect, it } from 'vitest';
import { drain } from './client.js';
import { PNG } from './endpoints.js';
import { databases, useServer } from './fixtures.js';

describe.each(databases('both'))('status and avatar on %s', (db) => {
  const w = useServer({ db, people: ['hamlet', 'othello'] });
  const { hamlet, othello } = w.as;

  it('sets a status part by part, tells everyone and shows it in the snapshot', async () => {
    const q = await othello.post('/register', { event_types: ['user_status'] });
    const set = await hamlet.post('/users/me/status', {
      status_text: 'In a meeting',
      emoji_name: 'calendar',
    });
    expect(set.body).toMatchObject({ result: 'success' });
    await hamlet.post('/users/me/status', { away: true });
    const events = await drain(othello, q.body.queue_id);
    expect(events.map(({ id: _id, ...e }: { id: number }) => e)).toEqual([
      {
        type: 'user_status',
        user_id: w.id.hamlet,
        status_text: 'In a meeting',
        emoji_name: 'calendar',
        emoji_code: '1f4c5',
        reaction_type: 'unicode_emoji',
      },
      { type: 'user_status', user_id: w.id.hamlet, away: true },
    ]);
    const snapshot = await othello.post('/register', { fetch_event_types: ['user_status'] });
    expect(snapshot.body.user_status[w.id.hamlet]).toEqual({
      away: true,
      status_text: 'In a meeting',
      emoji_name: 'calendar',
      emoji_code: '1f4c5',
      reaction_type: 'unicode_emoji',
    });
    expect((await othello.get(`/users/${w.id.hamlet}/status`)).body.status).toMatchObject({
      status_text: 'In a meeting',
    });
    await hamlet.post('/users/me/status', { away: false, status_text: '', emoji_name: '' });
    const cleared = await othello.post('/register', { fetch_event_types: ['user_status'] });
    expect(cleared.body.user_status[w.id.hamlet]).toBeUndefined();
  });

  it('refuses an empty request, a long text and an unknown emoji', async () => {
    expect((await hamlet.post('/users/me/status', {})).body.msg).toBe(
      'Client did not pass any new values.',
    );
    expect((await hamlet.post('/users/me/status', { status_text: 'x'.repeat(61) })).body.msg).toBe(
      'status_text is too long (limit: 60 characters)',
    );
    expect((await hamlet.post('/users/me/status', { emoji_name: 'no_such_thing' })).body.msg).toBe(
      "Emoji 'no_such_thing' does not exist",
    );
  });

  it('uploads an avatar, serves it under a new version and removes it again', async () => {
    const q = await othello.post('/register', { event_types: ['realm_user'] });
    const upload = await hamlet.post('/users/me/avatar', {
      file: new File([new Uint8Array(PNG)], 'me.png', { type: 'image/png' }),
    });
    expect(upload.body).toMatchObject({ result: 'success' });
    const url: string = upload.body.avatar_url;
    expect(url).toMatch(new RegExp(`/user_avatars/\\d+/${w.id.hamlet}-2-[0-9a-f]{32}$`));
    const image = await fetch(url);
    expect(image.headers.get('content-type')).toBe('image/png');
    const [event] = await drain(othello, q.body.queue_id);
    expect(event).toMatchObject({
      type: 'realm_user',
      op: 'update',
      person: { user_id: w.id.hamlet, avatar_url: url, avatar_version: 2 },
    });
    const removed = await hamlet.delete('/users/me/avatar');
    expect(removed.body.avatar_url).toMatch(new RegExp(`/${w.id.hamlet}-3-[0-9a-f]{32}$`));
    // The first upload's path is gone with it.
    expect((await fetch(url)).status).toBe(404);
    const drawn = await fetch(removed.body.avatar_url);
    expect(drawn.headers.get('content-type')).toContain('image/svg+xml');
  });

  it('refuses an avatar request without exactly one image', async () => {
    expect((await hamlet.post('/users/me/avatar', {})).body.msg).toBe(
      'You must upload exactly one avatar.',
    );
    const text = await hamlet.post('/users/me/avatar', {
      file: new File(['not an image'], 'me.png', { type: 'image/png' }),
    });
    expect(text.body.msg).toBe('Invalid image format');
  });
});
