import { describe, expect, it } from 'vitest';
import { drain } from './client.js';
import type { ServerWorld } from './fixtures.js';
import { expectError } from './people.js';

/**
 * Widgets (polls, to-do lists, bots' forms) and their submessages, as the reference server makes
 * and checks them; run by reactions.test.ts on its server.
 */
export function widgetCases(w: ServerWorld) {
  describe('widgets and submessages', () => {
    const { hamlet, othello, cordelia } = w.as;
    const send = async (content: string, topic = 'widgets', to = 'general') =>
      (await hamlet.post('/messages', { type: 'stream', to, topic, content })).body.id as number;
    const submit = (client = othello, messageId: number, content: unknown) =>
      client.post('/submessage', {
        message_id: messageId,
        msg_type: 'widget',
        content: typeof content === 'string' ? content : JSON.stringify(content),
      });
    const submessagesOf = async (id: number) =>
      (await hamlet.get(`/messages/${id}`)).body.message.submessages as {
        id: number;
        message_id: number;
        sender_id: number;
        msg_type: string;
        content: string;
      }[];

    it('a /poll message carries its poll; votes and options follow, live, in order', async () => {
      const q = await hamlet.post('/register', { event_types: ['message', 'submessage'] });
      const id = await send('/poll Where do we eat?\n- Pizza\n* Sushi\n\n  Tacos  ');
      const [widget] = await submessagesOf(id);
      expect(widget).toMatchObject({ message_id: id, sender_id: w.id.hamlet, msg_type: 'widget' });
      expect(JSON.parse(widget!.content)).toEqual({
        widget_type: 'poll',
        extra_data: { question: 'Where do we eat?', options: ['Pizza', 'Sushi', 'Tacos'] },
      });

      const vote = { type: 'vote', key: 'canned,1', vote: 1 };
      expect((await submit(othello, id, vote)).status).toBe(200);
      const option = { type: 'new_option', idx: 0, option: 'Curry' };
      expect((await submit(cordelia, id, option)).status).toBe(200);
      const question = { type: 'question', question: 'Where do we eat on Friday?' };
      expect((await submit(hamlet, id, question)).status).toBe(200);

      const all = await submessagesOf(id);
      expect(all.map((s) => [s.sender_id, JSON.parse(s.content)])).toEqual([
        [w.id.hamlet, JSON.parse(widget!.content)],
        [w.id.othello, vote],
        [w.id.cordelia, option],
        [w.id.hamlet, question],
      ]);
      expect(all.map((s) => s.id)).toEqual([...all.map((s) => s.id)].sort((a, b) => a - b));

      const events = await drain(hamlet, q.body.queue_id);
      const message = events.find((e) => e.type === 'message' && e.message.id === id);
      expect(message?.message.submessages).toEqual([widget]);
      const live = events.filter((e) => e.type === 'submessage');
      expect(live).toEqual([
        expect.objectContaining({
          msg_type: 'widget',
          message_id: id,
          sender_id: w.id.othello,
          submessage_id: all[1]!.id,
          content: JSON.stringify(vote),
        }),
        expect.objectContaining({ sender_id: w.id.cordelia, content: JSON.stringify(option) }),
        expect.objectContaining({ sender_id: w.id.hamlet, content: JSON.stringify(question) }),
      ]);
    });

    it("refuses what the poll's rules refuse, with the reference's words", async () => {
      const id = await send('/poll Tea or coffee?\nTea\nCoffee');
      const cases: [unknown, string][] = [
        ['{not json', 'Invalid json for submessage'],
        [[1, 2], 'poll data is not a dict'],
        [{ key: 'canned,0' }, 'type key is missing from poll data'],
        [{ type: 'vote', key: 'canned,0', vote: 2 }, 'Invalid poll data["vote"]'],
        [{ type: 'vote', key: 7, vote: 1 }, 'poll data["key"] is not a string'],
        [{ type: 'vote', key: 'canned,0', vote: 1, extra: true }, 'Unexpected arguments: extra'],
        [{ type: 'new_option', idx: 1001, option: 'Milk' }, 'poll data["idx"] is too large'],
        [{ type: 'new_option', idx: -1, option: 'Milk' }, 'poll data["idx"] is too small'],
        [
          { type: 'question', question: 'Mine now?' },
          "You can't edit a question unless you are the author.",
        ],
        [{ type: 'close' }, 'Unknown type for poll data: close'],
      ];
      for (const [content, msg] of cases)
        expectError(await submit(othello, id, content), 'BAD_REQUEST', msg);
      expect(await submessagesOf(id)).toHaveLength(1);
    });

    it('a /todo list gets tasks and ticks from anyone; only its author renames it', async () => {
      const id = await send('/todo Launch\nWrite notes: by Friday\n- Book the room\n');
      const [widget] = await submessagesOf(id);
      expect(JSON.parse(widget!.content)).toEqual({
        widget_type: 'todo',
        extra_data: {
          task_list_title: 'Launch',
          tasks: [
            { task: 'Write notes', desc: 'by Friday' },
            { task: 'Book the room', desc: '' },
          ],
        },
      });
      const task = { type: 'new_task', key: 0, task: 'Order cake', desc: '', completed: false };
      expect((await submit(othello, id, task)).status).toBe(200);
      expect((await submit(cordelia, id, { type: 'strike', key: '0,canned' })).status).toBe(200);
      expectError(
        await submit(othello, id, { type: 'new_task_list_title', title: 'Mine' }),
        'BAD_REQUEST',
        "You can't edit the task list title unless you are the author.",
      );
      expectError(
        await submit(othello, id, { type: 'new_task', key: 0, task: 'No flag', desc: '' }),
        'BAD_REQUEST',
        'completed key is missing from todo data',
      );
      expect(
        (await submit(hamlet, id, { type: 'new_task_list_title', title: 'Launch day' })).status,
      ).toBe(200);
      expect(await submessagesOf(id)).toHaveLength(4);
    });

    it('the sender attaches the first submessage; without a widget anything goes after it', async () => {
      const id = await send('just text');
      expectError(
        await submit(othello, id, { type: 'vote', key: 'x', vote: 1 }),
        'BAD_REQUEST',
        'You cannot attach a submessage to this message.',
      );
      expect((await submit(hamlet, id, { anything: ['at', 'all'] })).status).toBe(200);
      expect((await submit(othello, id, { free: 'form' })).status).toBe(200);
      expect(await submessagesOf(id)).toHaveLength(2);
      // A message the caller cannot read does not exist for them.
      expectError(
        await submit(othello, 10_000_000, { type: 'vote' }),
        'BAD_REQUEST',
        'Invalid message(s)',
      );
    });

    it('a message nobody else can read takes no submessage from them; deleting it removes its submessages', async () => {
      const dm = (
        await hamlet.post('/messages', {
          type: 'direct',
          to: JSON.stringify([w.id.othello]),
          content: '/poll Just us?\nYes\nNo',
        })
      ).body.id as number;
      expect((await submit(othello, dm, { type: 'vote', key: 'canned,0', vote: 1 })).status).toBe(
        200,
      );
      expectError(
        await submit(cordelia, dm, { type: 'vote', key: 'canned,0', vote: 1 }),
        'BAD_REQUEST',
        'Invalid message(s)',
      );
      const count = async () =>
        (
          await w.server.ctx.db
            .selectFrom('submessages')
            .select('id')
            .where('message_id', '=', dm)
            .execute()
        ).length;
      expect(await count()).toBe(2);
      expect((await hamlet.delete(`/messages/${dm}`)).status).toBe(200);
      expect(await count()).toBe(0);
    });

    it('someone who joined the channel after the poll sees the votes live', async () => {
      const name = `polls ${Date.now()}`;
      await hamlet.post('/users/me/subscriptions', {
        subscriptions: JSON.stringify([{ name }]),
        principals: JSON.stringify([w.id.hamlet, w.id.othello]),
      });
      const id = await send('/poll Late?\nYes', 'late', name);
      await cordelia.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name }]) });
      const q = await cordelia.post('/register', { event_types: ['submessage'] });
      await submit(othello, id, { type: 'vote', key: 'canned,0', vote: 1 });
      const events = await drain(cordelia, q.body.queue_id);
      expect(events.filter((e) => e.type === 'submessage').map((e) => e.message_id)).toEqual([id]);
    });

    it('/me messages are status messages, rendered as a paragraph that starts with /me', async () => {
      const me = await hamlet.get(`/messages/${await send('/me is away')}`);
      expect(me.body.message).toMatchObject({
        is_me_message: true,
        content: '<p>/me is away</p>',
      });
      for (const content of ['/me', '/meet at noon', 'and /me too'])
        expect(
          (await hamlet.get(`/messages/${await send(content)}`)).body.message.is_me_message,
        ).toBe(false);
    });

    it("a bot's form comes with widget_content; a malformed one is refused", async () => {
      const made = await hamlet.post('/bots', { full_name: 'Form Bot', short_name: 'formbot' });
      const { TestClient } = await import('./client.js');
      const bot = new TestClient(w.server.url, 'formbot-bot@parley.bots', made.body.api_key);
      const form = {
        widget_type: 'zform',
        extra_data: {
          type: 'choices',
          heading: 'What now?',
          choices: [{ short_name: 'A', long_name: 'Open a ticket', reply: 'new ticket' }],
        },
      };
      const sent = await bot.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'forms',
        content: 'Choose one',
        widget_content: JSON.stringify(form),
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      const [widget] = await submessagesOf(sent.body.id);
      expect(JSON.parse(widget!.content)).toEqual(form);
      const refuse = async (content: string, msg: string) =>
        expectError(
          await bot.post('/messages', {
            type: 'stream',
            to: 'general',
            topic: 'forms',
            content: 'Choose',
            widget_content: content,
          }),
          'BAD_REQUEST',
          msg,
        );
      await refuse('{oops', 'Widgets: API programmer sent invalid JSON content');
      await refuse('[]', 'Widgets: widget_content is not a dict');
      await refuse('{"widget_type": "zform"}', 'Widgets: extra_data is not in widget_content');
      await refuse(
        JSON.stringify({ widget_type: 'zform', extra_data: { type: 'sliders' } }),
        'Widgets: unknown zform type: sliders',
      );
      await refuse(
        JSON.stringify({ widget_type: 'poll', extra_data: {} }),
        'Widgets: unknown widget type: poll',
      );
      await refuse(
        JSON.stringify({ ...form, extra_data: { ...form.extra_data, choices: [{}] } }),
        'Widgets: short_name key is missing from extra_data["choices"][0]',
      );
    });
  });
}
