import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { queuedMails } from './mailbox.js';
import { freePort, probe, removeDataDir, ServerProcess, tempDataDir } from './process.js';
import { sendDueMail, type MailSender } from '../actions/mail-worker.js';

/**
 * Real mail: the server queues every mail in its database and a worker sends it to the mail
 * server of PARLEY_SMTP_URL, here a real SMTP server on a free port of this machine.
 */

interface Received {
  to: string[];
  raw: string;
  /** the raw message with quoted-printable undone, to search the words and links in */
  decoded: string;
}

/** An SMTP server that keeps what it receives. */
class Mailbox {
  received: Received[] = [];
  private server: SMTPServer | null = null;
  constructor(readonly port: number) {}

  async start() {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            decoded: undoQuotedPrintable(raw),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop() {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  to(address: string) {
    return this.received.filter((m) => m.to.includes(address));
  }

  /** The mail to `address` once there is some. */
  arrived(address: string) {
    return until(`a mail to ${address}`, () => {
      const mails = this.to(address);
      return mails.length ? mails : null;
    });
  }
}

function undoQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = /^=([0-9A-F]{2})/.exec(joined.slice(i, i + 3));
    if (hex) {
      bytes.push(parseInt(hex[1]!, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** What `fn` returns once it is truthy, asked every 50 ms. */
async function until<T>(what: string, fn: () => T | Promise<T>, ms = 15_000): Promise<Truthy<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value as Truthy<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const FAST = { mailPollMs: 100, mailRetryMs: 200 };

const form = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

describe.each(databases('both'))('mail on %s', (db) => {
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = new Mailbox(await freePort());
    await mailbox.start();
  });
  afterAll(() => mailbox?.stop());
  const w = useServer({
    db,
    people: ['desdemona', 'iago', 'hamlet', 'othello'],
    config: () => ({ ...FAST, smtpUrl: `smtp://127.0.0.1:${mailbox.port}` }),
  });

  it('sends an invitation with a text and an HTML part and its link', async () => {
    const r = await w.as.iago.post('/invites', {
      invitee_emails: 'rosalind@example.com',
      stream_ids: [],
    });
    expect(r.status).toBe(200);
    const [mail] = await mailbox.arrived('rosalind@example.com');
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/i);
    expect(mail.raw).toMatch(/Content-Type: text\/html/i);
    expect(mail.raw).toMatch(/^From: "?Parley Demo"? <noreply@127\.0\.0\.1>/m);
    expect(mail.raw).toMatch(/^Subject: .*invited you to join/m);
    const link = /https?:\/\/\S+\/join\/[0-9a-f]+\//.exec(mail.decoded)?.[0];
    expect(link).toBeDefined();
    // The same link in both parts: as text, and as the button's href.
    expect(mail.decoded.split(link!).length).toBeGreaterThanOrEqual(4);
    expect(mail.decoded).toContain('color-scheme');
    expect((await fetch(link!)).status).toBe(200);
    const row = (await queuedMails(w.server)).find((m) => m.to === 'rosalind@example.com')!;
    await until('the mail marked sent', async () =>
      (await queuedMails(w.server)).some((m) => m.id === row.id && m.status === 'sent'),
    );
  });

  it('escapes names in the HTML part', async () => {
    const owner = w.as.desdemona;
    expect((await owner.patch('/settings', { full_name: 'Des <b>demona</b> & co' })).status).toBe(
      200,
    );
    await owner.post('/invites', { invitee_emails: 'escaped@example.com', stream_ids: [] });
    const [mail] = await mailbox.arrived('escaped@example.com');
    const html = mail.decoded.slice(mail.decoded.search(/Content-Type: text\/html/i));
    expect(html).toContain('Des &lt;b&gt;demona&lt;/b&gt; &amp; co');
    expect(html).not.toContain('<b>demona</b>');
    await owner.patch('/settings', { full_name: 'Desdemona' });
  });

  it('resets a password by a mailed link that works once; an unknown address gets the same page', async () => {
    const resetUrl = `${w.server.url}/accounts/password/reset/`;
    expect((await fetch(resetUrl)).status).toBe(200);
    const known = await form(resetUrl, { email: 'othello@example.com' });
    const unknown = await form(resetUrl, { email: 'nobody@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect((await known.text()).replaceAll('othello@example.com', 'X')).toBe(
      (await unknown.text()).replaceAll('nobody@example.com', 'X'),
    );
    const mail = await until('the reset mail', () =>
      mailbox
        .to('othello@example.com')
        .find((m) => m.decoded.includes('/accounts/password/reset/')),
    );
    expect(mail.raw).toMatch(/Content-Type: text\/html/i);
    const link = /https?:\/\/\S+\/accounts\/password\/reset\/[0-9a-f]{64}\//.exec(mail.decoded)![0];

    expect((await fetch(link)).status).toBe(200);
    const short = await form(link, { password: 'abc' });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain('role="alert"');
    const done = await form(link, { password: 'a-new-password' });
    expect(done.status).toBe(200);
    const relogin = await TestClient.login(w.server.url, 'othello@example.com', 'a-new-password');
    // The API key stays, as upstream keeps it.
    expect(relogin.apiKey).toBe(w.as.othello.apiKey);
    const again = await form(link, { password: 'another-password' });
    expect(again.status).toBe(404);
    expect((await fetch(link)).status).toBe(404);
    await expect(
      TestClient.login(w.server.url, 'othello@example.com', 'another-password'),
    ).rejects.toThrow();

    await new Promise((r) => setTimeout(r, 500));
    expect(mailbox.to('nobody@example.com')).toEqual([]);
    // Administrators do not see the link.
    const listed = (await w.as.desdemona.get('/parley/mail')).body.mails as any[];
    const reset = listed.find((m) => m.kind === 'password_reset' && m.to === 'othello@example.com');
    expect(reset.text).not.toMatch(/[0-9a-f]{64}/);
    // Set back for the other tests.
    await relogin.patch('/settings', {
      old_password: 'a-new-password',
      new_password: DEMO_PASSWORD,
    });
  });

  it('mails a new login only while enable_login_emails is on', async () => {
    const before = mailbox.to('hamlet@example.com').length;
    await TestClient.login(w.server.url, 'hamlet@example.com', DEMO_PASSWORD);
    const mails = await until('the login mail', () => {
      const m = mailbox.to('hamlet@example.com');
      return m.length > before && m;
    });
    const login = mails.at(-1)!;
    expect(login.raw).toMatch(/^Subject: New login to/m);
    expect(login.decoded).toContain('127.0.0.1');

    expect((await w.as.hamlet.patch('/settings', { enable_login_emails: false })).status).toBe(200);
    const count = (await queuedMails(w.server, { logins: true })).length;
    await TestClient.login(w.server.url, 'hamlet@example.com', DEMO_PASSWORD);
    expect((await queuedMails(w.server, { logins: true })).length).toBe(count);
    await w.as.hamlet.patch('/settings', { enable_login_emails: true });
  });

  it("lists the organization's mail for administrators only", async () => {
    const r = await w.as.iago.get('/parley/mail', { limit: 5 });
    expect(r.status).toBe(200);
    const mails = r.body.mails as any[];
    expect(r.body.delivery_configured).toBe(true);
    expect(mails.length).toBeLessThanOrEqual(5);
    expect(mails.length).toBeGreaterThan(0);
    expect(mails[0]).toEqual({
      id: expect.any(Number),
      kind: expect.any(String),
      to: expect.any(String),
      subject: expect.any(String),
      status: expect.stringMatching(/^(queued|sending|sent|failed)$/),
      created_at: expect.any(Number),
      sent_at: mails[0].status === 'sent' ? expect.any(Number) : null,
      attempts: expect.any(Number),
      last_error: null,
      text: expect.any(String),
    });
    expect(mails.map((m) => m.id)).toEqual([...mails.map((m) => m.id)].sort((a, b) => b - a));
    const member = await w.as.hamlet.get('/parley/mail');
    expect(member.status).toBe(400);
    expect(member.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
  });
});

describe.each(databases('both'))('mail delivery across failures on %s', (db) => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('tries again while the mail server is down and delivers once it is back, once', async () => {
    const mailbox = new Mailbox(await freePort());
    server = await startTestServer({
      db,
      config: { ...FAST, smtpUrl: `smtp://127.0.0.1:${mailbox.port}` },
    });
    const owner = await TestClient.login(server.url, 'desdemona@example.com', DEMO_PASSWORD);
    await owner.post('/invites', { invitee_emails: 'patient@example.com', stream_ids: [] });
    const s = server;
    const failed = await until('a failed try', async () =>
      (await queuedMails(s)).find((m) => m.to === 'patient@example.com' && m.status === 'queued'),
    );
    const row = await until('two failed tries', async () => {
      const r = await s.ctx.db
        .selectFrom('mail_queue')
        .selectAll()
        .where('id', '=', failed.id)
        .executeTakeFirstOrThrow();
      return r.attempts >= 2 && r.status === 'queued' && r;
    });
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);

    await mailbox.start();
    try {
      await until('the mail', () => mailbox.to('patient@example.com').length > 0);
      await until('the mail marked sent', async () =>
        (await queuedMails(s)).some((m) => m.id === failed.id && m.status === 'sent'),
      );
      await new Promise((r) => setTimeout(r, 600));
      expect(mailbox.to('patient@example.com')).toHaveLength(1);
    } finally {
      await mailbox.stop();
    }
  });

  it('sends each mail once when two workers run at the same time', async () => {
    // Without a mail server the server's own worker does not run: these two are the only ones.
    server!.ctx.config.smtpUrl = undefined;
    server = await server!.restart();
    const s = server;
    const owner = await TestClient.login(s.url, 'desdemona@example.com', DEMO_PASSWORD);
    const emails = ['one', 'two', 'three', 'four'].map((n) => `race-${n}@example.com`);
    await owner.post('/invites', { invitee_emails: emails.join(','), stream_ids: [] });
    const sent: string[] = [];
    const slowSender: MailSender = {
      async send(mail) {
        await new Promise((r) => setTimeout(r, 20));
        sent.push(mail.to);
      },
      close() {},
    };
    await Promise.all([sendDueMail(s.ctx, slowSender), sendDueMail(s.ctx, slowSender)]);
    for (const email of emails) expect(sent.filter((to) => to === email)).toHaveLength(1);
  });

  it('delivers after a restart the mail queued before the stop', async () => {
    const mailbox = new Mailbox(await freePort());
    // Queued while no mail server is configured: nothing is sent.
    server!.ctx.config.smtpUrl = undefined;
    server = await server!.restart();
    const owner = await TestClient.login(server.url, 'desdemona@example.com', DEMO_PASSWORD);
    await owner.post('/invites', { invitee_emails: 'later@example.com', stream_ids: [] });
    await new Promise((r) => setTimeout(r, 300));
    const queued = (await queuedMails(server)).find((m) => m.to === 'later@example.com')!;
    expect(queued.status).toBe('queued');

    await mailbox.start();
    try {
      server.ctx.config.smtpUrl = `smtp://127.0.0.1:${mailbox.port}`;
      server = await server.restart();
      await until('the mail', () => mailbox.to('later@example.com').length > 0);
      expect(mailbox.to('later@example.com')).toHaveLength(1);
    } finally {
      await mailbox.stop();
    }
  });
});

describe('mail through a crash', () => {
  let mailbox: Mailbox;
  let dataDir: string;
  const running: ServerProcess[] = [];
  beforeAll(async () => {
    mailbox = new Mailbox(await freePort());
    await mailbox.start();
    dataDir = tempDataDir();
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop('SIGKILL')));
    await mailbox.stop();
    removeDataDir(dataDir);
  });

  async function start(env: Record<string, string> = {}) {
    const port = await freePort();
    const server = new ServerProcess({ PORT: String(port), PARLEY_DATA_DIR: dataDir, ...env });
    running.push(server);
    const url = `http://127.0.0.1:${port}`;
    await server.until(async () =>
      (await probe(`${url}/ready`))?.status === 200 ? true : undefined,
    );
    return { server, url };
  }

  it('delivers, once, a mail acknowledged just before a kill -9', async () => {
    // No mail server yet: the invitation's mail is written with it, and waits.
    const first = await start();
    const owner = await TestClient.login(first.url, 'desdemona@example.com', DEMO_PASSWORD);
    expect(
      (await owner.post('/invites', { invitee_emails: 'survivor@example.com', stream_ids: [] }))
        .status,
    ).toBe(200);
    expect((await first.server.stop('SIGKILL')).signal).toBe('SIGKILL');

    await start({ PARLEY_SMTP_URL: `smtp://127.0.0.1:${mailbox.port}` });
    await until('the mail', () => mailbox.to('survivor@example.com').length > 0, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(mailbox.to('survivor@example.com')).toHaveLength(1);
    expect(mailbox.to('survivor@example.com')[0]!.decoded).toMatch(/\/join\/[0-9a-f]+\//);
  }, 120_000);
});
