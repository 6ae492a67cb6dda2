import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetRateLimits } from '../http/rate-limit.js';
import { TestClient } from './client.js';
import { PNG } from './endpoints.js';
import { databases, useServer } from './fixtures.js';

/**
 * The third security review (issue 31): each finding's attack, refused or made harmless, beside a
 * positive control that shows the feature still works.
 */

const GITHUB = {
  pattern: '#(?P<id>[0-9]+)',
  url_template: 'https://github.com/zulip/zulip/issues/{id}',
};
const issueLink = (id: string) =>
  `<a href="https://github.com/zulip/zulip/issues/${id}">#${id}</a>`;

/** Content of `length` characters: `pieces` spread over filler words. */
function messageOf(length: number, pieces: string[]): string {
  const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(length / 27));
  const text = `${pieces.join(' ')} ${filler}`;
  return text.slice(0, length);
}

describe('issue 31.1: linkifiers run in linear time, and rendering has a budget', () => {
  const w = useServer({ db: 'sqlite' });
  const send = (content: string) =>
    w.as.hamlet.post('/messages', { type: 'stream', to: 'general', topic: 'linkifiers', content });
  const rendered = async (id: number) =>
    (await w.as.hamlet.get(`/messages/${id}`)).body.message.content as string;

  it('renders a 10,000-character message against a backtracking pattern at once, and plain linkifiers still link', async () => {
    const hostile = '#(?P<id>[0-9]*[0-9]*[0-9]*[0-9]*z)';
    expect(
      (await w.as.iago.post('/realm/filters', { pattern: hostile, url_template: 'https://x/{id}' }))
        .status,
    ).toBe(200);
    expect((await w.as.iago.post('/realm/filters', GITHUB)).status).toBe(200);

    // Four runs of 450 digits: JavaScript's RegExp backtracks for seconds on each (a minute on
    // two busy cores); RE2's engine reads them once. The bound is an order of magnitude above
    // what the fix needs, on a loaded machine.
    const runs = Array.from({ length: 4 }, () => `#${'1'.repeat(450)}`);
    const content = messageOf(10_000, ['fixes #123', ...runs]);
    expect(content.length).toBe(10_000);
    const started = performance.now();
    const sent = await send(content);
    const elapsed = performance.now() - started;
    expect(sent.status).toBe(200);
    expect(elapsed).toBeLessThan(5000);

    const html = await rendered(sent.body.id);
    expect(html).toContain(issueLink('123'));
    expect(html).toContain(issueLink('1'.repeat(450)));
  }, 300_000);

  it('refuses a pattern RE2 cannot compile, or one too costly to run, with the reference server\u2019s error', async () => {
    for (const [pattern, why] of [
      ['#(?P<id>[0-9]+', 'missing closing ): `#(?P<id>[0-9]+`'],
      ['(?=#)(?P<id>[0-9]+)', 'invalid or unsupported Perl syntax: `(?=`'],
      ['#(?P<id>(?:[0-9]?){1000}[0-9]{1000})', 'pattern too large - compile failed'],
    ]) {
      const r = await w.as.iago.post('/realm/filters', { pattern, url_template: 'https://x/{id}' });
      expect(r.status, pattern).toBe(400);
      expect(r.body).toMatchObject({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: `Bad regular expression: ${why}`,
        errors: { pattern: [`Bad regular expression: ${why}`] },
      });
    }
  });
});

describe('issue 31.1: a message that outlasts the rendering budget is refused', () => {
  const w = useServer({ db: 'sqlite' });
  const send = (content: string) =>
    w.as.hamlet.post('/messages', { type: 'stream', to: 'general', topic: 'budget', content });

  it('answers "Unable to render message" instead of rendering for seconds; short messages still render', async () => {
    // A hundred linear but costly patterns (300-900 instructions, tens of milliseconds each over
    // 10,000 characters, with or without a match): seconds of work for one long message, where
    // the budget is one second.
    expect((await w.as.iago.post('/realm/filters', GITHUB)).status).toBe(200);
    for (let i = 0; i < 100; i++) {
      const pattern = `(?P<id>[ab ]*a[ab ]{${300 + 6 * i}})`;
      const r = await w.as.iago.post('/realm/filters', { pattern, url_template: 'https://x/{id}' });
      expect(r.status, pattern).toBe(200);
    }
    const long = 'ab aab aaab '.repeat(833);
    const refused = await send(long);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Unable to render message',
    });

    const ordinary = await send('see #77');
    expect(ordinary.status).toBe(200);
    const html = (await w.as.hamlet.get(`/messages/${ordinary.body.id}`)).body.message.content;
    expect(html).toBe(`<p>see ${issueLink('77')}</p>`);
  }, 120_000);
});

describe('issue 31.2: avatars as the reference serves them', () => {
  const w = useServer({ db: 'sqlite' });
  let photo = '';
  const anonymous = (path: string) => fetch(new URL(path, w.server.url));
  const withKey = (c: TestClient, path: string) =>
    fetch(new URL(path, w.server.url), { headers: c.headers() });
  const answer = async (r: Response) => ({
    status: r.status,
    type: r.headers.get('content-type'),
    body: Buffer.from(await r.arrayBuffer()).toString('base64'),
  });
  const spectators = async (on: boolean) =>
    expect(
      (await w.as.desdemona.patch('/realm', { enable_spectator_access: String(on) })).status,
    ).toBe(200);
  /** Runs `check` with spectator access off, and turns it back on whatever happens. */
  const withSpectatorsOff = async (check: () => Promise<void>) => {
    await spectators(false);
    try {
      await check();
    } finally {
      await spectators(true);
    }
  };

  beforeAll(async () => {
    const upload = await w.as.hamlet.post('/users/me/avatar', {
      file: new File([new Uint8Array(PNG)], 'me.png', { type: 'image/png' }),
    });
    expect(upload.status).toBe(200);
    photo = upload.body.avatar_url;
  });

  it('with spectator access off, answers an anonymous walker of /avatar/<id> the same 401 for people, photos and nobody', () =>
    withSpectatorsOff(async () => {
      const ids = [w.id.hamlet, w.id.cordelia, w.id.polonius, 0, 987_654, 2_147_483_647, 'x'];
      const answers = await Promise.all(
        ids.map(async (id) => answer(await anonymous(`/avatar/${id}`))),
      );
      expect(answers[0]!.status).toBe(401);
      expect(JSON.parse(Buffer.from(answers[0]!.body, 'base64').toString())).toEqual({
        result: 'error',
        code: 'UNAUTHORIZED',
        msg: 'Not logged in: API authentication or user session required',
      });
      for (const [i, a] of answers.entries()) expect(a, String(ids[i])).toEqual(answers[0]);
    }));

  it("serves an uploaded photo at a path nobody can guess: a changed path, and the previous upload's, are not found", async () => {
    const url = new URL(photo);
    expect(url.pathname).toMatch(
      new RegExp(`^/user_avatars/\\d+/${w.id.hamlet}-\\d+-[0-9a-f]{32}$`),
    );
    // Anyone holding the path sees the photo, as upstream's public avatar files.
    const shown = await anonymous(url.pathname);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await shown.arrayBuffer())).toEqual(PNG);

    const last = url.pathname.at(-1) === '0' ? '1' : '0';
    const forged = [
      url.pathname.slice(0, -1) + last,
      url.pathname.replace(`/${w.id.hamlet}-`, `/${w.id.cordelia}-`),
      url.pathname.replace(/-(\d+)-/, (_m, v: string) => `-${Number(v) + 1}-`),
      `/user_avatars/1/${w.id.hamlet}-1-${'0'.repeat(32)}`,
    ];
    const refused = await Promise.all(forged.map(async (p) => answer(await anonymous(p))));
    for (const [i, a] of refused.entries()) {
      expect(a.status, forged[i]).toBe(404);
      expect(a, forged[i]).toEqual(refused[0]);
    }

    const again = await w.as.hamlet.post('/users/me/avatar', {
      file: new File([new Uint8Array(PNG)], 'me.png', { type: 'image/png' }),
    });
    expect(again.body.avatar_url).not.toBe(photo);
    expect((await anonymous(url.pathname)).status).toBe(404);
    photo = again.body.avatar_url;
  });

  it('still shows every avatar to a logged-in member, uploaded and drawn, by id and at its path', () =>
    withSpectatorsOff(async () => {
      const people = (await w.as.othello.get('/users')).body.members as {
        user_id: number;
        avatar_url: string;
      }[];
      const hamlet = people.find((p) => p.user_id === w.id.hamlet)!;
      const cordelia = people.find((p) => p.user_id === w.id.cordelia)!;
      expect(hamlet.avatar_url).toBe(photo);
      for (const [person, type] of [
        [hamlet, 'image/png'],
        [cordelia, 'image/svg+xml'],
      ] as const) {
        // The web client's <img> sends no credentials: the path alone shows it...
        const img = await anonymous(new URL(person.avatar_url).pathname);
        expect(img.status).toBe(200);
        expect(img.headers.get('content-type')).toBe(type);
        // ...and API clients may ask by id with their key.
        const byId = await withKey(w.as.othello, `/avatar/${person.user_id}`);
        expect(byId.status).toBe(200);
        expect(byId.headers.get('content-type')).toBe(type);
      }
      const drawn = await (await anonymous(new URL(cordelia.avatar_url).pathname)).text();
      // Cordelia's initials, as the placeholder always drew them.
      expect(drawn).toMatch(/>C[A-Z]?<\/text>/);
    }));

  it('shows spectators the avatars of what they may read, and by id while spectator access is on', async () => {
    const spectator = new TestClient(w.server.url);
    const feed = await spectator.get('/messages', {
      anchor: 'newest',
      num_before: 20,
      num_after: 0,
      narrow: [{ operator: 'channels', operand: 'web-public' }],
    });
    expect(feed.status).toBe(200);
    expect(feed.body.messages.length).toBeGreaterThan(0);
    for (const m of feed.body.messages.slice(0, 3)) {
      const img = await anonymous(new URL(m.avatar_url).pathname);
      expect(img.status, m.avatar_url).toBe(200);
    }
    expect((await anonymous(`/avatar/${w.id.cordelia}`)).status).toBe(200);
  });
});

interface EarlyAnswer {
  status: number;
  body: any;
}

/**
 * Sends the headers and the first part of a body that never ends, and resolves with the answer
 * the server gives meanwhile, or null when none comes within `ms`. A server that reads the whole
 * body before judging a request never answers one that does not end.
 */
function answerBeforeTheBodyEnds(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  firstPart: string,
  declaredLength: number,
  ms = 15_000,
): Promise<EarlyAnswer | null> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(declaredLength) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(null);
    }, ms);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode!, body: JSON.parse(text) });
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.write(firstPart);
  });
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
/** `count` empty form fields, each named differently: "f0=&f1=&...". */
const emptyFields = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => `f${from + i}=`).join('&');
const TOO_MANY = { result: 'error', code: 'BAD_REQUEST', msg: 'Too many parameters (limit: 1000)' };

describe('issue 31.3: request limits come before any work', () => {
  const w = useServer({ db: 'sqlite' });

  it('refuses an anonymous request from its headers, without waiting for its 19 MB body', async () => {
    const answer = await answerBeforeTheBodyEnds(
      w.server.url,
      '/api/v1/messages',
      FORM,
      emptyFields(200),
      19_000_000,
    );
    expect(answer).toEqual({
      status: 401,
      body: { result: 'error', code: 'UNAUTHORIZED', msg: "Missing 'Authorization' header." },
    });
  });

  it('refuses a form at its 1,001st field, before the rest arrives', async () => {
    const answer = await answerBeforeTheBodyEnds(
      w.server.url,
      '/api/v1/messages',
      { ...FORM, ...w.as.hamlet.headers() },
      `type=stream&to=general&topic=limits&content=hello&${emptyFields(1000)}&`,
      19_000_000,
    );
    expect(answer).toEqual({ status: 400, body: TOO_MANY });
  });

  it('refuses 2,000,000 fields sent whole to a route that reads its credentials from the body', async () => {
    const body = `username=hamlet%40example.com&password=x&${emptyFields(2_000_000)}`;
    expect(body.length).toBeGreaterThan(18_000_000);
    const r = await fetch(`${w.server.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: FORM,
      body,
    });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual(TOO_MANY);
  });

  it('counts parameters in query strings, JSON bodies and multipart bodies too', async () => {
    const query = await fetch(`${w.server.url}/api/v1/users/me?${emptyFields(1001)}`, {
      headers: w.as.hamlet.headers(),
    });
    expect(query.status).toBe(400);
    expect(await query.json()).toEqual(TOO_MANY);

    const members = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`f${i}`, '']));
    const json = await fetch(`${w.server.url}/api/v1/users/me/alert_words`, {
      method: 'POST',
      headers: { ...w.as.hamlet.headers(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ alert_words: '["x"]', ...members }),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual(TOO_MANY);

    const multipart = await fetch(`${w.server.url}/api/v1/users/me/alert_words`, {
      method: 'POST',
      headers: w.as.hamlet.headers(),
      body: TestClient.form({ alert_words: ['x'], ...members }),
    });
    expect(multipart.status).toBe(400);
    expect(await multipart.json()).toEqual(TOO_MANY);

    // The upload endpoints parse their own multipart bodies (files go to disk as they arrive).
    const upload = TestClient.form(members);
    upload.append('file', new Blob(['hello']), 'hello.txt');
    const uploaded = await fetch(`${w.server.url}/api/v1/user_uploads`, {
      method: 'POST',
      headers: w.as.hamlet.headers(),
      body: upload,
    });
    expect(uploaded.status).toBe(400);
    expect(await uploaded.json()).toEqual(TOO_MANY);
  });

  it('echoes at most a hundred ignored parameters, each at most a hundred characters long', async () => {
    const long = 'x'.repeat(100_000);
    const r = await w.as.hamlet.post('/users/me/alert_words', {
      alert_words: ['parley'],
      [long]: '1',
      ...Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`f${i}`, ''])),
    });
    expect(r.status).toBe(200);
    const echoed: string[] = r.body.ignored_parameters_unsupported;
    expect(echoed.length).toBe(100);
    expect(Math.max(...echoed.map((n) => n.length))).toBeLessThanOrEqual(101);
  });

  it('still answers an ordinary request of a few fields, whatever its encoding', async () => {
    const sent = await w.as.hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'limits',
      content: 'an ordinary message',
    });
    expect(sent.status).toBe(200);
    expect(sent.body.ignored_parameters_unsupported).toBeUndefined();
    const json = await fetch(`${w.server.url}/api/v1/users/me/alert_words`, {
      method: 'POST',
      headers: { ...w.as.hamlet.headers(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ alert_words: ['ordinary'] }),
    });
    expect(json.status).toBe(200);
    expect((await json.json()).alert_words).toContain('ordinary');
    const login = await TestClient.login(w.server.url, 'othello@example.com', 'parley-demo');
    expect((await login.get('/users/me', { client_gravatar: 'false' })).status).toBe(200);
  });
});

describe('issue 31.3: rate limits come before the body is read', () => {
  const LIMIT = 40;
  beforeAll(() => resetRateLimits());
  const w = useServer({ db: 'sqlite', config: { rateLimitPerMinute: LIMIT } });
  afterAll(() => resetRateLimits());

  it('answers 429 from the headers of a caller over the limit; under it, requests go through', async () => {
    resetRateLimits();
    const me = await w.as.cordelia.get('/users/me');
    expect(me.status).toBe(200);
    for (let i = 1; i < LIMIT; i++) await w.as.cordelia.get('/users/me');
    const answer = await answerBeforeTheBodyEnds(
      w.server.url,
      '/api/v1/messages',
      { ...FORM, ...w.as.cordelia.headers() },
      'type=stream&to=general&topic=limits&content=',
      1_000_000,
    );
    expect(answer?.status).toBe(429);
    expect(answer?.body).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT' });
    expect((await w.as.othello.get('/users/me')).status).toBe(200);
  });
});

// The 500 came from the database (SQLite's limit on statement variables): both dialects run it.
describe.each(databases('both'))(
  'issue 31.4: alert words and JSON parameters have limits, never a 500, on %s',
  (db) => {
    const w = useServer({ db });
    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

    it('refuses 20,000 alert words in one request, and more than 1,000 in all; fewer are kept', async () => {
      const many = Array.from({ length: 20_000 }, (_, i) => `word${i}`);
      const refused = await w.as.hamlet.post('/users/me/alert_words', { alert_words: many });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: 'Too many alert words (limit: 1000)',
      });

      const added = await w.as.hamlet.post('/users/me/alert_words', { alert_words: ['parley'] });
      expect(added.status).toBe(200);
      expect(added.body.alert_words).toEqual(['parley']);
      const upTo = Array.from({ length: 999 }, (_, i) => `word${i}`);
      const full = await w.as.hamlet.post('/users/me/alert_words', { alert_words: upTo });
      expect(full.status).toBe(200);
      expect(full.body.alert_words).toHaveLength(1000);
      // Words already there are not counted twice; one more is one too many.
      expect(
        (await w.as.hamlet.post('/users/me/alert_words', { alert_words: ['PARLEY', 'word1'] }))
          .status,
      ).toBe(200);
      expect(
        (await w.as.hamlet.post('/users/me/alert_words', { alert_words: ['one more'] })).body.msg,
      ).toBe('Too many alert words (limit: 1000)');
      expect(
        (await w.as.hamlet.post('/users/me/alert_words', { alert_words: ['x'.repeat(101)] })).body
          .msg,
      ).toBe('alert_words[0] is too long (limit: 100 characters)');
    });

    it('refuses JSON nested 100,000 levels deep with 400, as a parameter or as a body', async () => {
      const param = await w.as.hamlet.post('/register', { narrow: deep(100_000) });
      expect(param.status).toBe(400);
      expect(param.body).toEqual({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: 'Argument "narrow" is not valid JSON.',
      });
      const object = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
      const capabilities = await w.as.hamlet.post('/register', { client_capabilities: object });
      expect(capabilities.body.msg).toBe('Argument "client_capabilities" is not valid JSON.');
      const flags = await w.as.hamlet.post('/messages/flags/narrow', {
        narrow: deep(100_000),
        anchor: 'newest',
        num_before: 1,
        num_after: 0,
        op: 'add',
        flag: 'starred',
      });
      expect(flags.status).toBe(400);

      const body = await fetch(`${w.server.url}/api/v1/users/me/alert_words`, {
        method: 'POST',
        headers: { ...w.as.hamlet.headers(), 'Content-Type': 'application/json' },
        body: `{"alert_words": ${deep(100_000)}}`,
      });
      expect(body.status).toBe(400);
      expect(await body.json()).toEqual({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: 'Malformed JSON',
      });
    });

    it('still reads ordinary JSON parameters and bodies', async () => {
      const narrowed = await w.as.hamlet.get('/messages', {
        narrow: [{ operator: 'channel', operand: 'general' }],
        anchor: 'newest',
        num_before: 1,
        num_after: 0,
      });
      expect(narrowed.status).toBe(200);
      expect(narrowed.body.messages).toHaveLength(1);
      const nested = await w.as.hamlet.post('/register', {
        narrow: [['channel', 'general']],
        client_capabilities: { notification_settings_null: true },
      });
      expect(nested.status).toBe(200);
      const body = await fetch(`${w.server.url}/api/v1/users/me/alert_words`, {
        method: 'DELETE',
        headers: { ...w.as.hamlet.headers(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ alert_words: ['parley'] }),
      });
      expect(body.status).toBe(200);
    });
  },
);
