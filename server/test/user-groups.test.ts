import { beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { expectError, expectEventsMatchSpec, expectResponseMatchesSpec } from './people.js';
import { databases, useServer } from './fixtures.js';

describe.each(databases('both'))('user groups on %s', (db) => {
  const t = useServer({ db });
  let system: Record<string, number>;
  const groupId = async (name: string) =>
    ((await t.as.iago.get('/user_groups')).body.user_groups as any[]).find((g) => g.name === name)
      ?.id as number;

  beforeAll(async () => {
    const groups = (await t.as.iago.get('/user_groups')).body.user_groups as any[];
    system = Object.fromEntries(groups.filter((g) => g.is_system_group).map((g) => [g.name, g.id]));
  });

  it('creates a group, telling everyone, and lists it as register does', async () => {
    const { as: c, id } = t;
    const q = await t.queues(['user_group']);
    const r = await c.hamlet.post('/user_groups/create', {
      name: 'support',
      description: 'Help desk',
      members: [id.othello, id.hamlet],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expectResponseMatchesSpec('POST', '/user_groups/create', r);
    const group = {
      id: r.body.group_id,
      name: 'support',
      description: 'Help desk',
      members: [id.hamlet, id.othello].sort((a, b) => a - b),
      direct_subgroup_ids: [],
      is_system_group: false,
      can_mention_group: system['role:everyone'],
      date_created: expect.any(Number),
      creator_id: id.hamlet,
      deactivated: false,
    };
    for (const who of ['cordelia', 'polonius'] as const) {
      const events = await q.events(who);
      expect(events).toEqual([{ type: 'user_group', op: 'add', group, id: 0 }]);
      expectEventsMatchSpec(events);
    }
    const list = await c.cordelia.get('/user_groups');
    expectResponseMatchesSpec('GET', '/user_groups', list);
    expect(list.body.user_groups).toContainEqual(group);
    const reg = (await c.cordelia.post('/register', { fetch_event_types: ['realm_user_groups'] }))
      .body;
    expect(reg.realm_user_groups).toEqual(list.body.user_groups);
  });

  it('refuses bad names, unknown users and groups, and system groups that may not mention', async () => {
    const { as: c, id } = t;
    const create = (params: Record<string, unknown>) =>
      c.hamlet.post('/user_groups/create', { name: 'x', description: '', members: [], ...params });
    const missing = await c.hamlet.post('/user_groups/create', { description: '', members: [] });
    expectError(missing, 'REQUEST_VARIABLE_MISSING');
    expect(missing.body.var_name).toBe('name');
    expect(
      (await c.hamlet.post('/user_groups/create', { name: 'x', description: '' })).body.var_name,
    ).toBe('members');
    expectError(
      await create({ members: [id.hamlet, 99999] }),
      'BAD_REQUEST',
      'Invalid user ID: 99999',
    );
    expectError(
      await create({ members: [2 ** 53 - 1] }),
      'BAD_REQUEST',
      `Invalid user ID: ${2 ** 53 - 1}`,
    );
    expectError(
      await create({ can_mention_group: 2 ** 53 - 1 }),
      'BAD_REQUEST',
      'Invalid user group',
    );
    expectError(
      await create({ members: '[1,' }),
      'BAD_REQUEST',
      'Argument "members" is not valid JSON.',
    );
    expectError(
      await create({ members: ['hamlet'] }),
      'BAD_REQUEST',
      'members[0] is not an integer',
    );
    expectError(
      await create({ name: 'support' }),
      'BAD_REQUEST',
      "User group 'support' already exists.",
    );
    expectError(
      await create({ name: 'role:helpers' }),
      'BAD_REQUEST',
      "User group name cannot start with 'role:'.",
    );
    expectError(await create({ name: '   ' }), 'BAD_REQUEST', "User group name can't be empty!");
    expectError(
      await create({ name: 'x'.repeat(101) }),
      'BAD_REQUEST',
      'User group name cannot exceed 100 characters.',
    );
    for (const name of ['role:internet', 'role:owners'])
      expectError(
        await create({ can_mention_group: system[name] }),
        'BAD_REQUEST',
        `'can_mention_group' setting cannot be set to '${name}' group.`,
      );
    expectError(await create({ can_mention_group: 99999 }), 'BAD_REQUEST', 'Invalid user group');
    expectError(
      await create({ can_mention_group: 'everyone' }),
      'BAD_REQUEST',
      'can_mention_group is not an integer',
    );
    expectError(
      await c.polonius.post('/user_groups/create', {
        name: 'guests',
        description: '',
        members: [],
      }),
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    const mods = await create({
      name: 'mods can mention',
      can_mention_group: system['role:moderators'],
    });
    expect(mods.status).toBe(200);
    expect(
      (await c.hamlet.get('/user_groups')).body.user_groups.find(
        (g: any) => g.id === mods.body.group_id,
      ).can_mention_group,
    ).toBe(system['role:moderators']);
  });

  it("follows the organization's user_group_edit_policy; guests and bots may not list groups", async () => {
    const { as: c } = t;
    const attempt = (who: TestClient, name: string) =>
      who.post('/user_groups/create', { name, description: '', members: [] });
    const policy = async (v: number) =>
      expect((await c.iago.patch('/realm', { user_group_edit_policy: v })).status).toBe(200);
    await policy(2);
    expectError(await attempt(c.hamlet, 'p2-member'), 'BAD_REQUEST', 'Insufficient permission');
    expectError(await attempt(c.shiva, 'p2-moderator'), 'BAD_REQUEST', 'Insufficient permission');
    expect((await attempt(c.iago, 'p2-admin')).status).toBe(200);
    await policy(4);
    expectError(await attempt(c.hamlet, 'p4-member'), 'BAD_REQUEST', 'Insufficient permission');
    expect((await attempt(c.shiva, 'p4-moderator')).status).toBe(200);
    await policy(3);
    expect((await attempt(c.hamlet, 'p3-member')).status).toBe(200);
    await policy(1);
    expectError(await c.polonius.get('/user_groups'), 'BAD_REQUEST', 'Not allowed for guest users');
    const bot = await t.server.ctx.db
      .selectFrom('users')
      .select(['email', 'api_key'])
      .where('email', '=', 'hamlet-bot@parley.bots')
      .executeTakeFirstOrThrow();
    expectError(
      await new TestClient(t.server.url, bot.email, bot.api_key).get('/user_groups'),
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });

  it('updates name, description and can_mention_group for members and moderators of the group', async () => {
    const { as: c } = t;
    const support = await groupId('support');
    const q = await t.queues(['user_group']);
    const r = await c.hamlet.patch(`/user_groups/${support}`, {
      name: 'helpers',
      description: 'We help',
    });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expectResponseMatchesSpec('PATCH', '/user_groups/{user_group_id}', r);
    expect(
      (
        await c.shiva.patch(`/user_groups/${support}`, {
          can_mention_group: system['role:members'],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await c.shiva.patch(`/user_groups/${support}`, {
          can_mention_group: JSON.stringify({
            new: system['role:everyone'],
            old: system['role:members'],
          }),
        })
      ).status,
    ).toBe(200);
    const events = await q.events('cordelia');
    expect(events.map((e) => [e.op, e.group_id, e.data])).toEqual([
      ['update', support, { name: 'helpers' }],
      ['update', support, { description: 'We help' }],
      ['update', support, { can_mention_group: system['role:members'] }],
      ['update', support, { can_mention_group: system['role:everyone'] }],
    ]);
    expectEventsMatchSpec(events);
    expectError(
      await c.shiva.patch(`/user_groups/${support}`, {
        can_mention_group: JSON.stringify({
          new: system['role:members'],
          old: system['role:nobody'],
        }),
      }),
      'BAD_REQUEST',
      "'old' value does not match the expected value.",
    );
    expectError(
      await c.shiva.patch(`/user_groups/${support}`, { can_mention_group: system['role:owners'] }),
      'BAD_REQUEST',
      "'can_mention_group' setting cannot be set to 'role:owners' group.",
    );
    expectError(
      await c.hamlet.patch(`/user_groups/${support}`, {}),
      'BAD_REQUEST',
      'No new data supplied',
    );
    expectError(
      await c.cordelia.patch(`/user_groups/${support}`, { name: 'mine' }),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await c.hamlet.patch(`/user_groups/${support}`, { name: 'mods can mention' }),
      'BAD_REQUEST',
      "User group 'mods can mention' already exists.",
    );
    expectError(
      await c.iago.patch(`/user_groups/${system['role:members']}`, { name: 'everybody' }),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await c.iago.patch('/user_groups/99999', { name: 'ghost' }),
      'BAD_REQUEST',
      'Invalid user group',
    );
    expectError(await c.iago.patch('/user_groups/abc', { name: 'ghost' }), 'NOT_FOUND');
  });

  it('adds and removes members, and answers membership questions', async () => {
    const { as: c, id } = t;
    const helpers = await groupId('helpers');
    const q = await t.queues(['user_group']);
    const r = await c.hamlet.post(`/user_groups/${helpers}/members`, {
      add: [id.cordelia],
      delete: [id.othello],
    });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expectResponseMatchesSpec('POST', '/user_groups/{user_group_id}/members', r);
    const events = await q.events('polonius');
    expect(events).toEqual([
      expect.objectContaining({
        type: 'user_group',
        op: 'add_members',
        group_id: helpers,
        user_ids: [id.cordelia],
      }),
      expect.objectContaining({
        type: 'user_group',
        op: 'remove_members',
        group_id: helpers,
        user_ids: [id.othello],
      }),
    ]);
    expectEventsMatchSpec(events);
    expectError(
      await c.hamlet.post(`/user_groups/${helpers}/members`, { add: [id.cordelia] }),
      'BAD_REQUEST',
      `User ${id.cordelia} is already a member of this group`,
    );
    expectError(
      await c.hamlet.post(`/user_groups/${helpers}/members`, { delete: [id.othello] }),
      'BAD_REQUEST',
      `There is no member '${id.othello}' in this user group`,
    );
    expectError(
      await c.hamlet.post(`/user_groups/${helpers}/members`, { add: [99999] }),
      'BAD_REQUEST',
      'Invalid user ID: 99999',
    );
    expectError(
      await c.hamlet.post(`/user_groups/${helpers}/members`, {}),
      'BAD_REQUEST',
      'Nothing to do. Specify at least one of "add" or "delete".',
    );
    expectError(
      await c.othello.post(`/user_groups/${helpers}/members`, { add: [id.othello] }),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await c.iago.post(`/user_groups/${system['role:moderators']}/members`, { add: [id.hamlet] }),
      'BAD_REQUEST',
      'Insufficient permission',
    );

    const members = await c.othello.get(`/user_groups/${helpers}/members`);
    expect(members.body.members).toEqual([id.hamlet, id.cordelia].sort((a, b) => a - b));
    expectResponseMatchesSpec('GET', '/user_groups/{user_group_id}/members', members);
    const yes = await c.othello.get(`/user_groups/${helpers}/members/${id.cordelia}`);
    expect(yes.body).toEqual({ result: 'success', msg: '', is_user_group_member: true });
    expectResponseMatchesSpec('GET', '/user_groups/{user_group_id}/members/{user_id}', yes);
    expect(
      (await c.othello.get(`/user_groups/${helpers}/members/${id.othello}`)).body
        .is_user_group_member,
    ).toBe(false);
    expectError(
      await c.othello.get(`/user_groups/${helpers}/members/99999`),
      'BAD_REQUEST',
      'No such user',
    );
    expectError(
      await c.othello.get('/user_groups/99999/members'),
      'BAD_REQUEST',
      'Invalid user group',
    );

    // Role groups: administrators directly, owners through the subgroup.
    const admins = system['role:administrators'];
    expect((await c.othello.get(`/user_groups/${admins}/members`)).body.members).toEqual(
      [id.desdemona, id.iago].sort((a, b) => a - b),
    );
    expect(
      (await c.othello.get(`/user_groups/${admins}/members`, { direct_member_only: true })).body
        .members,
    ).toEqual([id.iago]);
    expect(
      (await c.othello.get(`/user_groups/${admins}/members/${id.desdemona}`)).body
        .is_user_group_member,
    ).toBe(true);
    expect(
      (
        await c.othello.get(`/user_groups/${admins}/members/${id.desdemona}`, {
          direct_member_only: true,
        })
      ).body.is_user_group_member,
    ).toBe(false);
  });

  it('nests groups without cycles', async () => {
    const { as: c, id } = t;
    const helpers = await groupId('helpers');
    const leads = (
      await c.iago.post('/user_groups/create', {
        name: 'leads',
        description: 'Leads',
        members: [id.iago],
      })
    ).body.group_id;
    const q = await t.queues(['user_group']);
    const r = await c.hamlet.post(`/user_groups/${helpers}/subgroups`, { add: [leads] });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expectResponseMatchesSpec('POST', '/user_groups/{user_group_id}/subgroups', r);
    expect((await c.hamlet.get(`/user_groups/${helpers}/members`)).body.members).toContain(id.iago);
    expect(
      (await c.hamlet.get(`/user_groups/${helpers}/members`, { direct_member_only: true })).body
        .members,
    ).not.toContain(id.iago);
    const subs = await c.hamlet.get(`/user_groups/${helpers}/subgroups`);
    expect(subs.body.subgroups).toEqual([leads]);
    expectResponseMatchesSpec('GET', '/user_groups/{user_group_id}/subgroups', subs);
    expect(
      (await c.hamlet.get(`/user_groups/${system['role:moderators']}/subgroups`)).body.subgroups,
    ).toEqual([system['role:administrators'], system['role:owners']].sort((a, b) => a - b));
    expect(
      (
        await c.hamlet.get(`/user_groups/${system['role:moderators']}/subgroups`, {
          direct_subgroup_only: true,
        })
      ).body.subgroups,
    ).toEqual([system['role:administrators']]);

    expectError(
      await c.hamlet.post(`/user_groups/${helpers}/subgroups`, { add: [leads] }),
      'BAD_REQUEST',
      `User group ${leads} is already a subgroup of this group.`,
    );
    expectError(
      await c.iago.post(`/user_groups/${leads}/subgroups`, { add: [helpers] }),
      'BAD_REQUEST',
      `User group ${leads} is already a subgroup of one of the passed subgroups.`,
    );
    expectError(
      await c.iago.post(`/user_groups/${leads}/subgroups`, { add: [leads] }),
      'BAD_REQUEST',
      `User group ${leads} is already a subgroup of one of the passed subgroups.`,
    );
    expectError(
      await c.hamlet.post(`/user_groups/${helpers}/subgroups`, { add: [99999] }),
      'BAD_REQUEST',
      'Invalid user group ID: 99999',
    );
    expectError(
      await c.hamlet.post(`/user_groups/${helpers}/subgroups`, {}),
      'BAD_REQUEST',
      'Nothing to do. Specify at least one of "add" or "delete".',
    );
    expect(
      (await c.hamlet.post(`/user_groups/${helpers}/subgroups`, { delete: [leads] })).status,
    ).toBe(200);
    expectError(
      await c.hamlet.post(`/user_groups/${helpers}/subgroups`, { delete: [leads] }),
      'BAD_REQUEST',
      `User group ${leads} is not a subgroup of this group.`,
    );
    const events = await q.events('othello');
    expect(events.map((e) => [e.op, e.group_id, e.direct_subgroup_ids])).toEqual([
      ['add_subgroups', helpers, [leads]],
      ['remove_subgroups', helpers, [leads]],
    ]);
    expectEventsMatchSpec(events);
  });

  it('deletes groups: parents lose them first; groups in use and system groups stay', async () => {
    const { as: c, id } = t;
    const helpers = await groupId('helpers');
    const leads = await groupId('leads');
    expect((await c.iago.post(`/user_groups/${leads}/subgroups`, { add: [helpers] })).status).toBe(
      200,
    );
    const q = await t.queues(['user_group']);
    expectError(
      await c.othello.delete(`/user_groups/${helpers}`),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await c.iago.delete(`/user_groups/${system['role:members']}`),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(await c.iago.delete('/user_groups/99999'), 'BAD_REQUEST', 'Invalid user group');
    const r = await c.hamlet.delete(`/user_groups/${helpers}`);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const events = await q.events('shiva');
    expect(events).toEqual([
      expect.objectContaining({
        type: 'user_group',
        op: 'remove_subgroups',
        group_id: leads,
        direct_subgroup_ids: [helpers],
      }),
      expect.objectContaining({ type: 'user_group', op: 'remove', group_id: helpers }),
    ]);
    expectEventsMatchSpec(events);
    const after = (await c.hamlet.get('/user_groups')).body.user_groups as any[];
    expect(after.map((g) => g.id)).not.toContain(helpers);
    expect(after.find((g) => g.id === leads).direct_subgroup_ids).toEqual([]);
    // Deleting frees the name.
    expect(
      (
        await c.hamlet.post('/user_groups/create', {
          name: 'helpers',
          description: '',
          members: [id.hamlet],
        })
      ).status,
    ).toBe(200);

    const quiet = (
      await c.iago.post('/user_groups/create', {
        name: 'quiet',
        description: '',
        members: [id.iago],
      })
    ).body.group_id;
    expect((await c.iago.patch(`/user_groups/${leads}`, { can_mention_group: quiet })).status).toBe(
      200,
    );
    expectError(await c.iago.delete(`/user_groups/${quiet}`), 'BAD_REQUEST', /in use|uses it/);
  });
});
