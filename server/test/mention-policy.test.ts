import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../actions/users.js';
import { DEMO_PASSWORD } from './harness.js';
import { TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';

/**
 * Mentions follow the organization's policies (issue 20): wildcard mentions by
 * `wildcard_mention_policy` above 15 people, group mentions by the group's `can_mention_group`,
 * when sending and when editing; silent mentions and direct messages are never refused.
 */

const STREAM_REFUSED = {
  result: 'error',
  code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
  msg: 'You do not have permission to use channel wildcard mentions in this channel.',
};
const TOPIC_REFUSED = {
  result: 'error',
  code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
  msg: 'You do not have permission to use topic wildcard mentions in this topic.',
};

describe.each(databases('both'))('mention policies on %s', (db) => {
  const w = useServer({ db });
  let hamlet: TestClient;
  let iago: TestClient;
  let desdemona: TestClient;
  let crowd: TestClient[];
  let townHall: number;

  const send = (client: TestClient, to: number, topic: string, content: string) =>
    client.post('/messages', { type: 'stream', to, topic, content });

  beforeAll(async () => {
    [hamlet, iago, desdemona] = await Promise.all(
      ['hamlet', 'iago', 'desdemona'].map((n) =>
        TestClient.login(w.server.url, `${n}@example.com`, DEMO_PASSWORD),
      ),
    );
    // Sixteen more people make a channel and a topic larger than the threshold of 15.
    const realm = await w.server.ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
    crowd = [];
    for (let i = 0; i < 16; i++) {
      const u = await createUser(w.server.ctx, realm, {
        email: `citizen${i}@example.com`,
        fullName: `Citizen ${i}`,
        password: null,
      });
      crowd.push(new TestClient(w.server.url, u.email, u.api_key));
    }
    const made = await iago.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'town hall' }],
      principals: ['hamlet@example.com', ...crowd.map((c) => c.email!)],
    });
    expect(made.body).toMatchObject({ result: 'success' });
    townHall = (await iago.get('/get_stream_id', { stream: 'town hall' })).body.stream_id;
  });

  it('keeps channel wildcard mentions in large channels to those the policy allows', async () => {
    // The default policy: administrators.
    expect((await send(hamlet, townHall, 'news', '@**all** listen up')).body).toMatchObject(
      STREAM_REFUSED,
    );
    expect((await send(hamlet, townHall, 'news', '@**channel** listen up')).body).toMatchObject(
      STREAM_REFUSED,
    );
    expect((await send(hamlet, townHall, 'news', 'quietly: @_**all**')).body).toMatchObject({
      result: 'success',
    });
    expect(
      (await send(iago, townHall, 'news', '@**all** from an administrator')).body,
    ).toMatchObject({ result: 'success' });
    // Small channels and direct messages take them from anyone.
    expect(
      (await send(hamlet, w.stream.engineering, 'news', '@**all** in a small channel')).body,
    ).toMatchObject({ result: 'success' });
    const dm = await hamlet.post('/messages', {
      type: 'direct',
      to: ['othello@example.com'],
      content: '@**all** of us two',
    });
    expect(dm.body).toMatchObject({ result: 'success' });

    expect((await desdemona.patch('/realm', { wildcard_mention_policy: 2 })).body).toMatchObject({
      result: 'success',
    });
    expect((await send(hamlet, townHall, 'news', '@**all** now members may')).body).toMatchObject({
      result: 'success',
    });
    expect((await desdemona.patch('/realm', { wildcard_mention_policy: 6 })).body).toMatchObject({
      result: 'success',
    });
    expect((await send(iago, townHall, 'news', '@**everyone** nobody may')).body).toMatchObject(
      STREAM_REFUSED,
    );
    expect((await desdemona.patch('/realm', { wildcard_mention_policy: 5 })).body).toMatchObject({
      result: 'success',
    });
  });

  it('keeps topic wildcard mentions in busy topics to those the policy allows', async () => {
    expect(
      (await send(hamlet, townHall, 'small talk', '@**topic** few of us here')).body,
    ).toMatchObject({ result: 'success' });
    for (const [i, citizen] of crowd.entries())
      expect((await send(citizen, townHall, 'busy', `hello from ${i}`)).body).toMatchObject({
        result: 'success',
      });
    expect(
      (await send(hamlet, townHall, 'busy', '@**topic** everybody in here')).body,
    ).toMatchObject(TOPIC_REFUSED);
    expect((await send(iago, townHall, 'busy', '@**topic** everybody in here')).body).toMatchObject(
      { result: 'success' },
    );
  });

  it('refuses a wildcard added by an edit where a send could not make it', async () => {
    const id = (await send(hamlet, townHall, 'edits', 'plain')).body.id;
    expect(
      (await hamlet.patch(`/messages/${id}`, { content: 'plain @**all**' })).body,
    ).toMatchObject(STREAM_REFUSED);
    expect((await hamlet.get(`/messages/${id}`)).body.raw_content).toBe('plain');
  });

  it("lets only the group's can_mention_group mention a group", async () => {
    const groups = (await iago.post('/register', { fetch_event_types: ['realm_user_groups'] })).body
      .realm_user_groups as any[];
    const admins = groups.find((g) => g.name === 'role:administrators').id;
    const made = await iago.post('/user_groups/create', {
      name: 'leads',
      description: 'Team leads',
      members: [],
      can_mention_group: admins,
    });
    expect(made.body).toMatchObject({ result: 'success' });
    const refused = {
      result: 'error',
      code: 'BAD_REQUEST',
      msg: "You are not allowed to mention user group 'leads'.",
    };
    expect((await send(hamlet, w.stream.general, 'groups', 'ping @*leads*')).body).toMatchObject(
      refused,
    );
    expect(
      (
        await hamlet.post('/messages', {
          type: 'direct',
          to: ['iago@example.com'],
          content: 'ping @*leads*',
        })
      ).body,
    ).toMatchObject(refused);
    expect(
      (await send(hamlet, w.stream.general, 'groups', 'silently @_*leads*')).body,
    ).toMatchObject({
      result: 'success',
    });
    expect((await send(iago, w.stream.general, 'groups', 'ping @*leads*')).body).toMatchObject({
      result: 'success',
    });
    const id = (await send(hamlet, w.stream.general, 'groups', 'no mention yet')).body.id;
    expect((await hamlet.patch(`/messages/${id}`, { content: 'now @*leads*' })).body).toMatchObject(
      refused,
    );
  });
});
