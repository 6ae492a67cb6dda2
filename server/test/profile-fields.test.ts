import { describe, expect, it } from 'vitest';
import { expectError, expectEventsMatchSpec, expectResponseMatchesSpec } from './people.js';
import { databases, useServer } from './fixtures.js';

describe.each(databases('both'))('custom profile fields on %s', (db) => {
  const t = useServer({ db });
  const f: Record<string, number> = {};

  const create = (params: Record<string, unknown>) =>
    t.as.iago.post('/realm/profile_fields', params);

  it('administrators create fields of every type; everyone hears the whole list', async () => {
    const q = await t.queues(['custom_profile_fields']);
    const phone = await create({
      name: 'Phone',
      hint: 'Where to call you',
      field_type: 1,
      display_in_profile_summary: true,
    });
    expect(phone.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    expectResponseMatchesSpec('POST', '/realm/profile_fields', phone);
    f.phone = phone.body.id;
    const made: [string, Record<string, unknown>][] = [
      ['about', { name: 'About', field_type: 2 }],
      [
        'colour',
        {
          name: 'Favourite colour',
          field_type: 3,
          field_data: { red: { text: 'Red', order: '1' }, blue: { text: 'Blue', order: '2' } },
        },
      ],
      ['birthday', { name: 'Birthday', field_type: 4 }],
      ['homepage', { name: 'Homepage', field_type: 5 }],
      ['mentor', { name: 'Mentor', field_type: 6 }],
      ['github', { field_type: 7, field_data: { subtype: 'github' } }],
      [
        'mastodon',
        {
          name: 'Mastodon',
          field_type: 7,
          field_data: { subtype: 'custom', url_pattern: 'https://mastodon.example/@%(username)s' },
        },
      ],
      ['pronouns', { name: 'Pronouns', field_type: 8, editable_by_user: false }],
    ];
    for (const [key, params] of made) {
      const r = await create(params);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      f[key] = r.body.id;
    }
    const events = await q.events('polonius');
    expect(events).toHaveLength(9);
    expectEventsMatchSpec(events);
    const last = events[8].fields as any[];
    expect(last.map((x) => x.id)).toEqual(Object.values(f));
    expect(last[0]).toEqual({
      id: f.phone,
      name: 'Phone',
      type: 1,
      hint: 'Where to call you',
      field_data: '',
      order: expect.any(Number),
      required: false,
      editable_by_user: true,
      display_in_profile_summary: true,
    });
    expect(last.find((x) => x.id === f.github)).toMatchObject({
      name: 'GitHub username',
      field_data: JSON.stringify({ subtype: 'github' }),
    });
    expect(JSON.parse(last.find((x) => x.id === f.colour).field_data)).toEqual({
      red: { text: 'Red', order: '1' },
      blue: { text: 'Blue', order: '2' },
    });
    const list = await t.as.hamlet.get('/realm/profile_fields');
    expectResponseMatchesSpec('GET', '/realm/profile_fields', list);
    expect(list.body.custom_fields).toEqual(last);
    const reg = (
      await t.as.hamlet.post('/register', { fetch_event_types: ['custom_profile_fields'] })
    ).body;
    expect(reg.custom_profile_fields).toEqual(last);
    expect(reg.custom_profile_field_types.SELECT).toEqual({ id: 3, name: 'List of options' });
  });

  it('refuses bad definitions, and non-administrators', async () => {
    expectError(
      await t.as.hamlet.post('/realm/profile_fields', { name: 'Mine', field_type: 1 }),
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    const missing = await create({ name: 'Typeless' });
    expectError(missing, 'REQUEST_VARIABLE_MISSING');
    expect(missing.body.var_name).toBe('field_type');
    expectError(await create({ name: 'Odd', field_type: 9 }), 'BAD_REQUEST', 'Invalid field type.');
    expectError(
      await create({ name: 'Odd', field_type: 'short' }),
      'BAD_REQUEST',
      'field_type is not an integer',
    );
    expectError(
      await create({ name: '  ', field_type: 1 }),
      'BAD_REQUEST',
      'Label cannot be blank.',
    );
    expectError(
      await create({ name: 'x'.repeat(41), field_type: 1 }),
      'BAD_REQUEST',
      'name is too long (limit: 40 characters)',
    );
    expectError(
      await create({ name: 'Phone', field_type: 1 }),
      'BAD_REQUEST',
      'A field with that label already exists.',
    );
    expectError(
      await create({ name: 'Choice', field_type: 3, field_data: {} }),
      'BAD_REQUEST',
      'Field must have at least one choice.',
    );
    expectError(
      await create({ name: 'Choice', field_type: 3 }),
      'BAD_REQUEST',
      'Field must have at least one choice.',
    );
    expectError(
      await create({ name: 'Choice', field_type: 3, field_data: { a: 'x' } }),
      'BAD_REQUEST',
      'field_data["a"] is not a dict',
    );
    expectError(
      await create({ name: 'Choice', field_type: 3, field_data: { a: { order: '1' } } }),
      'BAD_REQUEST',
      'field_data["a"]["text"] is not a string',
    );
    expectError(
      await create({
        name: 'Choice',
        field_type: 3,
        field_data: { a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } },
      }),
      'BAD_REQUEST',
      'Field must not have duplicate choices.',
    );
    expectError(
      await create({ name: 'Choice', field_type: 3, field_data: '{"a":' }),
      'BAD_REQUEST',
      'Argument "field_data" is not valid JSON.',
    );
    expectError(
      await create({ name: 'Choice', field_type: 3, field_data: ['a'] }),
      'BAD_REQUEST',
      'field_data is not a dict',
    );
    expectError(
      await create({
        name: 'Choice',
        field_type: 3,
        field_data: { a: { text: 'A\u0000', order: '1' } },
      }),
      'BAD_REQUEST',
      'field_data["a"] contains NUL characters',
    );
    expectError(
      await create({ name: 'Account', field_type: 7, field_data: {} }),
      'BAD_REQUEST',
      'subtype key is missing from field_data',
    );
    expectError(
      await create({ name: 'Account', field_type: 7, field_data: { subtype: 'myspace' } }),
      'BAD_REQUEST',
      'Invalid external account type',
    );
    expectError(
      await create({ name: 'Account', field_type: 7, field_data: { subtype: 'custom' } }),
      'BAD_REQUEST',
      'Custom external account must define URL pattern',
    );
    expectError(
      await create({
        name: 'Account',
        field_type: 7,
        field_data: { subtype: 'custom', url_pattern: 'https://x.example/' },
      }),
      'BAD_REQUEST',
      'Malformed URL pattern.',
    );
    for (const type of [2, 6])
      expectError(
        await create({
          name: `Summary ${type}`,
          field_type: type,
          display_in_profile_summary: true,
        }),
        'BAD_REQUEST',
        'Field type not supported for display in profile summary.',
      );
    expect(
      (await create({ name: 'Team', field_type: 1, display_in_profile_summary: true })).status,
    ).toBe(200);
    expectError(
      await create({ name: 'Office', field_type: 1, display_in_profile_summary: true }),
      'BAD_REQUEST',
      'Only 2 custom profile fields can be displayed in the profile summary.',
    );
    f.team = (await t.as.hamlet.get('/realm/profile_fields')).body.custom_fields.find(
      (x: any) => x.name === 'Team',
    ).id;
  });

  it('edits and reorders fields', async () => {
    const q = await t.queues(['custom_profile_fields']);
    const r = await t.as.iago.patch(`/realm/profile_fields/${f.phone}`, {
      name: 'Mobile',
      hint: 'Call me',
      display_in_profile_summary: false,
    });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const [edited] = await q.events('hamlet');
    expect(edited.fields.find((x: any) => x.id === f.phone)).toMatchObject({
      name: 'Mobile',
      hint: 'Call me',
    });
    expect(
      edited.fields.find((x: any) => x.id === f.phone).display_in_profile_summary,
    ).toBeUndefined();
    expectError(
      await t.as.iago.patch(`/realm/profile_fields/${f.about}`, {
        display_in_profile_summary: true,
      }),
      'BAD_REQUEST',
      'Field type not supported for display in profile summary.',
    );
    expectError(
      await t.as.iago.patch(`/realm/profile_fields/${f.github}`, { name: 'Octocat' }),
      'BAD_REQUEST',
      'Default custom field cannot be updated.',
    );
    expectError(
      await t.as.iago.patch(`/realm/profile_fields/${f.about}`, { name: 'Team' }),
      'BAD_REQUEST',
      'A field with that label already exists.',
    );
    expectError(
      await t.as.iago.patch('/realm/profile_fields/99999', { name: 'Ghost' }),
      'BAD_REQUEST',
      'Field id 99999 not found.',
    );
    expectError(
      await t.as.hamlet.patch(`/realm/profile_fields/${f.about}`, { name: 'Bio' }),
      'UNAUTHORIZED_PRINCIPAL',
    );

    const ids = Object.values(f).reverse();
    const order = await t.as.iago.patch('/realm/profile_fields', { order: ids });
    expect(order.body).toEqual({ result: 'success', msg: '' });
    expectResponseMatchesSpec('PATCH', '/realm/profile_fields', order);
    const events = await q.events('hamlet');
    expect(events.at(-1).fields.map((x: any) => x.id)).toEqual(ids);
    expectEventsMatchSpec(events);
    expect(
      (await t.as.hamlet.get('/realm/profile_fields')).body.custom_fields.map((x: any) => x.id),
    ).toEqual(ids);
    expectError(
      await t.as.iago.patch('/realm/profile_fields', { order: ids.slice(1) }),
      'BAD_REQUEST',
      'Invalid order mapping.',
    );
    expectError(
      await t.as.iago.patch('/realm/profile_fields', { order: [...ids.slice(1), ids[1]] }),
      'BAD_REQUEST',
      'Invalid order mapping.',
    );
    expectError(
      await t.as.hamlet.patch('/realm/profile_fields', { order: ids }),
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await t.as.iago.patch('/realm/profile_fields')).body.var_name).toBe('order');
  });

  it('users set their values, validated per type, rendered for text, announced to everyone', async () => {
    const { as: c, id } = t;
    const q = await t.queues(['realm_user']);
    const data = [
      { id: f.phone, value: '+45 1234' },
      { id: f.about, value: 'Prince of **Denmark**' },
      { id: f.colour, value: 'blue' },
      { id: f.birthday, value: '1600-02-29' },
      { id: f.homepage, value: 'https://elsinore.example/hamlet' },
      { id: f.mentor, value: [id.iago, id.desdemona] },
      { id: f.github, value: 'hamlet' },
    ];
    const r = await c.hamlet.patch('/users/me/profile_data', { data });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const events = await q.events('cordelia');
    expect(events).toHaveLength(7);
    expectEventsMatchSpec(events);
    const about = events.find((e) => e.person.custom_profile_field.id === f.about);
    expect(about.person).toEqual({
      user_id: id.hamlet,
      custom_profile_field: {
        id: f.about,
        value: 'Prince of **Denmark**',
        rendered_value: '<p>Prince of <strong>Denmark</strong></p>',
      },
    });
    expect(
      events.find((e) => e.person.custom_profile_field.id === f.mentor).person.custom_profile_field,
    ).toEqual({ id: f.mentor, value: JSON.stringify([id.iago, id.desdemona]) });
    const profile = (
      await c.cordelia.get(`/users/${id.hamlet}`, { include_custom_profile_fields: true })
    ).body.user.profile_data;
    expect(profile[String(f.colour)]).toEqual({ value: 'blue' });
    expect(profile[String(f.phone)]).toEqual({
      value: '+45 1234',
      rendered_value: '<p>+45 1234</p>',
    });
    const reg = (await c.cordelia.post('/register', { fetch_event_types: ['realm_user'] })).body;
    expect(reg.realm_users.find((u: any) => u.user_id === id.hamlet).profile_data).toEqual(profile);

    // Sending the same values again changes nothing.
    expect((await c.hamlet.patch('/users/me/profile_data', { data })).status).toBe(200);
    expect(await q.events('cordelia')).toHaveLength(7);
  });

  it('refuses values that do not fit their field', async () => {
    const { as: c } = t;
    const set = (id: number, value: unknown) =>
      c.hamlet.patch('/users/me/profile_data', { data: [{ id, value }] });
    expectError(await set(f.birthday, 'yesterday'), 'BAD_REQUEST', 'Birthday is not a date');
    expectError(await set(f.birthday, '2023-02-30'), 'BAD_REQUEST', 'Birthday is not a date');
    expectError(
      await set(f.homepage, 'javascript:alert(1)'),
      'BAD_REQUEST',
      'Homepage is not a URL',
    );
    expectError(
      await set(f.colour, 'green'),
      'BAD_REQUEST',
      "'green' is not a valid choice for 'Favourite colour'.",
    );
    expectError(await set(f.mentor, [99999]), 'BAD_REQUEST', 'Invalid user ID: 99999');
    expectError(await set(f.mentor, 'iago'), 'BAD_REQUEST', 'Mentor is not a list of user IDs');
    expectError(
      await set(f.phone, 'x'.repeat(51)),
      'BAD_REQUEST',
      'Mobile is too long (limit: 50 characters)',
    );
    expectError(
      await set(f.about, 'x'.repeat(501)),
      'BAD_REQUEST',
      'About is too long (limit: 500 characters)',
    );
    expectError(await set(f.phone, 123), 'BAD_REQUEST', 'Mobile is not a string');
    expectError(await set(99999, 'x'), 'BAD_REQUEST', 'Field id 99999 not found.');
    expectError(await set(2 ** 53 - 1, 'x'), 'BAD_REQUEST', `Field id ${2 ** 53 - 1} not found.`);
    expectError(await set(f.phone, 'a\u0000b'), 'BAD_REQUEST', 'Mobile contains NUL characters');
    expectError(
      await set(f.mentor, [2 ** 53 - 1]),
      'BAD_REQUEST',
      `Invalid user ID: ${2 ** 53 - 1}`,
    );
    expectError(
      await set(f.pronouns, 'he/him'),
      'BAD_REQUEST',
      'You are not allowed to change this field. Contact an administrator to update it.',
    );
    expectError(
      await c.hamlet.patch('/users/me/profile_data', { data: [{ value: 'x' }] }),
      'BAD_REQUEST',
      'data[0]["id"] is not an integer',
    );
    expectError(
      await c.hamlet.patch('/users/me/profile_data', { data: [{ id: f.phone }] }),
      'BAD_REQUEST',
      'data[0] is missing "value"',
    );
    expectError(
      await c.hamlet.patch('/users/me/profile_data', { data: 'phone' }),
      'BAD_REQUEST',
      'Argument "data" is not valid JSON.',
    );
    expect((await c.hamlet.patch('/users/me/profile_data', {})).body.var_name).toBe('data');
    // Nothing was half-applied by the refused requests.
    expect((await c.hamlet.get('/users/me')).body.profile_data[String(f.phone)].value).toBe(
      '+45 1234',
    );
  });

  it('clears values: by deletion, by an empty value, and when a choice disappears', async () => {
    const { as: c, id } = t;
    const q = await t.queues(['realm_user']);
    const r = await c.hamlet.delete('/users/me/profile_data', { data: [f.phone] });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect(
      (await c.hamlet.patch('/users/me/profile_data', { data: [{ id: f.homepage, value: '' }] }))
        .status,
    ).toBe(200);
    expect(
      (
        await c.iago.patch(`/realm/profile_fields/${f.colour}`, {
          field_data: { red: { text: 'Red', order: '1' } },
        })
      ).status,
    ).toBe(200);
    const events = await q.events('othello');
    expect(events.map((e) => e.person)).toEqual([
      { user_id: id.hamlet, custom_profile_field: { id: f.phone, value: null } },
      { user_id: id.hamlet, custom_profile_field: { id: f.homepage, value: null } },
      { user_id: id.hamlet, custom_profile_field: { id: f.colour, value: null } },
    ]);
    expectEventsMatchSpec(events);
    const profile = (await c.hamlet.get('/users/me')).body.profile_data;
    expect(Object.keys(profile).map(Number).sort()).toEqual(
      [f.about, f.birthday, f.mentor, f.github].sort((a, b) => a - b),
    );
    expectError(
      await c.hamlet.delete('/users/me/profile_data', { data: [99999] }),
      'BAD_REQUEST',
      'Field id 99999 not found.',
    );
  });

  it('administrators set anyone’s values through PATCH /users/{id}, even fields users may not edit', async () => {
    const { as: c, id } = t;
    const q = await t.queues(['realm_user']);
    const r = await c.iago.patch(`/users/${id.othello}`, {
      profile_data: [
        { id: f.pronouns, value: 'he/him' },
        { id: f.team, value: 'Venice' },
      ],
    });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect((await q.events('hamlet')).map((e) => e.person.custom_profile_field.id)).toEqual([
      f.pronouns,
      f.team,
    ]);
    expectError(
      await c.iago.patch(`/users/${id.othello}`, {
        profile_data: [{ id: f.birthday, value: 'soon' }],
      }),
      'BAD_REQUEST',
      'Birthday is not a date',
    );
    expectError(
      await c.iago.patch(`/users/${id.othello}`, { profile_data: [{ id: 'x', value: 'soon' }] }),
      'BAD_REQUEST',
      'profile_data[0]["id"] is not an integer',
    );
    expect(
      (
        await c.iago.patch(`/users/${id.othello}`, {
          profile_data: [{ id: f.pronouns, value: null }],
        })
      ).status,
    ).toBe(200);
    expect((await c.othello.get('/users/me')).body.profile_data).toEqual({
      [String(f.team)]: { value: 'Venice', rendered_value: '<p>Venice</p>' },
    });
  });

  it('deletes a field with everyone’s values', async () => {
    const { as: c, id } = t;
    const q = await t.queues(['custom_profile_fields']);
    expectError(
      await c.hamlet.delete(`/realm/profile_fields/${f.about}`),
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await c.iago.delete(`/realm/profile_fields/${f.about}`)).body).toEqual({
      result: 'success',
      msg: '',
    });
    const [event] = await q.events('hamlet');
    expect(event.fields.map((x: any) => x.id)).not.toContain(f.about);
    expect(
      (await c.othello.get(`/users/${id.hamlet}`, { include_custom_profile_fields: true })).body
        .user.profile_data[String(f.about)],
    ).toBeUndefined();
    expectError(
      await c.iago.delete(`/realm/profile_fields/${f.about}`),
      'BAD_REQUEST',
      `Field id ${f.about} not found.`,
    );
  });
});
