import { describe, expect, it } from 'vitest';
import type { CustomProfileField, RealmUserEvent } from '../api/model';
import { parseEvent } from '../api/parse-event';
import { eg } from '../test/eg';
import { accountStateFromSnapshot, reduceAccountEvent } from './account-state';
import { fieldChoices, profileFieldsFromSnapshot, reduceProfileFields } from './profile-fields';
import { reduceUsers, usersFromSnapshot } from './users';

const field = (overrides: Partial<CustomProfileField> & { id: number }): CustomProfileField => ({
  type: 1,
  order: overrides.id,
  name: `Field ${overrides.id}`,
  hint: '',
  field_data: '',
  ...overrides,
});

const other = eg.otherUser.user_id;

const valueChange = (id: number, value: string | null, rendered_value?: string) =>
  ({
    id: 1,
    type: 'realm_user',
    op: 'update',
    person: { user_id: other, custom_profile_field: { id, value, rendered_value } },
  }) satisfies RealmUserEvent;

describe('custom profile fields', () => {
  const register = () =>
    eg.registerResponse({
      custom_profile_fields: [field({ id: 1, name: 'Office' }), field({ id: 2, name: 'Team' })],
      realm_users: [
        eg.selfUser,
        {
          ...eg.otherUser,
          profile_data: { 1: { value: 'Attic', rendered_value: '<p>Attic</p>' } },
        },
      ],
    });

  it('replaces the definitions, keeping the old object when the list is the same', () => {
    const state = profileFieldsFromSnapshot(register());
    const same = reduceProfileFields(state, {
      id: 1,
      type: 'custom_profile_fields',
      fields: [field({ id: 1, name: 'Office' }), field({ id: 2, name: 'Team' })],
    });
    expect(same).toBe(state);
    const reordered = reduceProfileFields(state, {
      id: 2,
      type: 'custom_profile_fields',
      fields: [field({ id: 2, name: 'Team', order: 0 }), field({ id: 1, name: 'Office' })],
    });
    expect(reordered.fields.map((f) => f.id)).toEqual([2, 1]);
  });

  it("sets, re-renders and clears a user's value without touching the user's other fields", () => {
    let users = usersFromSnapshot(register());
    users = reduceUsers(users, valueChange(2, 'crew'));
    expect(users.byId[other].profile_data).toEqual({
      1: { value: 'Attic', rendered_value: '<p>Attic</p>' },
      2: { value: 'crew' },
    });
    expect(users.byId[other]).not.toHaveProperty('custom_profile_field');
    users = reduceUsers(users, valueChange(1, null));
    expect(users.byId[other].profile_data).toEqual({ 2: { value: 'crew' } });
    expect(reduceUsers(users, valueChange(1, null))).toBe(users);
    expect(reduceUsers(users, valueChange(2, 'crew'))).toBe(users);
  });

  it("drops users' values for fields that were deleted", () => {
    const state = accountStateFromSnapshot(register());
    const next = reduceAccountEvent(
      state,
      parseEvent({ id: 3, type: 'custom_profile_fields', fields: [field({ id: 2 })] }),
      0,
    );
    expect(next.profileFields.fields.map((f) => f.id)).toEqual([2]);
    expect(next.users.byId[other].profile_data).toEqual({});
    expect(next.users.byId[eg.selfUser.user_id]).toBe(state.users.byId[eg.selfUser.user_id]);
  });

  it('lists the choices of a choice field in their order', () => {
    const team = field({
      id: 3,
      type: 3,
      field_data: JSON.stringify({
        b: { text: 'Crew', order: '2' },
        a: { text: 'Actors', order: '1' },
      }),
    });
    expect(fieldChoices(team)).toEqual([
      { key: 'a', text: 'Actors' },
      { key: 'b', text: 'Crew' },
    ]);
    expect(fieldChoices(field({ id: 4 }))).toEqual([]);
  });
});
