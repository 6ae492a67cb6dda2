import { describe, expect, it } from 'vitest';
import { eg } from '../test/eg';
import { reduceUsers, usersFromSnapshot } from './users';

const initial = () => usersFromSnapshot(eg.registerResponse());

describe('reduceUsers', () => {
  it('adds a user', () => {
    const person = eg.user({ user_id: 50, full_name: 'New Person' });
    expect(
      reduceUsers(initial(), { id: 1, type: 'realm_user', op: 'add', person }).byId[50].full_name,
    ).toBe('New Person');
  });

  it('takes a new avatar without the event-only source and medium-size fields', () => {
    const next = reduceUsers(initial(), {
      id: 1,
      type: 'realm_user',
      op: 'update',
      person: {
        user_id: 2,
        avatar_url: '/avatar/2?v=3',
        avatar_version: 3,
        avatar_source: 'U',
        avatar_url_medium: '/avatar/2/medium?v=3',
      } as never,
    });
    expect(next.byId[2].avatar_url).toBe('/avatar/2?v=3');
    expect(next.byId[2].avatar_version).toBe(3);
    expect(Object.keys(next.byId[2])).not.toContain('avatar_source');
    expect(Object.keys(next.byId[2])).not.toContain('avatar_url_medium');
  });

  it('updates fields of a user, and returns the same state when nothing changes', () => {
    const renamed = reduceUsers(initial(), {
      id: 1,
      type: 'realm_user',
      op: 'update',
      person: { user_id: 2, full_name: 'Renamed' },
    });
    expect(renamed.byId[2].full_name).toBe('Renamed');
    expect(renamed.byId[2].email).toBe(eg.otherUser.email);
    expect(
      reduceUsers(renamed, {
        id: 2,
        type: 'realm_user',
        op: 'update',
        person: { user_id: 2, full_name: 'Renamed' },
      }),
    ).toBe(renamed);
    expect(
      reduceUsers(renamed, {
        id: 3,
        type: 'realm_user',
        op: 'update',
        person: { user_id: 404, full_name: 'x' },
      }),
    ).toBe(renamed);
  });

  it('deactivates on update is_active and on remove, keeping the name', () => {
    const deactivated = reduceUsers(initial(), {
      id: 1,
      type: 'realm_user',
      op: 'update',
      person: { user_id: 2, is_active: false },
    });
    expect(deactivated.byId[2].is_active).toBe(false);
    const removed = reduceUsers(initial(), {
      id: 1,
      type: 'realm_user',
      op: 'remove',
      person: { user_id: 3, full_name: 'Third User' },
    });
    expect(removed.byId[3]).toMatchObject({ is_active: false, full_name: 'Third User' });
  });
});
