import { describe, expect, it } from 'vitest';
import { databases, useServer } from './fixtures.js';

/**
 * A group mention counts as a mention of everyone in the group, through its subgroups too: their
 * copies carry the `mentioned` flag (so the message is in their Mentions view), when the message
 * is sent and again when an edit adds or removes the mention. A silent group mention does not.
 */
describe.each(databases('both'))('group mentions on %s', (db) => {
  const t = useServer({ db });

  const flagsOf = async (who: 'othello' | 'cordelia' | 'iago', messageId: number) => {
    const r = await t.as[who].get('/messages', {
      anchor: messageId,
      num_before: 0,
      num_after: 0,
    });
    return (r.body.messages as { id: number; flags: string[] }[]).find((m) => m.id === messageId)
      ?.flags;
  };

  it('mentions inside a quote are silent: quoting a message notifies nobody it mentioned', async () => {
    const { as: c } = t;
    const sent = await c.hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'quoting',
      content:
        'As you said:\n> @**Othello, the Moor of Venice** and @**all**, look\n\n@**Iago** agrees',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(await flagsOf('othello', sent.body.id)).not.toContain('mentioned');
    expect(await flagsOf('cordelia', sent.body.id)).not.toContain('stream_wildcard_mentioned');
    expect(await flagsOf('iago', sent.body.id)).toContain('mentioned');
  });

  it('flags the members of the group and of its subgroups as mentioned', async () => {
    const { as: c, id } = t;
    const inner = await c.hamlet.post('/user_groups/create', {
      name: 'understudies',
      description: '',
      members: [id.cordelia],
    });
    const outer = await c.hamlet.post('/user_groups/create', {
      name: 'players',
      description: '',
      members: [id.othello, id.hamlet],
    });
    expect(outer.status, JSON.stringify(outer.body)).toBe(200);
    const linked = await c.hamlet.post(`/user_groups/${outer.body.group_id}/subgroups`, {
      add: [inner.body.group_id],
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);

    const sent = await c.hamlet.post('/messages', {
      type: 'stream',
      to: t.stream['general'],
      topic: 'group mentions',
      content: 'Places, @*players*!',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const messageId = sent.body.id as number;
    expect(await flagsOf('othello', messageId)).toContain('mentioned');
    expect(await flagsOf('cordelia', messageId)).toContain('mentioned');
    expect(await flagsOf('iago', messageId)).not.toContain('mentioned');
    const mentions = await c.cordelia.get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'mentioned' }],
    });
    expect((mentions.body.messages as { id: number }[]).map((m) => m.id)).toContain(messageId);

    // An edit that makes the mention silent takes the flag away again.
    const edited = await c.hamlet.patch(`/messages/${messageId}`, {
      content: 'Places, @_*players*!',
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await flagsOf('othello', messageId)).not.toContain('mentioned');
    expect(await flagsOf('cordelia', messageId)).not.toContain('mentioned');
  });
});
