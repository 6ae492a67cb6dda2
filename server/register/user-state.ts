import type { AppContext } from '../context.js';
import type { User } from '../db/schema.js';
import { rowsWith } from '../db/flag-conditions.js';
import { dmIds } from '../domain/conversations.js';
import { avatarUrl, roleFlags } from '../domain/serialize.js';
import {
  AVAILABLE_NOTIFICATION_SOUNDS,
  EMOJISETS,
  parseSettings,
  USER_SETTING_DEFAULTS,
} from '../domain/settings.js';
import {
  USER_SETTING_NAMES,
  USER_SETTINGS,
  type RegisterUserSettings,
  type UserSettings,
} from '../../src/api/model/user-settings.js';
import { policyFlags } from '../lib/policies.js';
import { mutedTopicsList } from '../lib/muted-topics.js';
import { statusSnapshot } from '../actions/user-status.js';
import { alertWordsOf } from '../actions/alert-words.js';
import { mutedUserObjects } from '../actions/muted-users.js';
import { pendingScheduledMessages } from '../actions/scheduled-messages.js';
import { realmUsersFor } from './realm-users.js';
import { unreadMessages } from './unread-messages.js';
import type { Section } from './snapshot.js';

/** The snapshot's sections about the people and what the user keeps: settings, drafts, unreads. */

export const alertWordsState: Section = async ({ ctx, user }) => ({
  alert_words: await alertWordsOf(ctx.db, user.id),
});

/** Drafts are kept on the server only for those who synchronize them. */
export const draftsState: Section = async ({ ctx, user }) => {
  const us = parseSettings(USER_SETTING_DEFAULTS, user.settings);
  const drafts = us.enable_drafts_synchronization
    ? await ctx.db
        .selectFrom('drafts')
        .selectAll()
        .where('user_id', '=', user.id)
        .orderBy('id')
        .execute()
    : [];
  return {
    drafts: drafts.map((d) => ({
      id: d.id,
      type: d.type,
      to: JSON.parse(d.to_ids),
      topic: d.topic,
      content: d.content,
      timestamp: d.timestamp,
    })),
  };
};

export const maxMessageIdState: Section = async ({ ctx, user }) => {
  const max = await ctx.db
    .selectFrom('user_messages')
    .select((eb) => eb.fn.max('message_id').as('m'))
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  return { max_message_id: Number(max?.m ?? -1) };
};

export const mutedUsersState: Section = async ({ ctx, user }) => ({
  muted_users: await mutedUserObjects(ctx.db, user.id),
});

/** The organization's people, and who the user is among them. */
export const realmUserState: Section = async ({ ctx, realm, user }) => ({
  ...(await realmUsersFor(ctx, realm, user)),
  cross_realm_bots: [],
  avatar_source: 'G',
  avatar_url: avatarUrl(ctx, user),
  avatar_url_medium: avatarUrl(ctx, user),
  delivery_email: user.delivery_email,
  email: user.email,
  full_name: user.full_name,
  user_id: user.id,
  ...roleFlags(user),
  ...policyFlags(realm, user),
});

export const recentPrivateConversationsState: Section = async ({ ctx, user }) => ({
  recent_private_conversations: await recentConversations(ctx, user),
});

export const scheduledMessagesState: Section = async ({ ctx, user }) => ({
  scheduled_messages: await pendingScheduledMessages(ctx.db, user.id),
});

export const starredMessagesState: Section = async ({ ctx, user }) => ({
  starred_messages: (
    await ctx.db
      .selectFrom('user_messages')
      .select('message_id')
      .where('user_id', '=', user.id)
      .where(rowsWith('starred'))
      .orderBy('message_id')
      .execute()
  ).map((r) => r.message_id),
});

export const unreadMessagesState: Section = async ({ ctx, user }) => ({
  unread_msgs: await unreadMessages(ctx, user),
});

/**
 * What clients without the `user_settings_object` capability find at the top level: the real
 * server's frozen legacy display and notification lists (the list's `legacy` flag) and the choices;
 * newer settings exist only in `user_settings`.
 */
const LEGACY_TOP_LEVEL_SETTINGS = [
  ...USER_SETTING_NAMES.filter((name) => 'legacy' in USER_SETTINGS[name]),
  'available_notification_sounds',
  'emojiset_choices',
] as const;

/**
 * `user_settings` whenever it is asked for, as the reference server answers; a client without the
 * `user_settings_object` capability also finds the legacy settings at the top level.
 */
export const userSettingsState: Section = ({ user, opts }) => {
  const userSettings = ownUserSettings(user);
  const state: Record<string, unknown> = { user_settings: userSettings };
  if (!opts.capabilities.user_settings_object)
    for (const key of LEGACY_TOP_LEVEL_SETTINGS) state[key] = userSettings[key];
  return state;
};

/**
 * The muted-topics list from before `user_topic` (feature level 134): [channel name, topic, when
 * muted], which clients such as zulip-terminal still read. As upstream, a client that names
 * `user_topic` among its fetch types gets that instead.
 */
export const mutedTopicsState: Section = async ({ ctx, user, opts }) => {
  if (opts.fetchTypes?.has('user_topic')) return {};
  return { muted_topics: await mutedTopicsList(ctx.db, user.id) };
};

export const userStatusState: Section = async ({ ctx, realm }) => ({
  user_status: await statusSnapshot(ctx.db, realm.id),
});

export const userTopicState: Section = async ({ ctx, user }) => {
  const rows = await ctx.db
    .selectFrom('user_topics')
    .selectAll()
    .where('user_id', '=', user.id)
    .execute();
  return {
    user_topics: rows.map((r) => ({
      stream_id: r.stream_id,
      topic_name: r.topic,
      last_updated: r.last_updated,
      visibility_policy: r.visibility_policy,
    })),
  };
};

/** Every setting of the list, in its order: stored values over defaults, row columns from the row. */
export function ownUserSettings(user: User): RegisterUserSettings {
  const stored = parseSettings(USER_SETTING_DEFAULTS, user.settings) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of USER_SETTING_NAMES)
    out[name] = 'realmUser' in USER_SETTINGS[name] ? user[name as keyof User] : stored[name];
  return {
    ...(out as UserSettings),
    available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS,
    emojiset_choices: EMOJISETS,
  };
}

/** Direct messages read for recent_private_conversations: upstream's "the 1000 most recent". */
export const RECENT_PRIVATE_MESSAGES = 1000;

/**
 * The conversations of the person's newest direct messages, newest first, as upstream builds
 * them: from the most recent 1000 direct messages (found through the index of their rows).
 */
async function recentConversations(ctx: AppContext, user: User) {
  const rows = await ctx.db
    .selectFrom((eb) =>
      eb
        .selectFrom('user_messages')
        .select('message_id')
        .where('user_id', '=', user.id)
        .where(rowsWith('private'))
        .orderBy('message_id', 'desc')
        .limit(RECENT_PRIVATE_MESSAGES)
        .as('recent'),
    )
    .innerJoin('messages as m', 'm.id', 'recent.message_id')
    .select(['m.dm_key', (eb) => eb.fn.max('m.id').as('max_id')])
    .where('m.type', '=', 'private')
    .groupBy('m.dm_key')
    .orderBy('max_id', 'desc')
    .execute();
  return rows.map((r) => ({
    max_message_id: Number(r.max_id),
    user_ids: dmIds(r.dm_key).filter((id) => id !== user.id),
  }));
}
