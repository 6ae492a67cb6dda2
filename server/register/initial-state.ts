import type { AppContext } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { SnapshotReads, type Section, type Snapshot, type StateOptions } from './snapshot.js';
import {
  customProfileFieldsState,
  presenceState,
  realmBotsState,
  realmEmojiState,
  realmLinkifiersState,
  realmState,
  realmUserGroupsState,
  realmUserSettingsDefaultsState,
} from './realm-state.js';
import {
  alertWordsState,
  draftsState,
  maxMessageIdState,
  mutedTopicsState,
  mutedUsersState,
  realmUserState,
  recentPrivateConversationsState,
  scheduledMessagesState,
  starredMessagesState,
  unreadMessagesState,
  userSettingsState,
  userStatusState,
  userTopicState,
} from './user-state.js';
import {
  defaultStreamGroupsState,
  defaultStreamsState,
  streamState,
  subscriptionState,
} from './stream-state.js';

export type { StateOptions } from './snapshot.js';

export { FEATURE_LEVEL, SERVICE_VERSION } from '../domain/version.js';

export const ALL_FETCH_TYPES = [
  'alert_words',
  'custom_profile_fields',
  'default_stream_groups',
  'default_streams',
  'drafts',
  'message',
  'muted_topics',
  'muted_users',
  'presence',
  'realm',
  'realm_bot',
  'realm_emoji',
  'realm_linkifiers',
  'realm_filters',
  'realm_user',
  'realm_user_groups',
  'realm_user_settings_defaults',
  'recent_private_conversations',
  'scheduled_messages',
  'starred_messages',
  'stream',
  'subscription',
  'update_message_flags',
  'user_settings',
  'user_status',
  'user_topic',
  'video_calls',
  'realm_playgrounds',
  'onboarding_steps',
] as const;

/**
 * The snapshot's sections in the order it lists them, each with the fetch types that must all be
 * asked for (or none named) for it to be included.
 */
const SECTIONS: [types: readonly string[], section: Section][] = [
  [['alert_words'], alertWordsState],
  [['custom_profile_fields'], customProfileFieldsState],
  [['drafts'], draftsState],
  [['message'], maxMessageIdState],
  [['muted_topics'], mutedTopicsState],
  [['muted_users'], mutedUsersState],
  [['presence'], presenceState],
  [['realm'], realmState],
  [['realm_user'], realmUserState],
  [['realm_bot'], realmBotsState],
  [['realm_emoji'], realmEmojiState],
  [['realm_linkifiers'], realmLinkifiersState],
  [['realm_filters'], () => ({ realm_filters: [] })],
  [['realm_playgrounds'], () => ({ realm_playgrounds: [] })],
  [['realm_user_groups'], realmUserGroupsState],
  [['realm_user_settings_defaults'], realmUserSettingsDefaultsState],
  [['recent_private_conversations'], recentPrivateConversationsState],
  [['scheduled_messages'], scheduledMessagesState],
  [['starred_messages'], starredMessagesState],
  [['stream'], streamState],
  [['default_streams'], defaultStreamsState],
  [['default_stream_groups'], defaultStreamGroupsState],
  [['subscription'], subscriptionState],
  [['update_message_flags', 'message'], unreadMessagesState],
  [['user_settings'], userSettingsState],
  [['user_status'], userStatusState],
  [['user_topic'], userTopicState],
  [['video_calls'], () => ({ has_zoom_token: false })],
  [['onboarding_steps'], () => ({ onboarding_steps: [] })],
];

const wants = (opts: StateOptions, type: string) =>
  opts.fetchTypes === null || opts.fetchTypes.has(type);

/** The snapshot POST /register returns for an authenticated user. */
export async function initialState(ctx: AppContext, realm: Realm, user: User, opts: StateOptions) {
  const input = { ctx, realm, user, opts, reads: new SnapshotReads(ctx.db, realm.id) };
  const state: Snapshot = {};
  for (const [types, section] of SECTIONS)
    if (types.every((type) => wants(opts, type))) Object.assign(state, await section(input));
  return state;
}
