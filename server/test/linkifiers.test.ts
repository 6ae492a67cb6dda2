import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { drain, TestClient } from './client.js';
import {
  checkLinkifierPattern,
  expandUrlTemplate,
  urlTemplateVariables,
} from '../actions/linkifiers.js';
import { parseLinkifierPattern } from '../markdown/index.js';

const GH = {
  pattern: '#(?P<id>[0-9]+)',
  url_template: 'https://github.com/zulip/zulip/issues/{id}',
};

describe('linkifier patterns and templates', () => {
  it('compiles the real server\u2019s syntax with RE2\u2019s engine', () => {
    const parsed = parseLinkifierPattern('(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>\\d+)');
    expect(parsed.ok && (parsed.re.exec('see zulip/zulip#123 now') as any)?.groups).toEqual({
      org: 'zulip',
      repo: 'zulip',
      id: '123',
    });
    const ci = parseLinkifierPattern('(?i)ticket-(?P<id>\\d+)');
    expect(ci.ok && ci.re.test('TICKET-9')).toBe(true);
    expect(checkLinkifierPattern('\\bZULIP\\b')).toEqual([]);
    // RE2 names groups with any word characters, digits first included, as upstream accepts.
    expect(checkLinkifierPattern('(?P<1d>a)')).toEqual(['1d']);
    for (const bad of [
      '(?P<id>[0-9]+',
      '(?=x)(?P<id>y)',
      '(?<=#)(?P<id>\\d+)',
      '(?P<id>a)\\1',
      '(?P<a>x)(?P<a>y)',
      '(?x)a',
      'a{1001}',
      '(?:a?){1000}a{1000}',
      'x'.repeat(1001),
      '',
    ]) {
      expect(() => checkLinkifierPattern(bad), bad).toThrow();
    }
    expect(() => checkLinkifierPattern('#(?P<id>[0-9]+')).toThrow(
      'Bad regular expression: missing closing ): `#(?P<id>[0-9]+`',
    );
  });

  it('reads and expands RFC 6570 templates', () => {
    expect(urlTemplateVariables('https://x.org/{id}/{+path}{?q,page}')).toEqual([
      'id',
      'path',
      'q',
      'page',
    ]);
    for (const bad of [
      'https://x.org/{id',
      'https://x.org/id}',
      'https://x.org/{}',
      'https://x.org/{a b}',
      'https://x.org/{!id}',
      'https://x .org',
      'https://x.org/%zz',
    ])
      expect(urlTemplateVariables(bad), bad).toBeNull();
    expect(expandUrlTemplate('https://x.org/{id}{?q}', { id: 'a b', q: 'c/d' })).toBe(
      'https://x.org/a%20b?q=c%2Fd',
    );
    expect(expandUrlTemplate('https://x.org/{+path}', { path: 'a/b c' })).toBe(
      'https://x.org/a/b%20c',
    );
  });
});

describe.each(DATABASES)('linkifiers on %s', (db) => {
  let server: TestServer;
  let admin: TestClient;
  let member: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ db });
    admin = await TestClient.login(server.url, 'iago@example.com', DEMO_PASSWORD);
    member = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
  });
  afterAll(() => server?.close());

  const capable = (c: TestClient, extra: Record<string, unknown> = {}) =>
    c.post('/register', { client_capabilities: { linkifier_url_template: true }, ...extra });

  it('adds a linkifier: the full list goes to clients that understand url_template', async () => {
    const modern = await capable(member, { event_types: ['realm_linkifiers', 'realm_filters'] });
    const legacy = await member.post('/register', {
      event_types: ['realm_linkifiers', 'realm_filters'],
    });
    const r = await admin.post('/realm/filters', GH);
    expect(r.status).toBe(200);
    expect(typeof r.body.id).toBe('number');
    const events = await drain(member, modern.body.queue_id);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'realm_linkifiers',
        realm_linkifiers: [{ ...GH, id: r.body.id }],
      }),
      expect.objectContaining({ type: 'realm_filters', realm_filters: [] }),
    ]);
    expect((await drain(member, legacy.body.queue_id)).map((e) => e.type)).toEqual([
      'realm_filters',
    ]);
    expect(
      (await capable(member, { fetch_event_types: ['realm_linkifiers'] })).body.realm_linkifiers,
    ).toEqual([{ ...GH, id: r.body.id }]);
    expect(
      (await member.post('/register', { fetch_event_types: ['realm_linkifiers'] })).body
        .realm_linkifiers,
    ).toEqual([]);
    expect((await member.get('/realm/linkifiers')).body.linkifiers).toEqual([
      { ...GH, id: r.body.id },
    ]);
  });

  it('refuses bad patterns, bad templates and mismatched groups', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ pattern: '#(?P<id>[0-9]+', url_template: 'https://x.org/{id}' }, 'Bad regular expression'],
      [
        { pattern: '(?<=#)(?P<id>\\d+)', url_template: 'https://x.org/{id}' },
        'Bad regular expression',
      ],
      [{ pattern: '#(?P<id>\\d+)', url_template: 'https://x.org/{id' }, 'Invalid URL template.'],
      [
        { pattern: '#(?P<id>\\d+)', url_template: 'https://x.org/{id}/{other}' },
        "Group 'other' in URL template is not present in linkifier pattern.",
      ],
      [
        { pattern: '(?P<org>\\w+)#(?P<id>\\d+)', url_template: 'https://x.org/{id}' },
        "Group 'org' in linkifier pattern is not present in URL template.",
      ],
      [GH, 'Realm filter with this Realm and Pattern already exists.'],
    ];
    for (const [params, msg] of cases) {
      const r = await admin.post('/realm/filters', params);
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body.code).toBe('BAD_REQUEST');
      expect(r.body.msg).toContain(msg);
    }
    expect((await admin.post('/realm/filters', { pattern: 'x' })).body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'url_template',
    });
    expect(
      (
        await admin.post('/realm/filters', {
          pattern: 'Parley',
          url_template: 'https://parley.example',
        })
      ).status,
    ).toBe(200);
  });

  it('is for administrators only', async () => {
    const r = await member.post('/realm/filters', {
      pattern: 'JIRA-(?P<id>\\d+)',
      url_template: 'https://jira.example/{id}',
    });
    expect(r.body).toMatchObject({
      code: 'UNAUTHORIZED_PRINCIPAL',
      msg: 'Must be an organization administrator',
    });
    const id = (await member.get('/realm/linkifiers')).body.linkifiers[0].id;
    expect((await member.patch(`/realm/filters/${id}`, GH)).body.code).toBe(
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await member.delete(`/realm/filters/${id}`)).body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    expect(
      (await member.patch('/realm/linkifiers', { ordered_linkifier_ids: [id] })).body.code,
    ).toBe('UNAUTHORIZED_PRINCIPAL');
  });

  it('updates, reorders and deletes, sending the new list each time', async () => {
    const q = await capable(member, { event_types: ['realm_linkifiers'] });
    const [gh, parley] = (await member.get('/realm/linkifiers')).body.linkifiers;
    const updated = {
      pattern: 'GH-(?P<id>\\d+)',
      url_template: 'https://github.com/zulip/zulip/pull/{id}',
    };
    expect((await admin.patch(`/realm/filters/${gh.id}`, updated)).status).toBe(200);
    expect(
      (
        await admin.patch(`/realm/filters/${gh.id}`, {
          ...updated,
          url_template: 'https://x/{nope}',
        })
      ).status,
    ).toBe(400);
    expect((await admin.patch('/realm/filters/99999', updated)).body.msg).toBe(
      'Linkifier not found.',
    );
    expect((await admin.patch(`/realm/filters/${parley.id}`, updated)).body.msg).toContain(
      'already exists',
    );

    expect(
      (await admin.patch('/realm/linkifiers', { ordered_linkifier_ids: [parley.id, gh.id] }))
        .status,
    ).toBe(200);
    expect(
      (await admin.patch('/realm/linkifiers', { ordered_linkifier_ids: [parley.id, parley.id] }))
        .body.msg,
    ).toBe('The ordered list must not contain duplicated linkifiers');
    expect(
      (await admin.patch('/realm/linkifiers', { ordered_linkifier_ids: [parley.id] })).body.msg,
    ).toBe('The ordered list must enumerate all existing linkifiers exactly once');
    expect(
      (await admin.patch('/realm/linkifiers', { ordered_linkifier_ids: [parley.id, 99999] }))
        .status,
    ).toBe(400);
    expect((await member.get('/realm/linkifiers')).body.linkifiers.map((l: any) => l.id)).toEqual([
      parley.id,
      gh.id,
    ]);

    expect((await admin.delete(`/realm/filters/${parley.id}`)).status).toBe(200);
    expect((await admin.delete(`/realm/filters/${parley.id}`)).body.msg).toBe(
      'Linkifier not found.',
    );
    const lists = (await drain(member, q.body.queue_id)).map((e) =>
      e.realm_linkifiers.map((l: any) => l.id),
    );
    expect(lists).toEqual([[gh.id, parley.id], [parley.id, gh.id], [gh.id]]);
    expect((await member.get('/realm/linkifiers')).body.linkifiers).toEqual([
      { ...updated, id: gh.id },
    ]);
  });
});
