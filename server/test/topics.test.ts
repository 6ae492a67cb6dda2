import { describe, expect, it } from 'vitest';
import { databases, useServer } from './fixtures.js';

describe.each(databases('both'))('topics, previews and narrow matching on %s', (db) => {
  const w = useServer({ db, people: ['hamlet', 'othello'] });
  const { hamlet, othello } = w.as;

  it("lists a stream's topics newest first, with the latest spelling", async () => {
    await hamlet.post('/messages', {
      type: 'stream',
      to: w.stream.engineering,
      topic: 'Zeta',
      content: 'one',
    });
    const last = (
      await othello.post('/messages', {
        type: 'stream',
        to: w.stream.engineering,
        topic: 'zeta',
        content: 'two',
      })
    ).body.id;
    const r = await hamlet.get(`/users/me/${w.stream.engineering}/topics`);
    expect(r.body.topics[0]).toEqual({ name: 'zeta', max_id: last });
    expect(r.body.topics.filter((t: any) => t.name.toLowerCase() === 'zeta')).toHaveLength(1);
    const ids = r.body.topics.map((t: any) => t.max_id);
    expect([...ids].sort((a: number, b: number) => b - a)).toEqual(ids);
  });

  it('hides private stream topics from outsiders', async () => {
    const design = (await hamlet.get('/get_stream_id', { stream: 'design' })).body.stream_id;
    expect((await hamlet.get(`/users/me/${design}/topics`)).body.topics.length).toBeGreaterThan(0);
    expect((await othello.get(`/users/me/${design}/topics`)).body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Invalid channel ID',
    });
  });

  it('renders a preview and matches messages against a narrow', async () => {
    const preview = await hamlet.post('/messages/render', { content: '**bold** <b>no</b>' });
    expect(preview.body.rendered).toContain('<strong>bold</strong>');
    expect(preview.body.rendered).not.toContain('<b>');
    const a = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: w.stream.engineering,
        topic: 'match',
        content: 'alpha',
      })
    ).body.id;
    const b = (
      await hamlet.post('/messages', {
        type: 'stream',
        to: w.stream.engineering,
        topic: 'other',
        content: 'beta',
      })
    ).body.id;
    const m = await hamlet.get('/messages/matches_narrow', {
      msg_ids: [a, b],
      narrow: [{ operator: 'topic', operand: 'match' }],
    });
    expect(Object.keys(m.body.messages)).toEqual([String(a)]);
  });
});
