import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownRoutes } from '../http/route.js';
import { DATABASES, startTestServer, type TestServer } from './harness.js';
import { prepare, STEPS, type Vars, type Who } from './endpoints.js';
import { TestClient, type ApiResult } from './client.js';
import { fillPath, OpenApiSpec, SPEC_FILE, specAvailable, type Method } from './openapi.js';
import { ALLOW, EVENT_ALLOW } from './openapi-allow.js';

if (!specAvailable) console.warn(`openapi test: ${SPEC_FILE} is absent; stepping aside`);
const spec = specAvailable ? OpenApiSpec.load() : null;

const eventAllow = (e: { type: string; op?: string }) => ({
  ...EVENT_ALLOW[e.type],
  ...EVENT_ALLOW[`${e.type}:${e.op}`],
});

/** Routes upstream does not describe: validated as the plain success envelope. */
const NOT_UPSTREAM: Record<string, string> = {
  'PATCH /settings/display': 'deprecated alias of PATCH /settings (api-spec.md, Versioning)',
  'PATCH /settings/notifications': 'deprecated alias of PATCH /settings (api-spec.md, Versioning)',
  'PATCH /realm': 'documented upstream only as prose, not in the OpenAPI file',
  'POST /default_stream_groups/create': 'experimental default stream groups: no OpenAPI entry',
  'PATCH /default_stream_groups/{group_id}': 'experimental default stream groups: no OpenAPI entry',
  'PATCH /default_stream_groups/{group_id}/streams':
    'experimental default stream groups: no OpenAPI entry',
  'DELETE /default_stream_groups/{group_id}':
    'experimental default stream groups: no OpenAPI entry',
  'DELETE /user_groups/{user_group_id}':
    'level-222 deletion; upstream now deactivates groups instead',
  'PATCH /realm/profile_fields/{field_id}':
    'not in the OpenAPI file (documented upstream as prose only)',
  'DELETE /realm/profile_fields/{field_id}':
    'not in the OpenAPI file (documented upstream as prose only)',
  'PATCH /users/me/profile_data': "not in the OpenAPI file (the web app's endpoint)",
  'DELETE /users/me/profile_data': "not in the OpenAPI file (the web app's endpoint)",
  'DELETE /bots/{bot_id}': "not in the OpenAPI file (the web app's endpoint)",
  'GET /bots': "not in the OpenAPI file (the web app's endpoint)",
  'PUT /bot_storage': 'not in the OpenAPI file (the zulip_bots state handler uses it)',
  'GET /bot_storage': 'not in the OpenAPI file (the zulip_bots state handler uses it)',
  'DELETE /bot_storage': 'not in the OpenAPI file (the zulip_bots state handler uses it)',
  'POST /submessage': "not in the OpenAPI file (the widgets' endpoint, used by every client)",
  'GET /parley/mail': "a Parley extension: the organization's mail, for administrators",
  'GET /parley/web_public_events':
    'a Parley extension: web-public events for visitors (its JSON answer, without Accept: text/event-stream)',
};

/** The events every queue received, validated one by one after the sweep. */
const EMITTED = [
  'message',
  'subscription:add',
  'subscription:remove',
  'subscription:peer_add',
  'subscription:peer_remove',
  'stream:create',
  'realm_user:add',
  'update_message_flags:add',
  'user_topic',
  'submessage',
  'heartbeat',
];

describe.skipIf(!spec).each(DATABASES)(
  'responses and events match the OpenAPI description on %s',
  (db) => {
    let server: TestServer;
    let clients: Record<Who, TestClient>;
    let v: Vars;
    const sent: { method: string; url: string }[] = [];
    /** successful bodies of operations with an allow-list, to show that each entry is needed */
    const bodies = new Map<string, unknown[]>();
    const events: any[] = [];
    let heartbeat: Promise<ApiResult>;

    beforeAll(async () => {
      server = await startTestServer({ db });
      ({ clients, v } = await prepare(server));
      const hb = await clients.hamlet.post('/register', { event_types: ['heartbeat'] });
      heartbeat = clients.hamlet.get('/events', { queue_id: hb.body.queue_id, last_event_id: -1 });
    });
    afterAll(() => server?.close());

    for (const [i, step] of STEPS.entries()) {
      const label = `${step.method} ${step.path}${step.status ? ` (${step.status})` : ''} #${i}`;
      it(label, async () => {
        const client =
          step.as === 'anon' && step.status === 401
            ? new TestClient(server.url, 'hamlet@example.com', 'not-the-key')
            : clients[step.as ?? 'hamlet'];
        const url = fillPath(step.path, step.pathValues?.(v));
        const r = await client.request(step.method, url, step.params?.(v) ?? {});
        sent.push({ method: step.method, url: `/api/v1${url}` });
        expect(r.status, JSON.stringify(r.body)).toBe(step.status ?? 200);
        const key = `${step.method} ${step.path}`;
        const schemaPath = step.schemaPath ?? step.path;
        const opKey = `${step.method} ${schemaPath}`;
        let errors: string[] | null;
        if (step.component) {
          errors = spec!.validateComponent(step.component, r.body);
        } else if (NOT_UPSTREAM[key] && !step.schemaPath) {
          expect(spec!.operation(step.method, step.path), `${key} is upstream now`).toBeUndefined();
          errors = spec!.validateComponent('JsonSuccess', r.body);
        } else {
          expect(spec!.operation(step.method, schemaPath), `${key} is not upstream`).toBeDefined();
          errors =
            spec!.validateResponse(
              step.method,
              schemaPath,
              r.status,
              r.body,
              Object.keys(ALLOW[opKey] ?? {}),
            ) ??
            spec!.validateComponent(
              r.status === 401
                ? 'InvalidApiKeyError'
                : r.status < 300
                  ? 'JsonSuccessBase'
                  : 'CodedError',
              r.body,
            );
          if (ALLOW[opKey] && r.status === 200)
            bodies.set(opKey, [...(bodies.get(opKey) ?? []), r.body]);
        }
        expect(errors, JSON.stringify(r.body).slice(0, 2000)).toEqual([]);
        step.then?.(r.body, v);
      });
    }

    it('delivers a heartbeat to an idle long-poll, matching its schema', async () => {
      const r = await heartbeat;
      expect(r.body.events.map((e: any) => e.type)).toEqual(['heartbeat']);
      expect(spec!.validateResponse('GET', '/events', 200, r.body)).toEqual([]);
    });

    it('emits only events that match their upstream variants', async () => {
      expect(v.spectatorQueue).toBeNull();
      const seen = new Set<string>(['heartbeat']);
      const problems: string[] = [];
      const owners: Record<string, Who> = {
        hamlet: 'hamlet',
        legacy: 'hamlet',
        othello: 'othello',
        iago: 'iago',
      };
      for (const [name, queueId] of Object.entries(v.q as Record<string, string>)) {
        const r = await clients[owners[name]].get('/events', {
          queue_id: queueId,
          last_event_id: -1,
          dont_block: true,
        });
        expect(spec!.validateResponse('GET', '/events', 200, { ...r.body, events: [] })).toEqual(
          [],
        );
        for (const event of r.body.events) {
          seen.add(event.type);
          if (event.op) seen.add(`${event.type}:${event.op}`);
          events.push(event);
          for (const error of spec!.validateEvent(event, Object.keys(eventAllow(event))))
            problems.push(
              `${name} ${event.type}:${event.op ?? ''} ${error} in ${JSON.stringify(event).slice(0, 300)}`,
            );
        }
        const gone = await clients[owners[name]].delete('/events', { queue_id: queueId });
        sent.push({ method: 'DELETE', url: '/api/v1/events' });
        expect(spec!.validateResponse('DELETE', '/events', gone.status, gone.body)).toEqual([]);
      }
      expect(problems).toEqual([]);
      for (const type of EMITTED) expect([...seen]).toContain(type);
    });

    it('needs every entry of its allow-lists', () => {
      // "/groups/0/streams/0 must be integer" mentions groups.streams; "... property 'x'" mentions x.
      const mentions = (errors: string[], name: string) =>
        errors.some((e) => {
          const [path, ...rest] = e.split(' ');
          const quoted = /'([^']+)'/.exec(rest.join(' '))?.[1];
          const segments = [
            ...path.split('/').filter((s) => s && !/^\d+$/.test(s)),
            ...(quoted ? [quoted] : []),
          ];
          return `.${segments.join('.')}.`.includes(`.${name}.`);
        });
      for (const [op, allowed] of Object.entries(ALLOW)) {
        const [method, path] = op.split(' ') as [Method, string];
        const errors = (bodies.get(op) ?? []).flatMap(
          (b) => spec!.validateResponse(method, path, 200, b) ?? [],
        );
        for (const name of Object.keys(allowed))
          expect(mentions(errors, name), `${op}: ${name}`).toBe(true);
      }
      for (const [key, allowed] of Object.entries(EVENT_ALLOW)) {
        const errors = events
          .filter((e) => key === e.type || key === `${e.type}:${e.op}`)
          .flatMap((e) => spec!.validateEvent(e));
        for (const name of Object.keys(allowed))
          expect(mentions(errors, name), `${key}: ${name}`).toBe(true);
      }
    });

    it('has called every endpoint the server registers', () => {
      const routes = new Map(knownRoutes.map((r) => [`${r.method} ${r.pattern.source}`, r]));
      const missed = [...routes.values()]
        .filter((r) => !sent.some((s) => s.method === r.method && r.pattern.test(s.url)))
        .map((r) => `${r.method} ${r.pattern.source}`);
      expect(missed).toEqual([]);
    });
  },
);
