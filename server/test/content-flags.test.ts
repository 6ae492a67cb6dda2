import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_INDEXES } from '../db/flag-conditions.js';
import { migrations } from '../db/migrations.js';
import { CONTENT_FLAGS, contentFlagsOf } from '../domain/message-content.js';
import { databases, useServer } from './fixtures.js';

/**
 * What a message's HTML holds is kept with the message (messages.content_flags) for `has:link`,
 * `has:image` and `has:attachment`: set when it is sent, changed when its content is edited, and
 * back-filled for the messages of a database made before the column (migration 0017).
 */
describe.each(databases('both'))('messages.content_flags on %s', (db) => {
  const w = useServer({ db, people: ['hamlet'] });
  const { hamlet } = w.as;
  let image = '';
  let file = '';

  beforeAll(async () => {
    const upload = async (name: string, type: string) => {
      const r = await hamlet.post('/user_uploads', {
        file: new File(['\x89PNG\r\n\x1a\n'], name, { type }),
      });
      expect(r.status).toBe(200);
      return r.body.url as string;
    };
    image = await upload('scene.png', 'image/png');
    file = await upload('notes.txt', 'text/plain');
  });

  const send = async (content: string): Promise<number> => {
    const r = await hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'holdings',
      content,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id;
  };
  const stored = async (id: number) =>
    (
      await w.server.ctx.db
        .selectFrom('messages')
        .select(['content_flags', 'rendered_content'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).content_flags;
  const has = async (operand: string): Promise<number[]> => {
    const r = await hamlet.get('/messages', {
      anchor: 'newest',
      num_before: 1000,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: 'holdings' },
        { operator: 'has', operand },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.messages.map((m: { id: number }) => m.id);
  };
  const {
    link,
    image: img,
    attachment,
  } = {
    link: CONTENT_FLAGS.link.bit,
    image: CONTENT_FLAGS.image.bit,
    attachment: CONTENT_FLAGS.attachment.bit,
  };

  it('is set from the rendered message when it is sent', async () => {
    const plain = await send('nothing to see <a here');
    const linked = await send('see https://example.com/page');
    const pictured = await send(`look: [scene.png](${image})`);
    const attached = await send(`[notes](${file})`);
    expect(await stored(plain)).toBe(0);
    expect(await stored(linked)).toBe(link);
    expect(await stored(pictured)).toBe(link | img | attachment);
    expect(await stored(attached)).toBe(link | attachment);
    expect(await has('link')).toEqual([linked, pictured, attached]);
    expect(await has('image')).toEqual([pictured]);
    expect(await has('attachment')).toEqual([pictured, attached]);
  });

  it('follows edits of the content, both ways', async () => {
    const id = await send('a plain message');
    expect(await has('link')).not.toContain(id);
    let r = await hamlet.patch(`/messages/${id}`, { content: 'now https://example.com/later' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await stored(id)).toBe(link);
    expect(await has('link')).toContain(id);
    r = await hamlet.patch(`/messages/${id}`, { content: 'plain again' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await stored(id)).toBe(0);
    expect(await has('link')).not.toContain(id);
  });

  it('is back-filled from the rendered HTML for messages from before the column', async () => {
    await send(`again [scene.png](${image}) and [notes](${file})`);
    const before = await w.server.ctx.db
      .selectFrom('messages')
      .select(['id', 'content_flags', 'rendered_content'])
      .orderBy('id')
      .execute();
    expect(before.some((m) => m.content_flags !== 0)).toBe(true);
    // As a database from before 0017: no column, no indexes; the migration makes them anew.
    for (const { names } of Object.values(CONTENT_INDEXES))
      for (const name of names) await sql`DROP INDEX ${sql.id(name)}`.execute(w.server.ctx.db);
    await sql`ALTER TABLE messages DROP COLUMN content_flags`.execute(w.server.ctx.db);
    await migrations(db)['0017_message_content_flags']!.up(w.server.ctx.db);
    const after = await w.server.ctx.db
      .selectFrom('messages')
      .select(['id', 'content_flags'])
      .orderBy('id')
      .execute();
    expect(after).toEqual(
      before.map((m) => ({ id: m.id, content_flags: contentFlagsOf(m.rendered_content) })),
    );
    expect(after.map((m) => m.content_flags)).toEqual(before.map((m) => m.content_flags));
    expect(await has('image')).toHaveLength(2);
  });
});
