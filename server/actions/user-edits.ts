import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, Stream, User } from '../db/schema.js';
import { queueControl, type Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { isOwner, ROLE, VALID_ROLES } from '../domain/roles.js';
import { streamToApi } from '../domain/serialize.js';
import {
  activeUserIds,
  botAudience,
  canSeeStream,
  mayAccessPublicStreams,
  subscribedStreamIds,
} from '../lib/access.js';
import { ownerRequired, requireUserAdmin } from '../lib/admin-checks.js';
import { checkProfileEntries, setProfileValues } from './profile-values.js';
import { realmSettings } from '../lib/realm.js';
import { firstMessageIds, realmStreams } from '../lib/streams.js';
import { subscribersByStream } from './subscriptions.js';
import { isLastOwner, roleGroupId, userInRealm } from './user-admin.js';
import { validateFullName } from './users.js';
import type { Role } from '../../src/api/model/index.js';
import { userUpdated } from './announce-user.js';

/** PATCH /users/{user_id}: what an administrator may change about another account. */
export interface UserChanges {
  full_name?: string;
  role?: number;
  profile_data?: Record<string, unknown>[];
}

/**
 * Applies a role change and its consequences for the user's own view: streams they can newly
 * see arrive as `stream` create events (with their subscribers), streams they no longer see
 * leave as `stream` delete events, and the role groups' memberships move.
 */
async function changeRole(
  trx: Database,
  realm: Realm,
  target: User,
  role: number,
  events: Delivery[],
) {
  const streams = await realmStreams(trx, realm.id);
  const subscribed = await subscribedStreamIds(trx, target.id);
  const updated: User = { ...target, role };
  const before = new Set(
    streams.filter((s) => canSeeStream(target, s, subscribed.has(s.id))).map((s) => s.id),
  );
  const after = new Set(
    streams.filter((s) => canSeeStream(updated, s, subscribed.has(s.id))).map((s) => s.id),
  );
  await trx.updateTable('users').set({ role }).where('id', '=', target.id).execute();

  const everyone = await activeUserIds(trx, realm.id);
  events.push(userUpdated(realm, everyone, { user_id: target.id, role: role as Role }));
  if (!target.is_active) return;
  await announceRoleGroups(trx, realm, target, role, everyone, events);
  await announceStreamsSeen(trx, realm, target, { before, after, streams }, events);
}

/** The role's system group loses the user and the new role's group gains them. */
async function announceRoleGroups(
  trx: Database,
  realm: Realm,
  target: User,
  role: number,
  everyone: number[],
  events: Delivery[],
) {
  const oldGroup = await roleGroupId(trx, realm, target.role);
  const newGroup = await roleGroupId(trx, realm, role);
  if (oldGroup !== newGroup) {
    if (oldGroup !== null)
      events.push({
        realmId: realm.id,
        userIds: everyone,
        event: {
          type: 'user_group',
          op: 'remove_members',
          group_id: oldGroup,
          user_ids: [target.id],
        },
      });
    if (newGroup !== null)
      events.push({
        realmId: realm.id,
        userIds: everyone,
        event: { type: 'user_group', op: 'add_members', group_id: newGroup, user_ids: [target.id] },
      });
  }
}

/**
 * The streams the new role shows arrive as `stream` create events, with their subscribers; those
 * it hides leave as `stream` delete events. Only the user's own view changes.
 */
async function announceStreamsSeen(
  trx: Database,
  realm: Realm,
  target: User,
  seen: {
    before: Set<number>;
    after: Set<number>;
    streams: Stream[];
  },
  events: Delivery[],
) {
  const { before, after, streams } = seen;
  const gained = streams.filter((s) => after.has(s.id) && !before.has(s.id));
  const lost = streams.filter((s) => before.has(s.id) && !after.has(s.id));
  const firsts = await firstMessageIds(
    trx,
    [...gained, ...lost].map((s) => s.id),
  );
  const toApi = (s: Stream) => streamToApi(s, { firstMessageId: firsts.get(s.id) ?? null });
  if (gained.length) {
    events.push({
      realmId: realm.id,
      userIds: [target.id],
      event: { type: 'stream', op: 'create', streams: gained.map(toApi) },
    });
    // Subscriber lists of private streams stay with their subscribers.
    const peers = await subscribersByStream(
      trx,
      gained.filter((s) => !s.invite_only).map((s) => s.id),
    );
    for (const [streamId, userIds] of peers) {
      if (userIds.length)
        events.push({
          realmId: realm.id,
          userIds: [target.id],
          event: {
            type: 'subscription',
            op: 'peer_add',
            stream_ids: [streamId],
            user_ids: userIds,
          },
        });
    }
  }
  if (lost.length)
    events.push({
      realmId: realm.id,
      userIds: [target.id],
      event: {
        type: 'stream',
        op: 'delete',
        streams: lost.map(toApi),
        stream_ids: lost.map((s) => s.id),
      },
    });
}

async function changeFullName(
  trx: Database,
  realm: Realm,
  target: User,
  raw: string,
  events: Delivery[],
) {
  // Blank names are ignored here, as upstream does for this administrative endpoint.
  if (raw.trim() === '' || raw.trim() === target.full_name) return;
  const fullName = validateFullName(raw);
  if (realmSettings(realm).require_unique_names) {
    const others = await trx
      .selectFrom('users')
      .select('full_name')
      .where('realm_id', '=', realm.id)
      .where('id', '!=', target.id)
      .execute();
    if (others.some((u) => u.full_name.toLowerCase() === fullName.toLowerCase()))
      throw badRequest('Unique names required in this organization.');
  }
  await trx.updateTable('users').set({ full_name: fullName }).where('id', '=', target.id).execute();
  events.push(
    userUpdated(realm, await activeUserIds(trx, realm.id), {
      user_id: target.id,
      full_name: fullName,
    }),
  );
  if (target.is_bot)
    events.push({
      realmId: realm.id,
      userIds: await botAudience(trx, realm, target),
      event: { type: 'realm_bot', op: 'update', bot: { user_id: target.id, full_name: fullName } },
    });
}

/** PATCH /users/{user_id}: administrators; only owners grant or remove the owner role. */
export async function updateUserByAdmin(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  userId: number,
  c: UserChanges,
) {
  // Administering another account (upstream `access_user_by_id` with `for_admin`).
  requireUserAdmin(actor);
  if (c.role !== undefined && !VALID_ROLES.includes(c.role)) throw badRequest('Invalid role');
  const entries =
    c.profile_data === undefined ? null : checkProfileEntries(c.profile_data, 'profile_data');
  const result = await transact(ctx, async (trx, events) => {
    const target = await userInRealm(trx, realm, userId);
    if (c.role !== undefined && c.role !== target.role) {
      if ((c.role === ROLE.OWNER || isOwner(target)) && !isOwner(actor)) throw ownerRequired();
      if (await isLastOwner(trx, realm, target))
        throw badRequest(
          'The owner permission cannot be removed from the only organization owner.',
        );
      await changeRole(trx, realm, target, c.role, events);
      // A guest may not hold a queue that receives every public channel's messages.
      if (!mayAccessPublicStreams({ role: c.role } as User))
        events.push(queueControl(realm.id, [target.id], 'drop-all-public-streams'));
    }
    if (c.full_name !== undefined) await changeFullName(trx, realm, target, c.full_name, events);
    if (entries) await setProfileValues(trx, realm, target, entries, true, events);
    return {};
  });
  return result;
}
