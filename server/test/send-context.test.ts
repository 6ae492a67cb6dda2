import { beforeAll, describe, expect, it, vi } from 'vitest';
import { markdownContext } from '../actions/markdown-context.js';
import { sendMessage } from '../actions/send-message.js';
import type { Realm, User } from '../db/schema.js';
import { markdownReferences, renderMarkdown } from '../markdown/index.js';
import { databases, useServer } from './fixtures.js';

/**
 * The send path at an organization's size: the Markdown context of a message holds only what its
 * text can name, and concurrent sends share commits.
 */

describe('markdownReferences', () => {
  it('finds every name a mention, a channel link or a shortcode can look up', () => {
    const refs = markdownReferences(
      'hi @**King Hamlet**, @_**Émile Zola|42** and @*support*; see #**design>ideas** :octopus:',
    );
    expect(refs.userNames.sort()).toEqual(['king hamlet', 'émile zola|42']);
    expect(refs.userIds).toEqual([42]);
    expect(refs.groups).toBe(true);
    expect(refs.streamNames.sort()).toEqual(['design', 'design>ideas']);
    expect(refs.emoji).toBe(true);
  });

  it('names nothing for plain text, so that nothing is read for it', () => {
    expect(markdownReferences('a plain message, with an e-mail a@b.c and #hashtag 10:30')).toEqual({
      userNames: [],
      userIds: [],
      groups: false,
      streamNames: [],
      emoji: false,
    });
  });

  it('tries each @ where it stands, as the renderer does', () => {
    // The first @ is not at a word start; the renderer then matches the second one.
    expect(markdownReferences('x@**a @**b**').userNames.sort()).toEqual(['a @', 'b']);
  });
});

describe.each(databases('both'))('the Markdown context of a send (%s)', (db) => {
  const w = useServer({ db });
  let realm: Realm;
  let sender: User;
  beforeAll(async () => {
    realm = await w.server.ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
    sender = await w.server.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('delivery_email', '=', 'hamlet@example.com')
      .executeTakeFirstOrThrow();
    // Names SQL lower-cases differently from JavaScript, or not at all.
    await w.server.ctx.db
      .updateTable('users')
      .set({ full_name: 'ÉMILE Zola' })
      .where('delivery_email', '=', 'othello@example.com')
      .execute();
    await w.server.ctx.db
      .updateTable('users')
      .set({ full_name: 'KELVIN \u212A' })
      .where('delivery_email', '=', 'cordelia@example.com')
      .execute();
  });

  const contents = [
    'plain text',
    'hello @**king hamlet** and @_**iago**',
    'hello @**émile zola** and @**kelvin k**',
    'by id @**Someone Else|1** @**nobody at all**',
    'see #**GENERAL** and #**engineering>a > b** and #**design**',
    'group @*nonexistent* :smile: :nonexistent:',
    '> quoted @**Desdemona**\n```quote\n@**Iago** #**general**\n```',
  ];

  it('renders every text as the whole organization would', async () => {
    const everything = await markdownContext(w.server.ctx.db, realm, sender);
    for (const content of contents) {
      const narrow = await markdownContext(w.server.ctx.db, realm, sender, content);
      expect(renderMarkdown(content, narrow), content).toEqual(renderMarkdown(content, everything));
    }
  });

  it('reads no one for a text that mentions no one', async () => {
    const context = await markdownContext(w.server.ctx.db, realm, sender, 'nothing to see here');
    expect(context.users).toEqual([]);
    expect(context.streams).toEqual([]);
  });

  it('still finds mentioned people whose names only JavaScript lower-cases', async () => {
    const md = renderMarkdown(
      '@**émile zola** @**kelvin k**',
      await markdownContext(w.server.ctx.db, realm, sender, '@**émile zola** @**kelvin k**'),
    );
    expect(md.mentionedUserIds).toHaveLength(2);
  });

  it('commits sends that arrive together in one transaction', async () => {
    const publish = vi.spyOn(w.server.ctx.queues.bus, 'publish');
    const sent = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        sendMessage(w.server.ctx, realm, sender, {
          recipient: { type: 'stream', streamName: 'general', topic: 'together' },
          content: `together ${i}`,
          client: 'test',
        }),
      ),
    );
    // One commit, one publication of the six messages' events.
    expect(publish).toHaveBeenCalledTimes(1);
    expect(new Set(sent.map((r) => r.id)).size).toBe(6);
    const stored = await w.server.ctx.db
      .selectFrom('messages')
      .select('content')
      .where('topic', '=', 'together')
      .execute();
    expect(stored.map((m) => m.content).sort()).toEqual(
      Array.from({ length: 6 }, (_, i) => `together ${i}`),
    );
    publish.mockRestore();
  });
});
