import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './fixtures.js';

/** The realm_users copy kept between registrations (register/realm-users.ts), on the in-memory bus. */
describe('the people kept between registrations', () => {
  const w = useServer({ db: 'sqlite', people: ['hamlet'] });
  const { hamlet } = w.as;
  let othelloId: number;
  beforeAll(async () => {
    othelloId = (
      await w.server.ctx.db
        .selectFrom('users')
        .select('id')
        .where('delivery_email', '=', 'othello@example.com')
        .executeTakeFirstOrThrow()
    ).id;
  });

  const othelloName = async () => {
    const body = (await hamlet.post('/register', { fetch_event_types: ['realm_user'] })).body;
    return (body.realm_users as { user_id: number; full_name: string }[]).find(
      (u) => u.user_id === othelloId,
    )?.full_name;
  };

  it('is kept through a status change, and dropped by a change to a person', async () => {
    expect(await othelloName()).toBe('Othello, the Moor of Venice');
    // Behind the server's back (no event): the kept copy still has the old name.
    await w.server.ctx.db
      .updateTable('users')
      .set({ full_name: 'Othello (renamed quietly)' })
      .where('id', '=', othelloId)
      .execute();
    expect(await othelloName()).toBe('Othello, the Moor of Venice');
    // A status is not part of anyone's entry: the copy stays.
    expect((await hamlet.post('/users/me/status', { status_text: 'at lunch' })).status).toBe(200);
    expect(await othelloName()).toBe('Othello, the Moor of Venice');
    // A change to a person (a realm_user event) drops it: the database is read again.
    expect((await hamlet.patch('/settings', { full_name: 'Hamlet, Prince' })).status).toBe(200);
    expect(await othelloName()).toBe('Othello (renamed quietly)');
  });
});
