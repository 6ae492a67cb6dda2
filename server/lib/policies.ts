import type { Realm, User } from '../db/schema.js';
import { badRequest } from '../domain/errors.js';
import { isGuest } from '../domain/roles.js';
import { inSystemGroup, passesPolicy } from './admin-checks.js';
import { realmSettings } from './realm.js';

/**
 * "May this user do X in this organization", for every organization policy that gates an action.
 * Each rule is decided here once (as the reference server's `UserProfile.can_*` methods) and every
 * action that needs it asks the same function, so a second place cannot forget a case.
 */

export const mayCreatePublicStreams = (realm: Realm, user: User) =>
  passesPolicy(realm, user, realmSettings(realm).create_public_stream_policy);

export const mayCreatePrivateStreams = (realm: Realm, user: User) =>
  passesPolicy(realm, user, realmSettings(realm).create_private_stream_policy);

/** Web-public channels exist only while spectator access is on. */
export const webPublicStreamsEnabled = (realm: Realm) =>
  !!realmSettings(realm).enable_spectator_access;

export const mayCreateWebPublicStreams = (realm: Realm, user: User) =>
  webPublicStreamsEnabled(realm) &&
  passesPolicy(realm, user, realmSettings(realm).create_web_public_stream_policy);

/** Subscribing anyone but oneself: `invite_to_stream_policy`. */
export const maySubscribeOthers = (realm: Realm, user: User) =>
  passesPolicy(realm, user, realmSettings(realm).invite_to_stream_policy);

export const mayInviteToRealm = (realm: Realm, user: User) =>
  passesPolicy(realm, user, realmSettings(realm).invite_to_realm_policy);

export const mayCreateReusableInvites = (realm: Realm, user: User) =>
  !isGuest(user) &&
  inSystemGroup(realm, user, realmSettings(realm).create_multiuse_invite_group_name);

export const mayEditTopics = (realm: Realm, user: User) =>
  passesPolicy(realm, user, realmSettings(realm).edit_topic_policy);

export const mayMoveMessagesBetweenStreams = (realm: Realm, user: User) =>
  passesPolicy(realm, user, realmSettings(realm).move_messages_between_streams_policy);

export const mayDeleteOwnMessages = (realm: Realm, user: User) =>
  passesPolicy(realm, user, realmSettings(realm).delete_own_message_policy);

/**
 * Creating a channel of the given kind, with the reference server's errors: guests never, and
 * otherwise the policy of each kind (public, private, web-public).
 */
export function checkMayCreateStream(
  realm: Realm,
  user: User,
  kind: { inviteOnly: boolean; webPublic: boolean },
) {
  if (isGuest(user)) throw badRequest('Not allowed for guest users');
  if (
    kind.inviteOnly ? !mayCreatePrivateStreams(realm, user) : !mayCreatePublicStreams(realm, user)
  )
    throw badRequest('Insufficient permission');
  if (kind.webPublic) {
    if (!webPublicStreamsEnabled(realm)) throw badRequest('Web-public channels are not enabled.');
    if (!mayCreateWebPublicStreams(realm, user)) throw badRequest('Insufficient permission');
  }
}

/** The `can_*` flags of the register snapshot, from the same rules. */
export function policyFlags(realm: Realm, user: User) {
  return {
    can_create_streams: mayCreatePublicStreams(realm, user) || mayCreatePrivateStreams(realm, user),
    can_create_public_streams: mayCreatePublicStreams(realm, user),
    can_create_private_streams: mayCreatePrivateStreams(realm, user),
    can_create_web_public_streams: mayCreateWebPublicStreams(realm, user),
    can_subscribe_other_users: maySubscribeOthers(realm, user),
    can_invite_others_to_realm: mayInviteToRealm(realm, user),
  };
}
