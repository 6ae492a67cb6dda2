import { beforeAll, describe, expect, it } from 'vitest';
import { sendDueMissedMessages } from '../actions/missed-messages.js';
import { databases, useServer } from './fixtures.js';
import { queuedMails, type QueuedMail } from './mailbox.js';

/**
 * Missed-message mail: a direct message, a mention or a message in a channel someone gets mail
 * for, still unread after the batching period (one second here, PARLEY_MISSED_MESSAGE_DELAY), is
 * mailed once per conversation and batch; nothing for what was read in time, muted or switched off.
 */

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(databases('both'))('missed-message mail on %s', (db) => {
  const w = useServer({
    db,
    people: ['iago', 'hamlet', 'othello', 'cordelia'],
    config: () => ({ mailPollMs: 100, missedMessageDelaySeconds: 1 }),
  });
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    for (const name of ['hamlet', 'othello', 'cordelia', 'iago'] as const)
      ids[name] = Number((await w.as[name].get('/users/me')).body.user_id);
  });

  const missed = async (to: string, mark: string) =>
    (await queuedMails(w.server)).filter(
      (m) => m.kind === 'missed_messages' && m.to === to && m.text.includes(mark),
    );
  /** The one mail to `to` whose text holds `mark`, once the worker has queued it. */
  async function mailWith(to: string, mark: string): Promise<QueuedMail> {
    const end = Date.now() + 15_000;
    for (;;) {
      const found = await missed(to, mark);
      if (found.length) return found[0]!;
      if (Date.now() > end) throw new Error(`no missed-message mail to ${to} with ${mark}`);
      await pause(100);
    }
  }
  /** After the batch is surely due and handled: what was queued with `mark`. */
  async function settled(to: string, mark: string) {
    await pause(1_300);
    await sendDueMissedMessages(w.server.ctx);
    return missed(to, mark);
  }

  const dm = (from: 'hamlet' | 'cordelia', to: number[], content: string) =>
    w.as[from].post('/messages', { type: 'direct', to: JSON.stringify(to), content });

  it('mails an unread direct message once, with the messages and a link to the conversation', async () => {
    const first = await dm('hamlet', [ids.othello!], 'Where shall we meet? (dm-1)');
    await dm('hamlet', [ids.othello!], 'By the **castle** gate. (dm-1)');
    expect(first.status).toBe(200);
    const mail = await mailWith('othello@example.com', 'dm-1');
    expect(mail.subject).toBe('Direct messages from King Hamlet');
    expect(mail.text).toContain('Where shall we meet? (dm-1)');
    expect(mail.text).toContain('By the **castle** gate.');
    expect(mail.html).toContain('<strong>castle</strong>');
    expect(mail.link).toBe(`${w.server.url}/#narrow/dm/${ids.hamlet}-dm/near/${first.body.id}`);
    expect(mail.text).toContain(`${w.server.url}/#settings/notifications`);
    // Without a mail server it waits, and administrators are told that none is configured.
    const listed = (await w.as.iago.get('/parley/mail')).body;
    expect(listed.delivery_configured).toBe(false);
    expect(listed.mails.find((m: { id: number }) => m.id === mail.id)?.status).toBe('queued');
    // Both messages in one mail, and no second mail for the same batch.
    expect(await settled('othello@example.com', 'dm-1')).toHaveLength(1);
  });

  it('sends nothing for a message read in time, or with offline mail switched off', async () => {
    const sent = await dm('hamlet', [ids.cordelia!], 'Read this soon (dm-read)');
    const read = await w.as.cordelia.post('/messages/flags', {
      messages: JSON.stringify([sent.body.id]),
      op: 'add',
      flag: 'read',
    });
    expect(read.status).toBe(200);
    expect(await settled('cordelia@example.com', 'dm-read')).toEqual([]);

    await w.as.othello.patch('/settings', { enable_offline_email_notifications: false });
    try {
      await dm('hamlet', [ids.othello!], 'Nobody mails this (dm-off)');
      expect(await settled('othello@example.com', 'dm-off')).toEqual([]);
    } finally {
      await w.as.othello.patch('/settings', { enable_offline_email_notifications: true });
    }
  });

  it('mails a mention and a channel with email notifications on, not a muted topic', async () => {
    const general = Number(
      (await w.as.othello.get('/get_stream_id', { stream: 'general' })).body.stream_id,
    );
    await w.as.hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'the plan',
      content: '@**Othello, the Moor of Venice** look here (mention-1)',
    });
    const mention = await mailWith('othello@example.com', 'mention-1');
    expect(mention.subject).toBe('#general > the plan');
    expect(mention.link).toMatch(
      new RegExp(`/#narrow/channel/${general}-general/topic/the\\.20plan/near/\\d+$`),
    );

    // A muted topic: not even a mention is mailed.
    await w.as.othello.post('/user_topics', {
      stream_id: String(general),
      topic: 'quiet corner',
      visibility_policy: '1',
    });
    await w.as.hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'quiet corner',
      content: '@**Othello, the Moor of Venice** psst (muted-1)',
    });
    expect(await settled('othello@example.com', 'muted-1')).toEqual([]);

    // Every message of a channel whose email notifications are on.
    await w.as.cordelia.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([
        { stream_id: general, property: 'email_notifications', value: true },
      ]),
    });
    await w.as.hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'news',
      content: 'No mention at all (channel-1)',
    });
    const news = await mailWith('cordelia@example.com', 'channel-1');
    expect(news.subject).toBe('#general > news');
    // Others of the channel, without that setting, get nothing for it.
    expect(await missed('othello@example.com', 'channel-1')).toEqual([]);
  });
});
