import { describe, expect, it } from 'vitest';
import { drain } from './client.js';
import { databases, useServer } from './fixtures.js';

describe.each(databases('both'))('reactions and read receipts on %s', (db) => {
  const w = useServer({ db, people: ['hamlet', 'othello', 'cordelia'] });
  const { hamlet, othello, cordelia } = w.as;

  it('adds and removes a reaction with reaction events, shown on the message', async () => {
    const id = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'react',
        content: 'react to me',
      })
    ).body.id;
    const q = await hamlet.post('/register', { event_types: ['reaction'] });
    expect((await othello.post(`/messages/${id}/reactions`, { emoji_name: 'smile' })).status).toBe(
      200,
    );
    const dup = await othello.post(`/messages/${id}/reactions`, { emoji_name: 'smile' });
    expect(dup.body.msg).toBe('Reaction already exists.');
    const msg = (await hamlet.get(`/messages/${id}`)).body.message;
    expect(msg.reactions).toEqual([
      expect.objectContaining({
        emoji_name: 'smile',
        emoji_code: '1f604',
        reaction_type: 'unicode_emoji',
        user_id: expect.any(Number),
      }),
    ]);
    expect(
      (await othello.delete(`/messages/${id}/reactions`, { emoji_name: 'smile' })).status,
    ).toBe(200);
    expect(
      (await othello.delete(`/messages/${id}/reactions`, { emoji_name: 'smile' })).status,
    ).toBe(400);
    const events = await drain(hamlet, q.body.queue_id);
    expect(events.map((e) => e.op)).toEqual(['add', 'remove']);
    expect(events[0]).toMatchObject({ type: 'reaction', message_id: id, emoji_code: '1f604' });
  });

  it('refuses unknown emoji and messages the user cannot see', async () => {
    const id = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'react',
        content: 'x',
      })
    ).body.id;
    expect(
      (await othello.post(`/messages/${id}/reactions`, { emoji_name: 'no_such_emoji_here' }))
        .status,
    ).toBe(400);
    const secret = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: 'design',
        topic: 'private',
        content: 'x',
      })
    ).body.id;
    expect(
      (await othello.post(`/messages/${secret}/reactions`, { emoji_name: 'smile' })).body.msg,
    ).toBe('Invalid message(s)');
  });

  it("takes Zulip's own emoji names with their code, but never a known name with another code", async () => {
    const id = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'react',
        content: 'hmm',
      })
    ).body.id;
    // `thinking` is Zulip's name for U+1F914; the emoji data set this server uses calls it thinking_face.
    const zulipName = await othello.post(`/messages/${id}/reactions`, {
      emoji_name: 'thinking',
      emoji_code: '1f914',
      reaction_type: 'unicode_emoji',
    });
    expect(zulipName.status).toBe(200);
    const vote = await cordelia.post(`/messages/${id}/reactions`, {
      emoji_name: 'thinking_face',
      emoji_code: '1f914',
      reaction_type: 'unicode_emoji',
    });
    expect(vote.status).toBe(200);
    const names = (await hamlet.get(`/messages/${id}`)).body.message.reactions.map(
      (r: { emoji_name: string }) => r.emoji_name,
    );
    expect(names).toEqual(['thinking', 'thinking']); // a vote takes the first reaction's name
    expect(
      (
        await hamlet.post(`/messages/${id}/reactions`, {
          emoji_name: 'smile',
          emoji_code: '1f600',
          reaction_type: 'unicode_emoji',
        })
      ).body.msg,
    ).toBe('Invalid emoji name.');
    expect(
      (
        await hamlet.post(`/messages/${id}/reactions`, {
          emoji_name: 'Not A Name',
          emoji_code: '1f600',
          reaction_type: 'unicode_emoji',
        })
      ).body.msg,
    ).toBe('Invalid emoji name.');
    expect(
      (
        await hamlet.post(`/messages/${id}/reactions`, {
          emoji_name: 'made_up',
          emoji_code: 'zzzz',
          reaction_type: 'unicode_emoji',
        })
      ).body.msg,
    ).toBe('Invalid emoji code.');
    expect(
      (
        await othello.delete(`/messages/${id}/reactions`, {
          emoji_code: '1f914',
          reaction_type: 'unicode_emoji',
        })
      ).status,
    ).toBe(200);
  });

  it('lists who has read a message, governed by the realm setting', async () => {
    const id = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'receipts',
        content: 'read me',
      })
    ).body.id;
    await othello.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    const r = await cordelia.get(`/messages/${id}/read_receipts`);
    expect(r.body.user_ids).toEqual([w.id.othello]);
    const realm = await w.server.ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
    await w.server.ctx.db
      .updateTable('realms')
      .set({
        settings: JSON.stringify({ ...JSON.parse(realm.settings), enable_read_receipts: false }),
      })
      .execute();
    expect((await cordelia.get(`/messages/${id}/read_receipts`)).status).toBe(400);
  });
});
