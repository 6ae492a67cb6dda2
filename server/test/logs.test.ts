import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, redactText } from '../logging.js';
import { TestClient } from './client.js';
import { DEMO_PASSWORD } from './harness.js';
import { ServerProcess, freePort, probe, removeDataDir, tempDataDir } from './process.js';

/**
 * What the server prints, from its start to its stop, with the most verbose of useful levels
 * (`debug`: a line per request): JSON lines only, and no secret among them.
 */
describe('the log', () => {
  const dataDir = tempDataDir();
  let server: ServerProcess;
  let url = '';
  const secrets: Record<string, string> = {};
  let lines: Record<string, any>[] = [];

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = new ServerProcess({
      PORT: String(port),
      PARLEY_DATA_DIR: dataDir,
      PARLEY_SCRYPT_COST: '1024',
      LOG_LEVEL: 'debug',
    });
    await server.until(async () => ((await probe(`${url}/ready`))?.status === 200 ? 1 : undefined));

    secrets.wrongPassword = 'not-her-password-6c1e';
    const wrong = await new TestClient(url).post('/fetch_api_key', {
      username: 'desdemona@example.com',
      password: secrets.wrongPassword,
    });
    expect(wrong.status).toBe(401);

    const owner = await TestClient.login(url, 'desdemona@example.com', DEMO_PASSWORD);
    secrets.apiKey = owner.apiKey!;
    secrets.basicCredentials = owner.headers().Authorization!.split(' ')[1]!;
    expect((await owner.get('/users/me')).status).toBe(200);
    // The key in the query string too, as some clients send it.
    await fetch(`${url}/api/v1/users/me?api_key=${owner.apiKey}`, { headers: owner.headers() });
    secrets.bearer = 'bearer-token-0b7d5e';
    secrets.cookie = 'cookie-session-93fa';
    await fetch(`${url}/api/v1/users/me`, {
      headers: { Authorization: `Bearer ${secrets.bearer}`, Cookie: `sid=${secrets.cookie}` },
    });

    const general = (await owner.get('/get_stream_id', { stream: 'general' })).body.stream_id;
    const invited = await owner.post('/invites', {
      invitee_emails: 'newcomer@example.com',
      stream_ids: [general],
    });
    expect(invited.status).toBe(200);
    const hamlet = await TestClient.login(url, 'hamlet@example.com', DEMO_PASSWORD);
    expect((await hamlet.patch('/settings', { email: 'prince@example.com' })).status).toBe(200);

    // Without a mail server the mail waits in the queue, where administrators read it.
    const mails = (await owner.get('/parley/mail')).body.mails as { to: string; text: string }[];
    const linkIn = (to: string) => /https?:\/\/\S+/.exec(mails.find((m) => m.to === to)!.text)![0];
    const invitation = linkIn('newcomer@example.com');
    const confirmation = linkIn('prince@example.com');
    secrets.invitationKey = /\/join\/([^/]+)/.exec(invitation)![1]!;
    secrets.confirmationToken = /confirm_new_email\/([^/]+)/.exec(confirmation)![1]!;
    // Following the links puts them in request lines.
    await fetch(invitation);
    await fetch(confirmation);

    const stopped = await server.stop('SIGTERM');
    expect(stopped.code).toBe(0);
    lines = server.lines.map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return { notJson: line };
      }
    });
  }, 120_000);
  afterAll(() => removeDataDir(dataDir));

  it('is JSON, line by line', () => {
    expect(lines.filter((l) => 'notJson' in l)).toEqual([]);
    expect(lines.length).toBeGreaterThan(10);
  });

  it('carries no password, API key, credentials, cookie or mailed link', () => {
    for (const [what, secret] of Object.entries(secrets))
      expect(server.output.includes(secret), `${what} in the log`).toBe(false);
  });

  it('tells the start, the seed, the mails, the requests and the stop', () => {
    const messages = lines.map((l) => String(l.msg));
    expect(messages).toContainEqual(expect.stringMatching(/^Seeded the demo organization/));
    expect(messages).toContain(`Parley is running at ${url}`);
    expect(messages).toContainEqual(
      expect.stringMatching(/^Log in as any demo user with the password "parley-demo": desdemona@/),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(/^PARLEY_SMTP_URL is not set: mail is queued/),
    );
    const requests = lines.filter((l) => l.msg === 'request completed');
    expect(requests.map((l) => l.req.url)).toContainEqual(
      expect.stringMatching(/^\/join\/\[redacted\]\/$/),
    );
    expect(requests.map((l) => l.req.url)).toContain('/api/v1/users/me?api_key=[redacted]');
    expect(messages).toContain('SIGTERM: shutting down');
    expect(messages.at(-1)).toBe('Stopped');
  });
});

describe('redaction', () => {
  /** What a logger at `debug` writes for one call. */
  function written(log: (logger: ReturnType<typeof createLogger>) => void): string {
    let out = '';
    log(createLogger('debug', { write: (chunk: string) => (out += chunk) }));
    return out;
  }

  it('hides secret fields wherever they sit, two levels down', () => {
    const out = written((l) =>
      l.info(
        {
          password: 'p1-secret',
          api_key: 'k1-secret',
          user: { apiKey: 'k2-secret', token: 't1-secret', name: 'kept' },
          req: { headers: { authorization: 'Basic a1-secret', cookie: 'c1-secret' } },
          mail: { link: 'https://x/join/l1-secret/' },
        },
        'fields',
      ),
    );
    expect(out).not.toMatch(/-secret/);
    expect(JSON.parse(out)).toMatchObject({ password: '[redacted]', user: { name: 'kept' } });
  });

  it('hides the secrets in the message and stack of an error', () => {
    const out = written((l) =>
      l.error({ err: new Error('no invitation /join/e1-secret/') }, 'failed'),
    );
    expect(out).not.toMatch(/e1-secret/);
    expect(JSON.parse(out).err.message).toBe('no invitation /join/[redacted]/');
  });

  it('hides the secrets inside text', () => {
    expect(
      redactText(
        'GET /join/abc123/ /accounts/confirm_new_email/tok9 /accounts/do_confirm/x1/ ' +
          '/user_uploads/temporary/sig.1/a.png?api_key=k&narrow=[] Authorization: Basic dXNlcjpr ' +
          'Bearer eyJhbGciOi.x postgres://parley:hunter2@db/parley',
      ),
    ).toBe(
      'GET /join/[redacted]/ /accounts/confirm_new_email/[redacted] ' +
        '/accounts/do_confirm/[redacted]/ /user_uploads/temporary/[redacted]/a.png' +
        '?api_key=[redacted]&narrow=[] Authorization: Basic [redacted] Bearer [redacted] ' +
        'postgres://parley:[redacted]@db/parley',
    );
  });
});
