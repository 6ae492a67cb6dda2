import { beforeAll, describe, expect, it } from 'vitest';
import { drain, TestClient } from './client.js';
import { PNG } from './endpoints.js';
import { databases, useServer } from './fixtures.js';

const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/** POST /realm/emoji/{name} with one image (or none), as the bindings send it. */
function addEmoji(
  client: TestClient,
  name: string,
  file: { data: Buffer | string; name?: string; type?: string } | null = { data: PNG },
) {
  const params: Record<string, unknown> = {};
  if (file)
    params.filename = new File(
      [typeof file.data === 'string' ? file.data : new Uint8Array(file.data)],
      file.name ?? 'emoji.png',
      {
        type: file.type ?? 'image/png',
      },
    );
  return client.post(`/realm/emoji/${encodeURIComponent(name)}`, file ? params : {});
}

describe.each(databases('both'))('custom emoji on %s', (db) => {
  const w = useServer({ db, people: ['iago', 'hamlet', 'othello', 'cordelia', 'polonius'] });
  const { hamlet, othello, iago, cordelia, polonius } = w.as;
  let realmId: number;

  beforeAll(async () => {
    realmId = (await w.server.ctx.db.selectFrom('realms').select('id').executeTakeFirstOrThrow())
      .id;
  });

  const emojiNamed = async (name: string) => {
    const all = (await hamlet.get('/realm/emoji')).body.emoji as Record<string, any>;
    return Object.values(all).filter((e) => e.name === name);
  };

  it('serves the names of every emoji by code at server_emoji_data_url, as the mobile apps read them', async () => {
    const snapshot = await hamlet.post('/register', { fetch_event_types: ['realm'] });
    const url = snapshot.body.server_emoji_data_url as string;
    expect(url).toBe(`${w.server.url}/static/generated/emoji/emoji_api.json`);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { code_to_names: names } = (await res.json()) as {
      code_to_names: Record<string, string[]>;
    };
    expect(names['1f642']).toEqual(['smile']);
    expect(names['1f604']).toEqual(['big_smile']);
    expect(names['263a']).toEqual(['smiling_face', 'relaxed']);
    expect(names['1f44d']).toEqual(['+1', 'thumbs_up', 'like']);
    expect(names['1f6e0']?.[0]).toBe('working_on_it');
    expect(Object.keys(names).length).toBeGreaterThan(1500);
    expect(Object.keys(names).some((code) => code.startsWith('1f3fb'))).toBe(false);
  });

  it('adds an emoji, lists it, registers it and tells everyone with the whole set', async () => {
    const q = await hamlet.post('/register', { event_types: ['realm_emoji'] });
    expect((await addEmoji(iago, 'green_tick')).body).toMatchObject({ result: 'success' });
    const [tick] = await emojiNamed('green_tick');
    expect(tick).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'green_tick',
      source_url: `/user_avatars/${realmId}/emoji/images/${tick.id}.png`,
      deactivated: false,
      author_id: w.id.iago,
      still_url: null,
    });
    const events = await drain(hamlet, q.body.queue_id);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'realm_emoji',
        op: 'update',
        realm_emoji: expect.objectContaining({ [tick.id]: tick }),
      }),
    ]);
    const state = await othello.post('/register', { fetch_event_types: ['realm_emoji'] });
    expect(state.body.realm_emoji[tick.id]).toEqual(tick);

    // The image is public, as upstream serves it.
    const image = await fetch(new URL(tick.source_url, w.server.url));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    expect(image.headers.get('cache-control')).toBe('public, max-age=86400');
    // Kept by browsers and asked for again by its tag (fetch's own no-cache would skip the tag).
    const again = await fetch(new URL(tick.source_url, w.server.url), {
      headers: { 'If-None-Match': image.headers.get('etag')!, 'Cache-Control': 'max-age=0' },
    });
    expect(again.status).toBe(304);
    expect(
      (await fetch(new URL(tick.source_url, w.server.url), { headers: { Range: 'bytes=1-3' } }))
        .status,
    ).toBe(206);
    expect(
      (await fetch(new URL(`/user_avatars/${realmId}/emoji/images/999999.png`, w.server.url)))
        .status,
    ).toBe(404);
  });

  it('names emoji as upstream: lowercase letters, digits, dashes, underscores; spaces become underscores', async () => {
    expect(
      (await addEmoji(hamlet, 'party parrot', { data: GIF, name: 'parrot.gif', type: 'image/gif' }))
        .status,
    ).toBe(200);
    const [parrot] = await emojiNamed('party_parrot');
    expect(parrot.source_url).toMatch(/\.gif$/);
    const msg = async (name: string) => (await addEmoji(hamlet, name)).body.msg;
    expect(await msg('Bad')).toBe(
      'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    );
    expect(await msg('tick!')).toBe(
      'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    );
    expect(await msg('tick_')).toBe('Emoji names must end with either a letter or digit.');
    expect(await msg(' ')).toBe('Emoji name is missing');
    expect(await msg('green_tick')).toBe('A custom emoji with this name already exists.');
    expect(await msg('smile')).toBe('Only administrators can override built-in emoji.');
    expect((await addEmoji(hamlet, 'no-file', null)).body.msg).toBe(
      'You must upload exactly one file.',
    );
    expect(
      (await addEmoji(hamlet, 'not-an-image', { data: '<svg onload="alert(1)"/>', name: 'x.png' }))
        .body.msg,
    ).toBe('Invalid image format');
    const big = await addEmoji(hamlet, 'too-big', {
      data: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]),
    });
    expect(big.body.msg).toBe('Uploaded file is larger than the allowed limit of 5 MiB');
    expect(await emojiNamed('too-big')).toEqual([]);
  });

  it('follows who may add custom emoji', async () => {
    expect((await addEmoji(polonius, 'guest-emoji')).body.msg).toBe('Not allowed for guest users');
    expect((await iago.patch('/realm', { add_custom_emoji_policy: 2 })).status).toBe(200);
    expect((await addEmoji(hamlet, 'members-emoji')).body.msg).toBe('Insufficient permission');
    expect((await addEmoji(iago, 'admins-emoji')).status).toBe(200);
    expect((await iago.patch('/realm', { add_custom_emoji_policy: 1 })).status).toBe(200);
    expect((await addEmoji(hamlet, 'members-emoji')).status).toBe(200);
  });

  it('renders :name: as the image, and as text once deactivated', async () => {
    await addEmoji(hamlet, 'octo');
    const [octo] = await emojiNamed('octo');
    const sent = await hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'emoji',
      content: 'hello :octo: and :smile:',
    });
    const message = (await othello.get(`/messages/${sent.body.id}`)).body.message;
    expect(message.content).toBe(
      `<p>hello <img alt=":octo:" class="emoji" src="${octo.source_url}" title="octo"> and ` +
        '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>',
    );
    const preview = await hamlet.post('/messages/render', { content: ':green_tick:' });
    expect(preview.body.rendered).toMatch(
      /^<p><img alt=":green_tick:" class="emoji" src="\/user_avatars\/\d+\/emoji\/images\/\d+\.png" title="green tick"><\/p>$/,
    );
    expect((await hamlet.delete('/realm/emoji/octo')).status).toBe(200);
    const later = await hamlet.post('/messages/render', { content: 'hello :octo:' });
    expect(later.body.rendered).toBe('<p>hello :octo:</p>');
  });

  it('deactivates: the author or an administrator, with an event; the name becomes free', async () => {
    await addEmoji(iago, 'iagos');
    const q = await othello.post('/register', { event_types: ['realm_emoji'] });
    expect((await hamlet.delete('/realm/emoji/iagos')).body.msg).toBe(
      'Must be an organization administrator or emoji author',
    );
    const missing = await hamlet.delete('/realm/emoji/no_such_one');
    expect(missing).toMatchObject({
      status: 404,
      body: { result: 'error', code: 'BAD_REQUEST', msg: "Emoji 'no_such_one' does not exist" },
    });
    expect((await iago.delete('/realm/emoji/iagos')).status).toBe(200);
    expect((await iago.delete('/realm/emoji/iagos')).status).toBe(404);
    const [old] = await emojiNamed('iagos');
    expect(old.deactivated).toBe(true);
    const events = await drain(othello, q.body.queue_id);
    expect(events).toEqual([expect.objectContaining({ type: 'realm_emoji', op: 'update' })]);
    expect(events[0].realm_emoji[old.id].deactivated).toBe(true);
    expect((await addEmoji(iago, 'iagos')).status).toBe(200);
    const both = await emojiNamed('iagos');
    expect(both.map((e) => e.deactivated).sort()).toEqual([false, true]);
  });

  it('reacts with custom emoji, checked against the active ones', async () => {
    await addEmoji(iago, 'thumbsy');
    const [thumbsy] = await emojiNamed('thumbsy');
    const id = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'react',
        content: 'react with custom emoji',
      })
    ).body.id;
    const q = await hamlet.post('/register', { event_types: ['reaction'] });
    expect(
      (await othello.post(`/messages/${id}/reactions`, { emoji_name: 'thumbsy' })).status,
    ).toBe(200);
    const byCode = await cordelia.post(`/messages/${id}/reactions`, {
      emoji_name: 'thumbsy',
      emoji_code: thumbsy.id,
      reaction_type: 'realm_emoji',
    });
    expect(byCode.status).toBe(200);
    const reactions = (await hamlet.get(`/messages/${id}`)).body.message.reactions;
    expect(reactions).toHaveLength(2);
    expect(reactions[0]).toMatchObject({
      emoji_name: 'thumbsy',
      emoji_code: thumbsy.id,
      reaction_type: 'realm_emoji',
    });
    const events = await drain(hamlet, q.body.queue_id);
    expect(events[0]).toMatchObject({
      type: 'reaction',
      op: 'add',
      emoji_name: 'thumbsy',
      emoji_code: thumbsy.id,
      reaction_type: 'realm_emoji',
    });

    // A reaction nobody has made yet must name a usable emoji exactly.
    const other = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'react',
        content: 'another',
      })
    ).body.id;
    const bad = async (params: Record<string, string>) =>
      (await hamlet.post(`/messages/${other}/reactions`, params)).body.msg;
    expect(
      await bad({ emoji_name: 'octopus', emoji_code: thumbsy.id, reaction_type: 'realm_emoji' }),
    ).toBe('Invalid custom emoji name.');
    expect(
      await bad({ emoji_name: 'thumbsy', emoji_code: '999999', reaction_type: 'realm_emoji' }),
    ).toBe('Invalid custom emoji.');
    expect(
      await bad({ emoji_name: 'thumbsy', emoji_code: thumbsy.id, reaction_type: 'mystery_emoji' }),
    ).toBe('Invalid emoji type.');
    expect(
      await bad({ emoji_name: 'smile', emoji_code: '1f600', reaction_type: 'unicode_emoji' }),
    ).toBe('Invalid emoji name.');
    // Someone else's reaction with that code is a vote for it, under its name.
    const vote1 = await hamlet.post(`/messages/${id}/reactions`, {
      emoji_name: 'octopus',
      emoji_code: thumbsy.id,
      reaction_type: 'realm_emoji',
    });
    expect(vote1.status).toBe(200);
    expect(
      (await hamlet.get(`/messages/${id}`)).body.message.reactions.map((r: any) => r.emoji_name),
    ).toEqual(['thumbsy', 'thumbsy', 'thumbsy']);
    expect(
      (
        await hamlet.delete(`/messages/${id}/reactions`, {
          emoji_code: thumbsy.id,
          reaction_type: 'realm_emoji',
          emoji_name: 'x',
        })
      ).status,
    ).toBe(200);

    // Deactivated: no new reactions with it, but a vote for one already there still counts.
    await iago.delete('/realm/emoji/thumbsy');
    const fresh = await hamlet.post(`/messages/${other}/reactions`, {
      emoji_name: 'thumbsy',
      emoji_code: thumbsy.id,
      reaction_type: 'realm_emoji',
    });
    expect(fresh.body.msg).toBe('This custom emoji has been deactivated.');
    expect(
      (await hamlet.post(`/messages/${other}/reactions`, { emoji_name: 'thumbsy' })).body.msg,
    ).toBe("Emoji 'thumbsy' does not exist");
    const vote = await hamlet.post(`/messages/${id}/reactions`, {
      emoji_name: 'thumbsy',
      emoji_code: thumbsy.id,
      reaction_type: 'realm_emoji',
    });
    expect(vote.status).toBe(200);
    const removed = await othello.delete(`/messages/${id}/reactions`, {
      emoji_name: 'thumbsy',
      emoji_code: thumbsy.id,
      reaction_type: 'realm_emoji',
    });
    expect(removed.status).toBe(200);
    expect((await hamlet.get(`/messages/${id}`)).body.message.reactions).toHaveLength(2);
  });

  it('keeps emoji and their images across a restart', async () => {
    await addEmoji(hamlet, 'survivor');
    w.server = await w.server.restart();
    const client = new TestClient(w.server.url, hamlet.email, hamlet.apiKey);
    const all = Object.values((await client.get('/realm/emoji')).body.emoji as Record<string, any>);
    const survivor = all.find((e) => e.name === 'survivor')!;
    expect((await fetch(new URL(survivor.source_url, w.server.url))).status).toBe(200);
  });
});
