import { beforeAll, describe, expect, it } from 'vitest';
import { unreadMessages } from '../register/unread-messages.js';
import { databases, useServer } from './fixtures.js';

/**
 * The unread summary comes grouped by conversation from the database; the cap on the newest
 * unread messages must still cut at one message, wherever it falls, and a conversation's topic
 * and mentions must follow what is left of it.
 */
describe.each(databases('both'))('the unread summary under its cap (%s)', (db) => {
  const w = useServer({ db, people: ['othello', 'cordelia'] });
  const { othello, cordelia } = w.as;
  let cordeliaId: number;
  let cordeliaName: string;

  const cordeliaRow = () =>
    w.server.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', cordeliaId)
      .executeTakeFirstOrThrow();
  const send = async (topic: string, content: string) => {
    const r = await othello.post('/messages', { type: 'stream', to: 'general', topic, content });
    expect(r.status).toBe(200);
    return r.body.id as number;
  };
  const dm = async (content: string) => {
    const r = await othello.post('/messages', { type: 'direct', to: [cordeliaId], content });
    expect(r.status).toBe(200);
    return r.body.id as number;
  };

  beforeAll(async () => {
    const me = (await cordelia.get('/users/me')).body;
    cordeliaId = me.user_id;
    cordeliaName = me.full_name;
    expect((await cordelia.post('/mark_all_as_read')).status).toBe(200);
  });

  it('leaves the oldest message out of its conversation, its mentions and its topic', async () => {
    const first = await send('cap check', `@**${cordeliaName}** first`);
    const second = await send('Cap Check', '@**all** second');
    const third = await send('Cap Check', 'third');
    const direct = await dm('a direct one');
    const user = await cordeliaRow();

    const whole = await unreadMessages(w.server.ctx, user, 4);
    expect(whole.old_unreads_missing).toBe(false);
    expect(whole.streams).toEqual([
      {
        stream_id: expect.any(Number),
        topic: 'cap check',
        unread_message_ids: [first, second, third],
      },
    ]);
    expect(whole.pms).toEqual([
      { other_user_id: w.id.othello, sender_id: w.id.othello, unread_message_ids: [direct] },
    ]);
    expect(whole.mentions).toEqual([first, second]);
    expect(whole.count).toBe(4);

    const capped = await unreadMessages(w.server.ctx, user, 3);
    expect(capped.old_unreads_missing).toBe(true);
    // The conversation's topic is now that of its oldest message still listed.
    expect(capped.streams).toEqual([
      { stream_id: expect.any(Number), topic: 'Cap Check', unread_message_ids: [second, third] },
    ]);
    expect(capped.mentions).toEqual([second]);
    expect(capped.count).toBe(3);

    // Cut down to the direct message alone, the channel's conversation is gone altogether.
    const newest = await unreadMessages(w.server.ctx, user, 1);
    expect(newest.streams).toEqual([]);
    expect(newest.pms.map((p) => p.unread_message_ids)).toEqual([[direct]]);
    expect(newest.mentions).toEqual([]);
    expect(newest.count).toBe(1);
  });

  it('lists conversations in the order of their oldest unread message', async () => {
    expect((await cordelia.post('/mark_all_as_read')).status).toBe(200);
    const a1 = await send('order b', 'one');
    const d1 = await dm('two');
    const b1 = await send('order a', 'three');
    const a2 = await send('order b', 'four');
    const unread = await unreadMessages(w.server.ctx, await cordeliaRow());
    expect(unread.streams.map((s) => [s.topic, s.unread_message_ids])).toEqual([
      ['order b', [a1, a2]],
      ['order a', [b1]],
    ]);
    expect(unread.pms.map((p) => p.unread_message_ids)).toEqual([[d1]]);
  });
});
