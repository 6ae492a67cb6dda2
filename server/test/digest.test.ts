import { beforeAll, describe, expect, it } from 'vitest';
import { sendDueDigests, weekdayOf } from '../actions/digest.js';
import { nowSeconds } from '../lib/admin-checks.js';
import { databases, useServer } from './fixtures.js';
import { queuedMails } from './mailbox.js';

/**
 * The weekly digest: on the organization's digest day, someone away for days gets the busiest
 * conversations of the week in their channels that they have not read; nobody twice a week, and
 * nobody who read them or was here.
 */
describe.each(databases('both'))('weekly digests on %s', (db) => {
  const w = useServer({ db, people: ['iago', 'hamlet', 'othello', 'cordelia'] });
  const now = nowSeconds();
  const digests = async () => (await queuedMails(w.server)).filter((m) => m.kind === 'digest');

  beforeAll(async () => {
    const r = await w.as.iago.patch('/realm', {
      digest_emails_enabled: 'true',
      digest_weekday: String(weekdayOf(now)),
    });
    expect(r.status).toBe(200);
    // A busy topic this week, and a quieter one.
    for (let i = 0; i < 4; i++)
      await w.as.iago.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'digest busy',
        content: `Busy ${i}`,
      });
    await w.as.cordelia.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'digest quiet',
      content: 'Quiet',
    });
  });

  it("sends the week's busiest unread conversations to someone away, once a week", async () => {
    // Othello was here today: no digest for him.
    expect((await w.as.othello.post('/users/me/presence', { status: 'active' })).status).toBe(200);
    // Cordelia read everything.
    const general = Number(
      (await w.as.cordelia.get('/get_stream_id', { stream: 'general' })).body.stream_id,
    );
    expect((await w.as.cordelia.post('/mark_all_as_read', {})).status).toBe(200);

    expect(await sendDueDigests(w.server.ctx, now)).toBeGreaterThan(0);
    const sent = await digests();
    const hamlet = sent.filter((m) => m.to === 'hamlet@example.com');
    expect(hamlet).toHaveLength(1);
    const mail = hamlet[0]!;
    expect(mail.subject).toBe('What you missed in Parley Demo this week');
    expect(mail.text).toContain('#general > digest busy');
    expect(mail.text).toMatch(/4 unread messages, from Iago/);
    // The busiest first, five at most.
    const counts = [...mail.text.matchAll(/(\d+) unread messages?, from/g)].map((m) =>
      Number(m[1]),
    );
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.length).toBeLessThanOrEqual(5);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(mail.text).toMatch(
      new RegExp(`/#narrow/channel/${general}-general/topic/digest\\.20busy/near/\\d+`),
    );
    expect(mail.html).toContain('digest busy');
    expect(sent.some((m) => m.to === 'othello@example.com')).toBe(false);
    expect(sent.some((m) => m.to === 'cordelia@example.com')).toBe(false);

    // An hour later, the same day: nothing more.
    await sendDueDigests(w.server.ctx, now + 3600);
    expect((await digests()).filter((m) => m.to === 'hamlet@example.com')).toHaveLength(1);
  });

  it("is built from one week's messages, and sent only on the digest day", async () => {
    const before = (await digests()).length;
    // A day later is not the digest day.
    expect(await sendDueDigests(w.server.ctx, now + 86_400)).toBe(0);
    // A week later, this week's messages are too old to be news.
    expect(await sendDueDigests(w.server.ctx, now + 7 * 86_400 + 600)).toBe(0);
    expect((await digests()).length).toBe(before);
  });
});
