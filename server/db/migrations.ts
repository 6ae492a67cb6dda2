import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import {
  ALERTED_INDEX,
  CONTENT_INDEXES,
  FLAG_INDEXES,
  PARTIAL_MESSAGE_INDEX_COLUMNS,
  RESOLVED_INDEXES,
  RESOLVED_STATISTICS,
  resolvedTopicCondition,
  FLAG_STATISTICS,
  PRIVATE_MESSAGE_BIT,
  UNREAD_CONDITION,
} from './flag-conditions.js';
import type { Dialect } from './dialect.js';
import { createMessageSearch } from './search.js';
import { CONTENT_FLAGS } from '../domain/message-content.js';

export type { Dialect };

/**
 * Versioned migrations, applied in order at start. Never edit a migration that has shipped:
 * add a new one. Booleans are integers and JSON is text so both dialects share the schema.
 */
/** What PostgreSQL's triggers notify when a table whose rows servers keep changes (0014). */
export const ROWS_CHANGED_CHANNEL = 'parley_rows_changed';

// eslint-disable-next-line max-lines-per-function -- the migrations in order, one entry each; a migration that has shipped is never edited, so it is never split either
export function migrations(dialect: Dialect): Record<string, Migration> {
  const idType = dialect === 'sqlite' ? 'integer' : 'serial';
  const id = (c: any) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey());
  const bool = 'integer';

  return {
    '0001_initial': {
      // eslint-disable-next-line max-lines-per-function -- the first schema, as it shipped
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('realms')
          .addColumn('id', idType, id)
          .addColumn('string_id', 'text', (c) => c.notNull().unique())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('date_created', 'integer', (c) => c.notNull())
          .addColumn('deactivated', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
          .execute();

        await db.schema
          .createTable('users')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('delivery_email', 'text', (c) => c.notNull())
          .addColumn('full_name', 'text', (c) => c.notNull())
          .addColumn('password_hash', 'text')
          .addColumn('api_key', 'text', (c) => c.notNull())
          .addColumn('role', 'integer', (c) => c.notNull().defaultTo(400))
          .addColumn('is_bot', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('bot_type', 'integer')
          .addColumn('bot_owner_id', 'integer')
          .addColumn('is_active', bool, (c) => c.notNull().defaultTo(1))
          .addColumn('date_joined', 'integer', (c) => c.notNull())
          .addColumn('timezone', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('avatar_version', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
          .execute();
        await db.schema
          .createIndex('users_realm_email')
          .on('users')
          .columns(['realm_id', 'email'])
          .unique()
          .execute();
        await db.schema.createIndex('users_api_key').on('users').column('api_key').execute();

        await db.schema
          .createTable('streams')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('rendered_description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('invite_only', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('is_web_public', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('history_public_to_subscribers', bool, (c) => c.notNull().defaultTo(1))
          .addColumn('stream_post_policy', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('message_retention_days', 'integer')
          .addColumn('date_created', 'integer', (c) => c.notNull())
          .addColumn('can_remove_subscribers_group', 'integer', (c) => c.notNull())
          .addColumn('creator_id', 'integer')
          .addColumn('deactivated', bool, (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.createIndex('streams_realm').on('streams').column('realm_id').execute();

        await db.schema
          .createTable('subscriptions')
          .addColumn('id', idType, id)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('stream_id', 'integer', (c) => c.notNull().references('streams.id'))
          .addColumn('active', bool, (c) => c.notNull().defaultTo(1))
          .addColumn('color', 'text', (c) => c.notNull())
          .addColumn('is_muted', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('pin_to_top', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('desktop_notifications', bool)
          .addColumn('audible_notifications', bool)
          .addColumn('push_notifications', bool)
          .addColumn('email_notifications', bool)
          .addColumn('wildcard_mentions_notify', bool)
          .execute();
        await db.schema
          .createIndex('subs_user_stream')
          .on('subscriptions')
          .columns(['user_id', 'stream_id'])
          .unique()
          .execute();
        await db.schema
          .createIndex('subs_stream')
          .on('subscriptions')
          .columns(['stream_id', 'active'])
          .execute();

        await db.schema
          .createTable('messages')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('stream_id', 'integer')
          .addColumn('topic', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('topic_key', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('dm_key', 'text')
          .addColumn('content', 'text', (c) => c.notNull())
          .addColumn('rendered_content', 'text', (c) => c.notNull())
          .addColumn('date_sent', 'integer', (c) => c.notNull())
          .addColumn('last_edit_time', 'integer')
          .addColumn('sending_client', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema
          .createIndex('messages_stream_topic')
          .on('messages')
          .columns(['stream_id', 'topic_key', 'id'])
          .execute();
        await db.schema
          .createIndex('messages_stream_id')
          .on('messages')
          .columns(['stream_id', 'id'])
          .execute();
        await db.schema
          .createIndex('messages_dm')
          .on('messages')
          .columns(['dm_key', 'id'])
          .execute();
        await db.schema
          .createIndex('messages_sender')
          .on('messages')
          .columns(['sender_id', 'id'])
          .execute();

        await db.schema
          .createTable('user_messages')
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('message_id', 'integer', (c) => c.notNull())
          .addColumn('flags', 'integer', (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('user_messages_pk', ['user_id', 'message_id'])
          .execute();
        await db.schema
          .createIndex('user_messages_message')
          .on('user_messages')
          .column('message_id')
          .execute();
        await db.schema
          .createIndex('user_messages_unread')
          .on('user_messages')
          .columns(['user_id', 'message_id'])
          .where(sql<number>`flags & 1`, '=', 0)
          .execute();

        await db.schema
          .createTable('user_groups')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('is_system_group', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('can_mention_group', 'integer')
          .addColumn('date_created', 'integer', (c) => c.notNull())
          .addColumn('creator_id', 'integer')
          .addColumn('deactivated', bool, (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createTable('user_group_members')
          .addColumn('group_id', 'integer', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('ugm_pk', ['group_id', 'user_id'])
          .execute();
        await db.schema
          .createTable('user_group_subgroups')
          .addColumn('group_id', 'integer', (c) => c.notNull())
          .addColumn('subgroup_id', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('ugs_pk', ['group_id', 'subgroup_id'])
          .execute();

        await db.schema
          .createTable('default_streams')
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('stream_id', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('default_streams_pk', ['realm_id', 'stream_id'])
          .execute();

        await db.schema
          .createTable('drafts')
          .addColumn('id', idType, id)
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('to_ids', 'text', (c) => c.notNull())
          .addColumn('topic', 'text', (c) => c.notNull())
          .addColumn('content', 'text', (c) => c.notNull())
          .addColumn('timestamp', 'integer', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('drafts_user').on('drafts').column('user_id').execute();

        await db.schema
          .createTable('custom_profile_fields')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('hint', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('field_type', 'integer', (c) => c.notNull())
          .addColumn('field_data', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('order', 'integer', (c) => c.notNull())
          .addColumn('display_in_profile_summary', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('required', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('editable_by_user', bool, (c) => c.notNull().defaultTo(1))
          .execute();
        await db.schema
          .createTable('custom_profile_values')
          .addColumn('field_id', 'integer', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('rendered_value', 'text')
          .addPrimaryKeyConstraint('cpv_pk', ['field_id', 'user_id'])
          .execute();

        await db.schema
          .createTable('linkifiers')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('pattern', 'text', (c) => c.notNull())
          .addColumn('url_template', 'text', (c) => c.notNull())
          .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();

        await db.schema
          .createTable('alert_words')
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('word', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('alert_words_pk', ['user_id', 'word'])
          .execute();

        await db.schema
          .createTable('user_topics')
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('stream_id', 'integer', (c) => c.notNull())
          .addColumn('topic', 'text', (c) => c.notNull())
          .addColumn('topic_key', 'text', (c) => c.notNull())
          .addColumn('visibility_policy', 'integer', (c) => c.notNull())
          .addColumn('last_updated', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('user_topics_pk', ['user_id', 'stream_id', 'topic_key'])
          .execute();

        await db.schema
          .createTable('muted_users')
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('muted_user_id', 'integer', (c) => c.notNull())
          .addColumn('date_muted', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('muted_users_pk', ['user_id', 'muted_user_id'])
          .execute();
      },
    },
    '0002_email_changes_reactions_edits': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('email_changes')
          .addColumn('token', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('new_email', 'text', (c) => c.notNull())
          .addColumn('created', 'integer', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('reactions')
          .addColumn('message_id', 'integer', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('emoji_name', 'text', (c) => c.notNull())
          .addColumn('emoji_code', 'text', (c) => c.notNull())
          .addColumn('reaction_type', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('reactions_pk', [
            'message_id',
            'user_id',
            'emoji_code',
            'reaction_type',
          ])
          .execute();
        await db.schema
          .createTable('message_edits')
          .addColumn('id', idType, id)
          .addColumn('message_id', 'integer', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('timestamp', 'integer', (c) => c.notNull())
          .addColumn('prev_content', 'text')
          .addColumn('prev_rendered_content', 'text')
          .addColumn('prev_topic', 'text')
          .addColumn('prev_stream_id', 'integer')
          .addColumn('topic', 'text')
          .addColumn('stream_id', 'integer')
          .execute();
        await db.schema
          .createIndex('message_edits_message')
          .on('message_edits')
          .column('message_id')
          .execute();
      },
    },
    '0004_invites_scheduled_messages_default_stream_groups': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('invites')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('is_multiuse', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('email', 'text')
          .addColumn('invited_by', 'integer', (c) => c.notNull())
          .addColumn('invited_as', 'integer', (c) => c.notNull())
          .addColumn('stream_ids', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('include_realm_default_subscriptions', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('notify_referrer_on_join', bool, (c) => c.notNull().defaultTo(1))
          .addColumn('link_key', 'text', (c) => c.notNull().unique())
          .addColumn('created', 'integer', (c) => c.notNull())
          .addColumn('expiry', 'integer')
          .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createIndex('invites_realm')
          .on('invites')
          .columns(['realm_id', 'status'])
          .execute();

        await db.schema
          .createTable('scheduled_messages')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('sender_id', 'integer', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('stream_id', 'integer')
          .addColumn('to_ids', 'text', (c) => c.notNull())
          .addColumn('topic', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('content', 'text', (c) => c.notNull())
          .addColumn('rendered_content', 'text', (c) => c.notNull())
          .addColumn('scheduled_timestamp', 'integer', (c) => c.notNull())
          .addColumn('sending_client', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('read_by_sender', bool)
          .addColumn('delivered', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('delivered_message_id', 'integer')
          .addColumn('failed', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('failure_message', 'text')
          .execute();
        await db.schema
          .createIndex('scheduled_messages_sender')
          .on('scheduled_messages')
          .columns(['sender_id', 'delivered'])
          .execute();
        await db.schema
          .createIndex('scheduled_messages_due')
          .on('scheduled_messages')
          .columns(['delivered', 'failed', 'scheduled_timestamp'])
          .execute();

        await db.schema
          .createTable('default_stream_groups')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema
          .createIndex('default_stream_groups_name')
          .on('default_stream_groups')
          .columns(['realm_id', 'name'])
          .unique()
          .execute();
        await db.schema
          .createTable('default_stream_group_streams')
          .addColumn('group_id', 'integer', (c) => c.notNull())
          .addColumn('stream_id', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('default_stream_group_streams_pk', ['group_id', 'stream_id'])
          .execute();
      },
    },
    '0003_presence': {
      async up(db: Kysely<any>) {
        // One row per user; update_id grows with every change in the organization.
        await db.schema
          .createTable('presences')
          .addColumn('user_id', 'integer', (c) => c.primaryKey())
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('last_active_time', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_connected_time', 'integer', (c) => c.notNull())
          .addColumn('update_id', 'integer', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('presences_realm')
          .on('presences')
          .columns(['realm_id', 'update_id'])
          .execute();
      },
    },
    '0005_attachments_realm_emoji': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('attachments')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('owner_id', 'integer', (c) => c.notNull())
          .addColumn('path_id', 'text', (c) => c.notNull().unique())
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('content_type', 'text', (c) => c.notNull())
          .addColumn('create_time', 'integer', (c) => c.notNull())
          .addColumn('message_id_floor', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createIndex('attachments_owner')
          .on('attachments')
          .columns(['owner_id', 'id'])
          .execute();

        await db.schema
          .createTable('realm_emoji')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('author_id', 'integer')
          .addColumn('file_name', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('deactivated', bool, (c) => c.notNull().defaultTo(0))
          .execute();
        // One active emoji per name; deactivated ones keep their names (old messages still show them).
        await db.schema
          .createIndex('realm_emoji_active_name')
          .on('realm_emoji')
          .columns(['realm_id', 'name'])
          .unique()
          .where(sql.ref('deactivated'), '=', 0)
          .execute();
      },
    },
    '0006_attachment_claims': {
      async up(db: Kysely<any>) {
        // Which messages claim which uploads: readers of a claiming message may read the upload.
        await db.schema
          .createTable('attachment_claims')
          .addColumn('attachment_id', 'integer', (c) => c.notNull())
          .addColumn('message_id', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('attachment_claims_pk', ['attachment_id', 'message_id'])
          .execute();
        await db.schema
          .createIndex('attachment_claims_message')
          .on('attachment_claims')
          .columns(['message_id', 'attachment_id'])
          .execute();
        await backfillOwnerClaims(db);
      },
    },
    '0007_signup_confirmations': {
      async up(db: Kysely<any>) {
        // A reusable link's sign-up waits here until the address confirms it from its mailbox.
        await db.schema
          .createTable('signup_confirmations')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('invite_id', 'integer', (c) => c.notNull())
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created', 'integer', (c) => c.notNull())
          .addColumn('expiry', 'integer', (c) => c.notNull())
          .addColumn('used', bool, (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    '0008_users_delivery_email': {
      async up(db: Kysely<any>) {
        // Requests authenticate with the real address, which differs from the API address of
        // people who hide theirs.
        await db.schema
          .createIndex('users_realm_delivery_email')
          .on('users')
          .columns(['realm_id', 'delivery_email'])
          .execute();
      },
    },
    '0009_message_flag_indexes': {
      async up(db: Kysely<any>) {
        // A person's starred, mentioned and direct messages each have an index of their own, as
        // their unread ones do: these lists are read at every /register and by the common
        // narrows, and are a small part of the person's messages. The conditions are those of
        // db/flag-conditions.ts, which the queries repeat word for word so that both databases
        // use the partial indexes.
        await sql`UPDATE user_messages SET flags = flags | ${sql.lit(PRIVATE_MESSAGE_BIT)} WHERE message_id IN (SELECT id FROM messages WHERE type = 'private')`.execute(
          db,
        );
        // Unread rows: the flags in the index too, so that the unread summary (up to 50,000
        // rows) is read from the index alone.
        await db.schema.dropIndex('user_messages_unread').execute();
        await sql`CREATE INDEX user_messages_unread_flags ON user_messages (user_id, message_id, flags) WHERE ${sql.raw(UNREAD_CONDITION)}`.execute(
          db,
        );
        for (const [name, condition] of Object.entries(FLAG_INDEXES))
          await sql`CREATE INDEX ${sql.id(name)} ON user_messages (user_id, message_id) WHERE ${sql.raw(condition)}`.execute(
            db,
          );
        // PostgreSQL guesses how many of a person's rows have a flag from the whole table, and
        // then prefers to walk every message: statistics per person and flag correct the guess
        // (SQLite's planner takes the partial indexes as they are).
        if (dialect === 'postgres' && (await hasExpressionStatistics(db))) {
          for (const [name, bits] of Object.entries(FLAG_STATISTICS))
            await sql`CREATE STATISTICS ${sql.id(name)} (mcv) ON user_id, (flags & ${sql.lit(bits)}) FROM user_messages`.execute(
              db,
            );
          await sql`ANALYZE user_messages`.execute(db);
        }
      },
    },
    '0010_user_statuses': {
      async up(db: Kysely<any>) {
        // A person's status: away, a short text and an emoji, shown beside their name.
        await db.schema
          .createTable('user_statuses')
          .addColumn('user_id', 'integer', (c) => c.primaryKey())
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('away', bool, (c) => c.notNull().defaultTo(0))
          .addColumn('status_text', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('emoji_name', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('emoji_code', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('reaction_type', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema
          .createIndex('user_statuses_realm')
          .on('user_statuses')
          .column('realm_id')
          .execute();
      },
    },
    '0011_message_search': {
      async up(db: Kysely<any>) {
        // Full-text search of messages by each database's own engine (db/search.ts), filled
        // with the messages already there.
        await createMessageSearch(db, dialect);
      },
    },
    '0012_send_path_indexes': {
      async up(db: Kysely<any>) {
        // A send names its channel in any case: the lookup compares lower(name), which the plain
        // realm index leaves to a scan of every channel of the realm.
        await sql`create index streams_realm_lower_name on streams (realm_id, lower(name))`.execute(
          db,
        );
        // Who muted the sender is asked per send; the key (user_id, muted_user_id) cannot answer it.
        await db.schema
          .createIndex('muted_users_muted_user')
          .on('muted_users')
          .column('muted_user_id')
          .execute();
        // A send reads its realm's linkifiers.
        await db.schema
          .createIndex('linkifiers_realm')
          .on('linkifiers')
          .columns(['realm_id', 'order', 'id'])
          .execute();
      },
    },
    '0013_role_index': {
      async up(db: Kysely<any>) {
        // Who holds each role (the system groups, asked at every register and group check) from
        // the index alone, instead of reading every person's row.
        await db.schema
          .createIndex('users_realm_active_role')
          .on('users')
          .columns(['realm_id', 'is_active', 'role', 'id'])
          .execute();
      },
    },
    '0014_rows_changed_notifications': {
      async up(db: Kysely<any>) {
        // PostgreSQL: a commit that changed a table whose rows servers keep (db/row-cache.ts)
        // tells every server listening, whichever process wrote it. SQLite needs nothing: its
        // one server sees every other connection's commits through PRAGMA data_version.
        if (dialect !== 'postgres') return;
        await sql`CREATE OR REPLACE FUNCTION parley_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify(${sql.lit(ROWS_CHANGED_CHANNEL)}, ''); RETURN NULL; END $$`.execute(
          db,
        );
        for (const table of ['realms', 'users', 'streams', 'subscriptions'])
          await sql`CREATE TRIGGER ${sql.raw(`${table}_rows_changed`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)} FOR EACH STATEMENT EXECUTE FUNCTION parley_rows_changed()`.execute(
            db,
          );
      },
    },
    '0015_alerted_index': {
      async up(db: Kysely<any>) {
        // `is:alerted` from the person's rows with an alert word alone, as the other flags of
        // the `is` operator (0009), instead of reading all of theirs.
        await sql`CREATE INDEX ${sql.id(ALERTED_INDEX.name)} ON user_messages (user_id, message_id) WHERE ${sql.raw(ALERTED_INDEX.condition)}`.execute(
          db,
        );
        if (dialect === 'postgres' && (await hasExpressionStatistics(db))) {
          await sql`CREATE STATISTICS ${sql.id(ALERTED_INDEX.statistics)} (mcv) ON user_id, (flags & ${sql.lit(ALERTED_INDEX.bits)}) FROM user_messages`.execute(
            db,
          );
          await sql`ANALYZE user_messages`.execute(db);
        }
      },
    },
    '0016_more_rows_changed_notifications': {
      async up(db: Kysely<any>) {
        // Every message sent reads the organization's linkifiers and alert words and who muted
        // the sender, now kept between sends (db/row-cache.ts): their changes are announced as
        // those of the tables of 0014.
        if (dialect !== 'postgres') return;
        for (const table of ['linkifiers', 'muted_users', 'alert_words'])
          await sql`CREATE TRIGGER ${sql.raw(`${table}_rows_changed`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)} FOR EACH STATEMENT EXECUTE FUNCTION parley_rows_changed()`.execute(
            db,
          );
      },
    },
    '0017_message_content_flags': {
      async up(db: Kysely<any>) {
        // `has:link`, `has:image` and `has:attachment` tested the rendered HTML of every message
        // of the person, slowest when few or none had one. What the HTML holds is kept with the
        // message instead, with partial indexes per kind.
        await db.schema
          .alterTable('messages')
          .addColumn('content_flags', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        const holds = (needle: string) =>
          sql`replace(rendered_content, ${needle}, '') != rendered_content`;
        const kinds = Object.values(CONTENT_FLAGS);
        await sql`UPDATE messages SET content_flags = ${sql.join(
          kinds.map(
            ({ bit, needle }) => sql`CASE WHEN ${holds(needle)} THEN ${sql.lit(bit)} ELSE 0 END`,
          ),
          sql` + `,
        )} WHERE ${sql.join(
          kinds.map(({ needle }) => holds(needle)),
          sql` OR `,
        )}`.execute(db);
        for (const { names, condition } of Object.values(CONTENT_INDEXES))
          await partialMessageIndexes(db, names, condition);
        await expressionStatistics(
          db,
          dialect,
          Object.values(CONTENT_INDEXES).map((c) => c.statistics),
        );
      },
    },
    '0018_resolved_topics_index': {
      async up(db: Kysely<any>) {
        // `is:resolved` tested the topic of every message of the person; the messages of
        // resolved topics have an index of their own.
        await partialMessageIndexes(db, RESOLVED_INDEXES, resolvedTopicCondition());
        await expressionStatistics(db, dialect, [RESOLVED_STATISTICS]);
      },
    },
    '0019_bot_storage': {
      async up(db: Kysely<any>) {
        // What a bot keeps between runs (PUT /bot_storage): text values by text key, per bot.
        await db.schema
          .createTable('bot_storage')
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('value', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('bot_storage_pkey', ['user_id', 'key'])
          .execute();
      },
    },
    '0020_push_device_tokens': {
      async up(db: Kysely<any>) {
        // The phones a person registered for push notifications: kind 1 APNs, 2 FCM/GCM.
        await db.schema
          .createTable('push_device_tokens')
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('kind', 'integer', (c) => c.notNull())
          .addColumn('token', 'text', (c) => c.notNull())
          .addColumn('ios_app_id', 'text')
          .addColumn('last_updated', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('push_device_tokens_pkey', ['user_id', 'kind', 'token'])
          .execute();
      },
    },
    '0021_outgoing_webhooks': {
      async up(db: Kysely<any>) {
        // Outgoing-webhook bots' services, and the triggers waiting to be sent to them.
        await db.schema
          .createTable('bot_services')
          .addColumn('bot_id', 'integer', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('base_url', 'text', (c) => c.notNull())
          .addColumn('interface', 'integer', (c) => c.notNull())
          .addColumn('token', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('outgoing_webhook_jobs')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('bot_id', 'integer', (c) => c.notNull())
          .addColumn('message_id', 'integer', (c) => c.notNull())
          .addColumn('trigger', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'integer', (c) => c.notNull())
          .addColumn('claimed_until', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createIndex('outgoing_webhook_jobs_due')
          .on('outgoing_webhook_jobs')
          .columns(['next_attempt_at'])
          .execute();
      },
    },
    '0022_submessages': {
      async up(db: Kysely<any>) {
        // Widgets' submessages (polls, to-do lists, bots' forms), read by message id.
        await db.schema
          .createTable('submessages')
          .addColumn('id', idType, id)
          .addColumn('message_id', 'integer', (c) => c.notNull())
          .addColumn('sender_id', 'integer', (c) => c.notNull())
          .addColumn('msg_type', 'text', (c) => c.notNull())
          .addColumn('content', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('submessages_message')
          .on('submessages')
          .columns(['message_id', 'id'])
          .execute();
      },
    },
    '0023_mail_queue': {
      async up(db: Kysely<any>) {
        // Mail waiting to be sent (and kept once sent), written in the transaction that causes
        // it; the secrets of password reset links, by their hash.
        await db.schema
          .createTable('mail_queue')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('recipient', 'text', (c) => c.notNull())
          .addColumn('subject', 'text', (c) => c.notNull())
          .addColumn('text_body', 'text', (c) => c.notNull())
          .addColumn('html_body', 'text', (c) => c.notNull())
          .addColumn('cause', 'text', (c) => c.notNull().unique())
          .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'integer', (c) => c.notNull())
          .addColumn('claimed_until', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'integer', (c) => c.notNull())
          .addColumn('sent_at', 'integer')
          .execute();
        await db.schema
          .createIndex('mail_queue_due')
          .on('mail_queue')
          .columns(['status', 'next_attempt_at', 'id'])
          .execute();
        await db.schema
          .createIndex('mail_queue_realm')
          .on('mail_queue')
          .columns(['realm_id', 'id'])
          .execute();
        await db.schema
          .createTable('password_resets')
          .addColumn('id', idType, id)
          .addColumn('realm_id', 'integer', (c) => c.notNull())
          .addColumn('user_id', 'integer')
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created', 'integer', (c) => c.notNull())
          .addColumn('expiry', 'integer', (c) => c.notNull())
          .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    '0024_email_notifications': {
      async up(db: Kysely<any>) {
        // Messages someone may be mailed about if they leave them unread (missed-messages.ts),
        // and the followers of a topic, found by topic rather than by person when one is sent.
        await db.schema
          .createTable('email_notifications')
          .addColumn('id', idType, id)
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('message_id', 'integer', (c) => c.notNull())
          .addColumn('trigger', 'text', (c) => c.notNull())
          .addColumn('created_at', 'integer', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('email_notifications_user')
          .on('email_notifications')
          .columns(['user_id', 'created_at'])
          .execute();
        await db.schema
          .createIndex('user_topics_topic')
          .on('user_topics')
          .columns(['stream_id', 'topic_key', 'visibility_policy'])
          .execute();
      },
    },
    '0025_stored_files': {
      async up(db: Kysely<any>) {
        // Files kept in the database (PARLEY_FILE_STORE=database, PostgreSQL's default), so that
        // every server process serves every upload, avatar and custom emoji: one row per file by
        // its path in the data directory's layout, its bytes in chunks that are read one at a
        // time, so that a download or a range holds one chunk in memory, never the whole file.
        await db.schema
          .createTable('stored_files')
          .addColumn('id', idType, id)
          .addColumn('key', 'text', (c) => c.notNull().unique())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('created', 'integer', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('stored_file_chunks')
          .addColumn('file_id', 'integer', (c) => c.notNull())
          .addColumn('seq', 'integer', (c) => c.notNull())
          .addColumn('data', dialect === 'sqlite' ? 'blob' : 'bytea', (c) => c.notNull())
          .addPrimaryKeyConstraint('stored_file_chunks_pkey', ['file_id', 'seq'])
          .execute();
        // The installation's secrets on PostgreSQL, where processes share no data directory:
        // a URL one signs, another verifies.
        await db.schema
          .createTable('server_keys')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
      },
    },
  };
}

/**
 * PostgreSQL: statistics of expressions of messages, then ANALYZE. Without them the planner
 * takes `content_flags & 1 != 0` to hold for nearly every message (the default guess for `!=`)
 * and read has:link from all of the person's rows rather than from the empty partial index. SQLite's planner takes the partial indexes as they are.
 */
async function expressionStatistics(
  db: Kysely<any>,
  dialect: Dialect,
  statistics: [string, string][],
) {
  if (dialect !== 'postgres') return;
  if (await hasExpressionStatistics(db))
    for (const [name, expression] of statistics)
      await sql`CREATE STATISTICS ${sql.id(name)} ON (${sql.raw(expression)}) FROM messages`.execute(
        db,
      );
  await sql`ANALYZE messages`.execute(db);
}

/** A pair of partial indexes on messages with `condition`: by id, and by channel and id. */
async function partialMessageIndexes(db: Kysely<any>, names: string[], condition: string) {
  for (const [i, name] of names.entries())
    await sql`CREATE INDEX ${sql.id(name)} ON messages (${sql.raw(PARTIAL_MESSAGE_INDEX_COLUMNS[i]!)}) WHERE ${sql.raw(condition)}`.execute(
      db,
    );
}

/** PostgreSQL 14 and later keep statistics on expressions (CREATE STATISTICS ... ON (expr)). */
async function hasExpressionStatistics(db: Kysely<any>): Promise<boolean> {
  const version = await sql<{
    v: string;
  }>`SELECT current_setting('server_version_num') AS v`.execute(db);
  return Number(version.rows[0]?.v) >= 140000;
}

/** Messages read per step of the back-fill. */
const BACKFILL_BATCH = 1000;

/**
 * Claims for messages that existed before claims did. Whether a sender could read someone else's
 * upload when they linked it cannot be known afterwards (subscriptions have changed since), so
 * only the safe part is back-filled: a message claims the uploads its own sender owns. Links are
 * read from the rendered HTML here, not with the live parser, so that this migration keeps doing
 * what it did when it shipped.
 */
async function backfillOwnerClaims(db: Kysely<any>) {
  const any = await db.selectFrom('attachments').select('id').limit(1).executeTakeFirst();
  if (!any) return;
  for (let after = 0; ;) {
    const rows: { id: number; realm_id: number; sender_id: number; rendered_content: string }[] =
      await db
        .selectFrom('messages')
        .select(['id', 'realm_id', 'sender_id', 'rendered_content'])
        .where('id', '>', after)
        .where('rendered_content', 'like', '%/user_uploads/%')
        .orderBy('id')
        .limit(BACKFILL_BATCH)
        .execute();
    if (!rows.length) return;
    after = rows[rows.length - 1]!.id;
    const linked = new Map<number, Set<string>>();
    for (const row of rows) linked.set(row.id, new Set(uploadPathsInHtml(row.rendered_content)));
    const paths = [...new Set([...linked.values()].flatMap((s) => [...s]))];
    if (!paths.length) continue;
    const attachments: { id: number; realm_id: number; owner_id: number; path_id: string }[] =
      await db
        .selectFrom('attachments')
        .select(['id', 'realm_id', 'owner_id', 'path_id'])
        .where('path_id', 'in', paths)
        .execute();
    const byPath = new Map(attachments.map((a) => [a.path_id, a]));
    const claims = rows.flatMap((row) =>
      [...linked.get(row.id)!].flatMap((p) => {
        const a = byPath.get(p);
        return a && a.realm_id === row.realm_id && a.owner_id === row.sender_id
          ? [{ attachment_id: a.id, message_id: row.id }]
          : [];
      }),
    );
    for (let i = 0; i < claims.length; i += 500)
      await db
        .insertInto('attachment_claims')
        .values(claims.slice(i, i + 500))
        .execute();
  }
}

/** The upload path ids that `href` attributes of rendered HTML point at (relative or absolute). */
function uploadPathsInHtml(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/href="(?:https?:\/\/[^/"]*)?\/user_uploads\/([^"?#]+)/g)) {
    try {
      out.push(decodeURIComponent(m[1]!.replace(/&amp;/g, '&')));
    } catch {
      // not a path any upload has
    }
  }
  return out;
}

export class InCodeMigrations implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations() {
    return migrations(this.dialect);
  }
}
