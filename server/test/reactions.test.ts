import { describe, expect, it } from 'vitest';
import { drain } from './client.js';
import { databases, useServer } from './fixtures.js';
import { widgetCases } from './widgets.cases.js';

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
        emoji_code: '1f642',
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
    expect(events[0]).toMatchObject({ type: 'reaction', message_id: id, emoji_code: '1f642' });
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

  it("finds the code of the reference's names and aliases from the name alone", async () => {
    const id = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'react',
        content: 'names',
      })
    ).body.id;
    const react = (user: typeof hamlet, emoji_name: string) =>
      user.post(`/messages/${id}/reactions`, { emoji_name });
    expect((await react(othello, 'big_smile')).status).toBe(200);
    expect((await react(othello, 'like')).status).toBe(200);
    expect((await react(othello, 'relaxed')).status).toBe(200);
    // iamcal's short names that the reference lacks name no emoji.
    expect((await react(othello, 'slightly_smiling_face')).body.msg).toBe(
      "Emoji 'slightly_smiling_face' does not exist",
    );
    expect((await react(othello, 'thumbsup')).body.msg).toBe("Emoji 'thumbsup' does not exist");
    const reactions = (await hamlet.get(`/messages/${id}`)).body.message.reactions.map(
      (r: { emoji_name: string; emoji_code: string }) => [r.emoji_name, r.emoji_code],
    );
    expect(reactions.sort()).toEqual([
      ['big_smile', '1f604'],
      ['like', '1f44d'],
      ['relaxed', '263a'],
    ]);
  });

  it("takes a known name only with its own code, an older client's name under the code's name, and a vote under any name", async () => {
    const id = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'react',
        content: 'hmm',
      })
    ).body.id;
    const first = await othello.post(`/messages/${id}/reactions`, {
      emoji_name: 'thinking',
      emoji_code: '1f914',
      reaction_type: 'unicode_emoji',
    });
    expect(first.status).toBe(200);
    // A vote takes the first reaction's name, whatever name it came with.
    const vote = await cordelia.post(`/messages/${id}/reactions`, {
      emoji_name: 'thinking_face',
      emoji_code: '1f914',
      reaction_type: 'unicode_emoji',
    });
    expect(vote.status).toBe(200);
    const names = (await hamlet.get(`/messages/${id}`)).body.message.reactions.map(
      (r: { emoji_name: string }) => r.emoji_name,
    );
    expect(names).toEqual(['thinking', 'thinking']);
    const reactWith = async (emoji_name: string, emoji_code: string) =>
      (
        await hamlet.post(`/messages/${id}/reactions`, {
          emoji_name,
          emoji_code,
          reaction_type: 'unicode_emoji',
        })
      ).body.msg;
    // A name of the reference's with another code is refused.
    expect(await reactWith('smile', '1f604')).toBe('Invalid emoji name.');
    expect(await reactWith('smile', '1f600')).toBe('Invalid emoji name.');
    expect(await reactWith('Not A Name', '1f600')).toBe('Invalid emoji name.');
    // An older client's name (iamcal's) with a valid code: kept under the reference's name.
    expect(await reactWith('slightly_smiling_face', '1f642')).toBe('');
    const kept = (await hamlet.get(`/messages/${id}`)).body.message.reactions.find(
      (r: { emoji_code: string }) => r.emoji_code === '1f642',
    );
    expect(kept).toMatchObject({ emoji_name: 'smile', user_id: w.id.hamlet });
    expect(await reactWith('made_up', 'zzzz')).toBe('Invalid emoji code.');
    expect(await reactWith('heart', '2764-fe0f')).toBe('Invalid emoji code.');
    expect(await reactWith('big_smile', '1f604')).toBe('');
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

  widgetCases(w);
});
