import type { AppContext } from '../context.js';

/**
 * The organization whose icon /realm-icon/<id>.svg draws: its id and name, or undefined when no
 * organization has that id. Icons are public, as upstream serves them: nobody's permission is
 * asked.
 */
export async function realmForIcon(ctx: AppContext, realmId: number) {
  return ctx.db
    .selectFrom('realms')
    .select(['id', 'name'])
    .where('id', '=', realmId)
    .executeTakeFirst();
}
