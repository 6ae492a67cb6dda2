/**
 * What the Markdown renderer needs from the database to render a message, read as narrowly as
 * its text allows. In actions/ rather than lib/ because custom emoji are read through
 * realm-emoji.ts, which lives here with the emoji writes.
 */
import type { Database } from '../db/index.js';
import type { DB, Realm, User } from '../db/schema.js';
import type { ExpressionBuilder } from 'kysely';
import {
  markdownReferences,
  type MarkdownContext,
  type MarkdownReferences,
} from '../markdown/index.js';
import { canSeeStream, subscribedStreamIds } from '../lib/access.js';
import { isDbId } from '../lib/admin-checks.js';
import { compiledQuery } from '../db/compiled.js';
import { cachedRow } from '../db/row-cache.js';
import { activeRealmEmoji } from './realm-emoji.js';

/**
 * What rendering needs from the database. Given the `content` to render, only what its Markdown
 * can name is read (markdownReferences): the people and channels it mentions or links, custom
 * emoji when a shortcode occurs, user groups when a group mention may. Without it, everything
 * (descriptions and other texts rendered by callers that don't pass their text).
 */
export async function markdownContext(
  db: Database,
  realm: Realm,
  sender: User | null,
  content?: string,
): Promise<MarkdownContext> {
  const refs = content === undefined ? null : markdownReferences(content);
  const users = await mentionableUsers(db, realm, refs);
  const streams =
    refs && !refs.streamNames.length ? [] : await linkableStreams(db, realm, sender, refs);
  const groups =
    refs && !refs.groups
      ? []
      : await db
          .selectFrom('user_groups')
          .select(['id', 'name'])
          .where('realm_id', '=', realm.id)
          .where('is_system_group', '=', 0)
          .where('deactivated', '=', 0)
          .execute();
  return {
    users: users.map((u) => ({ id: u.id, full_name: u.full_name, is_active: !!u.is_active })),
    streams,
    userGroups: groups,
    realmEmoji: refs && !refs.emoji ? [] : await activeRealmEmoji(db, realm.id),
    // Stored patterns are RE2's syntax, which the renderer runs as they are.
    linkifiers: (await cachedRow(db, `linkifiers:${realm.id}`, () =>
      realmLinkifiers.all(db, realm.id),
    ))!,
  };
}

const realmLinkifiers = compiledQuery((db, realmId: number) =>
  db
    .selectFrom('linkifiers')
    .select(['id', 'pattern', 'url_template'])
    .where('realm_id', '=', realmId)
    .orderBy('order')
    .orderBy('id'),
);

/**
 * Whether `column` may equal one of `lowered` once lower-cased as JavaScript does: an ASCII name
 * lower-cases the same in SQL, so it must match exactly; a name with any other character is let
 * through for the renderer's own comparison to decide (SQLite's lower() folds ASCII only). A
 * superset of the matches, never fewer.
 */
function maySameLowercase(
  eb: ExpressionBuilder<DB, 'users' | 'streams'>,
  column: 'full_name' | 'name',
  lowered: string[],
) {
  return eb.or([
    eb(eb.fn('lower', [column]), 'in', lowered),
    eb(eb.fn('length', [column]), '!=', eb.fn('octet_length', [column])),
  ]);
}

/** The realm's people the content can mention (everyone when `refs` is null). */
async function mentionableUsers(db: Database, realm: Realm, refs: MarkdownReferences | null) {
  if (refs && !refs.userNames.length) return [];
  let q = db
    .selectFrom('users')
    .select(['id', 'full_name', 'is_active'])
    .where('realm_id', '=', realm.id);
  if (refs) {
    const ids = refs.userIds.filter(isDbId);
    q = q.where((eb) =>
      ids.length
        ? eb.or([maySameLowercase(eb, 'full_name', refs.userNames), eb('id', 'in', ids)])
        : maySameLowercase(eb, 'full_name', refs.userNames),
    );
  }
  return q.execute();
}

/** The channels the sender may link to (those the content may name, when `refs` is given). */
async function linkableStreams(
  db: Database,
  realm: Realm,
  sender: User | null,
  refs: MarkdownReferences | null,
) {
  let q = db
    .selectFrom('streams')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('deactivated', '=', 0);
  if (refs) q = q.where((eb) => maySameLowercase(eb, 'name', refs.streamNames));
  const streams = await q.execute();
  const subscribed = sender ? await subscribedStreamIds(db, sender.id) : new Set<number>();
  return streams
    .filter((s) => canSeeStream(sender, s, subscribed.has(s.id)))
    .map((s) => ({ id: s.id, name: s.name }));
}
