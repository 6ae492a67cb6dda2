// The shared list of personal settings (src/api/model/user-settings.ts) is the only place a setting
// is declared. These tests walk the whole list through the running server, so a setting that some
// other place forgot (the route's parameters, the stored defaults, the register snapshot, the
// events, the legacy top-level fields) fails here by name.
import { describe, expect, it } from 'vitest';
import {
  USER_SETTING_NAMES,
  USER_SETTINGS,
  type UserSettingCheck,
  type UserSettingName,
  type UserSettingSpec,
} from '../../src/api/model/user-settings.js';
import { drain } from './client.js';
import type { Delivery } from '../events/types.js';
import { databases, useServer } from './fixtures.js';

const MODERN = { client_capabilities: { user_settings_object: true } };
const CHOICES = ['available_notification_sounds', 'emojiset_choices'];

/** A valid value of each named rule, other than any default in the list. */
const VALID: Record<UserSettingCheck, string> = {
  language: 'de',
  timezone: 'Asia/Tokyo',
  notification_sound: 'ding',
};

/** A value the setting accepts that differs from its default. */
function otherValue(spec: UserSettingSpec): boolean | number | string {
  switch (spec.kind) {
    case 'bool':
      return !spec.default;
    case 'int':
      return spec.default === spec.min ? spec.max : spec.min;
    case 'enum':
      return (spec.values as readonly (number | string)[]).find((v) => v !== spec.default)!;
    case 'string':
      return VALID[spec.check];
  }
}

const stored = USER_SETTING_NAMES.filter((name) => !('realmUser' in USER_SETTINGS[name]));
const defaults = (names: readonly UserSettingName[]) =>
  Object.fromEntries(names.map((n) => [n, USER_SETTINGS[n].default]));

describe.each(databases('both'))('the user settings list on %s', (db) => {
  const w = useServer({ db, people: ['othello'] });
  const { othello } = w.as;

  it('register sends exactly the list, at its defaults, and the legacy fields it flags', async () => {
    const modern = await othello.post('/register', {
      fetch_event_types: ['user_settings', 'realm_user_settings_defaults'],
      ...MODERN,
    });
    expect(Object.keys(modern.body.user_settings).sort()).toEqual(
      [...USER_SETTING_NAMES, ...CHOICES].sort(),
    );
    expect(modern.body.user_settings).toMatchObject(defaults(stored));
    expect(modern.body.realm_user_settings_defaults).toMatchObject(defaults(stored));
    expect(Object.keys(modern.body.realm_user_settings_defaults).sort()).toEqual(
      [...stored, ...CHOICES].sort(),
    );

    const legacy = await othello.post('/register', { fetch_event_types: ['user_settings'] });
    const flagged = USER_SETTING_NAMES.filter((name) => 'legacy' in USER_SETTINGS[name]);
    // As the reference server answers: the object whenever it is asked for, the old fields besides.
    expect(legacy.body.user_settings).toEqual(modern.body.user_settings);
    for (const name of USER_SETTING_NAMES)
      expect(name in legacy.body, name).toBe(flagged.includes(name));
  });

  it('PATCH /settings accepts every setting of the list, announces each, and register shows it', async () => {
    const queue = await othello.post('/register', { event_types: ['user_settings'], ...MODERN });
    const changes = Object.fromEntries(
      USER_SETTING_NAMES.map((name) => [name, otherValue(USER_SETTINGS[name])]),
    );
    const r = await othello.patch(
      '/settings',
      Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, String(v)])),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.ignored_parameters_unsupported).toBeUndefined();

    const events = await drain(othello, queue.body.queue_id);
    const announced = Object.fromEntries(
      events.filter((e) => e.type === 'user_settings').map((e) => [e.property, e.value]),
    );
    expect(announced).toEqual(changes);

    const after = await othello.post('/register', {
      fetch_event_types: ['user_settings'],
      ...MODERN,
    });
    expect(after.body.user_settings).toMatchObject(changes);
  });

  it('a name outside the list is not a setting', async () => {
    const r = await othello.patch('/settings', { not_in_the_list: 'true' });
    expect(r.body.ignored_parameters_unsupported).toEqual(['not_in_the_list']);
  });
});

// Checked by `tsc -p server/tsconfig.json`: an action cannot emit an event the client's wire
// types (src/api/model/events.ts) don't describe; each @ts-expect-error fails the build if it compiles.
describe('events are typed against the client', () => {
  it('rejects a malformed event at compile time', () => {
    const ok: Delivery = {
      realmId: 1,
      userIds: [1],
      event: { type: 'user_settings', op: 'update', property: 'enter_sends', value: false },
    };
    const badValue: Delivery = {
      realmId: 1,
      userIds: [1],
      // @ts-expect-error enter_sends is a boolean
      event: { type: 'user_settings', op: 'update', property: 'enter_sends', value: 'no' },
    };
    const badName: Delivery = {
      realmId: 1,
      userIds: [1],
      // @ts-expect-error not a setting
      event: { type: 'user_settings', op: 'update', property: 'nope', value: 1 },
    };
    const badShape: Delivery = {
      realmId: 1,
      userIds: [1],
      // @ts-expect-error typing events need a sender
      event: { type: 'typing', op: 'start', message_type: 'direct' },
    };
    expect([ok, badValue, badName, badShape]).toHaveLength(4);
  });
});
