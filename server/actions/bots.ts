import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { queueControl, type Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { isAdmin, ROLE } from '../domain/roles.js';
import { generateApiKey } from '../domain/password.js';
import { botToApi } from '../domain/serialize.js';
import { SERVICE_INTERFACE, serviceDicts } from '../domain/bot-services.js';
import { servicesOf } from '../lib/service-bots.js';
import { activeUserIds, botAudience } from '../lib/access.js';
import { adminRequired, isDbId } from '../lib/admin-checks.js';
import { realmSettings } from '../lib/realm.js';
import { insertUser, validateFullName } from './users.js';
import { deactivateWithBots } from './user-admin.js';
import { userUpdated } from './announce-user.js';

/**
 * Bots people make for themselves (upstream zerver/views/users.py `add_bot_backend`,
 * `patch_bot_backend`, `regenerate_bot_api_key`, `deactivate_bot_backend`). A bot belongs to its
 * creator; its owner and the administrators see it in `realm_bots` and manage it.
 */

export const BOT_TYPES = {
  GENERIC: 1,
  INCOMING_WEBHOOK: 2,
  OUTGOING_WEBHOOK: 3,
  EMBEDDED: 4,
} as const;
/** The address bots get: `<short name>-bot@` this domain, as the demo's bots have. */
export const BOT_DOMAIN = 'parley.bots';

/** Realm.BOT_CREATION_*: everyone, generic bots by administrators only, administrators only. */
function checkBotCreationPolicy(realm: Realm, actor: User, botType: number) {
  if (isAdmin(actor)) return;
  const policy = Number(realmSettings(realm).bot_creation_policy ?? 1);
  if (policy === 3 || (policy === 2 && botType === BOT_TYPES.GENERIC)) throw adminRequired();
}

/** A bot the actor may manage: its owner or an administrator (upstream `access_bot_by_id`). */
async function manageableBot(db: Database, realm: Realm, actor: User, botId: number) {
  const bot = isDbId(botId)
    ? await db
        .selectFrom('users')
        .selectAll()
        .where('realm_id', '=', realm.id)
        .where('id', '=', botId)
        .where('is_bot', '=', 1)
        .executeTakeFirst()
    : undefined;
  if (!bot) throw badRequest('No such bot');
  if (bot.bot_owner_id !== actor.id && !isAdmin(actor)) throw badRequest('Insufficient permission');
  return bot;
}

async function checkNameAvailable(db: Database, realm: Realm, fullName: string, except?: number) {
  let q = db
    .selectFrom('users')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('is_active', '=', 1)
    .where('full_name', '=', fullName);
  if (except !== undefined) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw badRequest('Name is already in use!');
}

/** POST /bots */
export async function createBot(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  opts: {
    full_name: string;
    short_name: string;
    bot_type: number;
    payload_url?: string;
    interface_type?: number;
    service_name?: string;
  },
) {
  // Embedded bots run inside the reference server when its operator turns them on (off by
  // default); this server runs none, and says so as the reference does when they are off.
  if (opts.bot_type === BOT_TYPES.EMBEDDED) throw badRequest('Embedded bots are not enabled.');
  if (!Object.values(BOT_TYPES).includes(opts.bot_type as 1 | 2 | 3))
    throw badRequest('Invalid bot type');
  checkBotCreationPolicy(realm, actor, opts.bot_type);
  const serviceInterface = checkInterface(opts.interface_type ?? SERVICE_INTERFACE.GENERIC);
  const fullName = validateFullName(opts.full_name);
  const short = opts.short_name.trim().toLowerCase();
  if (!/^[a-z0-9._-]+$/.test(short)) throw badRequest('Bad name or username');
  const email = `${short.endsWith('-bot') ? short : `${short}-bot`}@${BOT_DOMAIN}`;
  return transact(ctx, async (trx, events) => {
    await checkNameAvailable(trx, realm, fullName);
    const existing = await trx
      .selectFrom('users')
      .select('id')
      .where('realm_id', '=', realm.id)
      .where('email', '=', email)
      .executeTakeFirst();
    if (existing) throw badRequest('Username already in use');
    const bot = await insertUser(
      ctx,
      trx,
      realm,
      {
        email,
        fullName,
        password: null,
        role: ROLE.MEMBER,
        isBot: true,
        botType: opts.bot_type,
        botOwnerId: actor.id,
        defaultStreams: false,
        botService:
          opts.bot_type === BOT_TYPES.OUTGOING_WEBHOOK
            ? {
                name: opts.service_name?.trim() || short.replace(/-bot$/, ''),
                base_url: opts.payload_url ?? '',
                interface: serviceInterface,
                token: generateApiKey(),
              }
            : undefined,
      },
      events,
    );
    const api = botToApi(ctx, bot);
    return {
      user_id: bot.id,
      api_key: bot.api_key,
      avatar_url: api.avatar_url,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    };
  });
}

/**
 * GET /bots: the caller's own active bots, oldest first, with their keys (upstream
 * `get_bots_backend`; administrators see others' bots in `realm_bots`, not here).
 */
export async function listOwnBots(ctx: AppContext, realm: Realm, actor: User) {
  const bots = await ctx.db
    .selectFrom('users')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('is_bot', '=', 1)
    .where('is_active', '=', 1)
    .where('bot_owner_id', '=', actor.id)
    .orderBy('date_joined')
    .orderBy('id')
    .execute();
  return {
    bots: bots.map((bot) => {
      const api = botToApi(ctx, bot);
      return {
        username: bot.email,
        full_name: bot.full_name,
        api_key: bot.api_key,
        avatar_url: api.avatar_url,
        default_sending_stream: api.default_sending_stream,
        default_events_register_stream: api.default_events_register_stream,
        default_all_public_streams: api.default_all_public_streams,
      };
    }),
  };
}

/** PATCH /bots/{bot_id}: a new name, or a new owner (an active human of the organization). */
export async function updateBot(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  botId: number,
  changes: {
    full_name?: string;
    bot_owner_id?: number;
    service_payload_url?: string;
    service_interface?: number;
  },
) {
  return transact(ctx, async (trx, events) => {
    const bot = await manageableBot(trx, realm, actor, botId);
    const out: Record<string, unknown> = {};
    if (changes.full_name !== undefined) {
      const fullName = validateFullName(changes.full_name);
      if (fullName !== bot.full_name) {
        await checkNameAvailable(trx, realm, fullName, bot.id);
        await trx
          .updateTable('users')
          .set({ full_name: fullName })
          .where('id', '=', bot.id)
          .execute();
        events.push(
          userUpdated(realm, await activeUserIds(trx, realm.id), {
            user_id: bot.id,
            full_name: fullName,
          }),
        );
        events.push({
          realmId: realm.id,
          userIds: await botAudience(trx, realm, bot),
          event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, full_name: fullName } },
        });
      }
      out.full_name = fullName;
    }
    if (changes.bot_owner_id !== undefined && changes.bot_owner_id !== bot.bot_owner_id) {
      const owner = isDbId(changes.bot_owner_id)
        ? await trx
            .selectFrom('users')
            .selectAll()
            .where('realm_id', '=', realm.id)
            .where('id', '=', changes.bot_owner_id)
            .executeTakeFirst()
        : undefined;
      if (!owner) throw badRequest('Failed to change owner, no such user');
      if (!owner.is_active) throw badRequest('Failed to change owner, user is deactivated');
      if (owner.is_bot) throw badRequest("Failed to change owner, bots can't own other bots");
      await moveOwnership(ctx, trx, realm, bot, owner, events);
      out.bot_owner = owner.email;
    }
    if (changes.service_payload_url !== undefined) {
      const serviceInterface = checkInterface(
        changes.service_interface ?? SERVICE_INTERFACE.GENERIC,
      );
      await updateService(trx, realm, bot, changes.service_payload_url, serviceInterface, events);
      out.service_payload_url = changes.service_payload_url;
      out.service_interface = serviceInterface;
    }
    return out;
  });
}

/** upstream check_valid_interface_type */
function checkInterface(value: number): number {
  if (!Object.values(SERVICE_INTERFACE).includes(value as 1 | 2))
    throw badRequest('Invalid interface type');
  return value;
}

/**
 * upstream do_update_outgoing_webhook_service: a new URL and interface for an outgoing-webhook
 * bot's service (other bots have none, and are left as they are), told to those who see the bot.
 */
async function updateService(
  trx: Database,
  realm: Realm,
  bot: User,
  baseUrl: string,
  serviceInterface: number,
  events: Delivery[],
) {
  const updated = await trx
    .updateTable('bot_services')
    .set({ base_url: baseUrl, interface: serviceInterface })
    .where('bot_id', '=', bot.id)
    .executeTakeFirst();
  if (!Number(updated.numUpdatedRows)) return;
  const service = (await servicesOf(trx, [bot.id])).get(bot.id);
  events.push({
    realmId: realm.id,
    userIds: await botAudience(trx, realm, bot),
    event: {
      type: 'realm_bot',
      op: 'update',
      bot: { user_id: bot.id, services: serviceDicts(bot, service) },
    },
  });
}

/**
 * The old owner (unless an administrator) loses the bot from `realm_bots`, the new one gains it,
 * and the administrators see the new owner; everyone's user list learns the new `bot_owner_id`.
 */
async function moveOwnership(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  bot: User,
  owner: User,
  events: Delivery[],
) {
  const before = new Set(await botAudience(trx, realm, bot));
  await trx.updateTable('users').set({ bot_owner_id: owner.id }).where('id', '=', bot.id).execute();
  const moved: User = { ...bot, bot_owner_id: owner.id };
  const after = new Set(await botAudience(trx, realm, moved));
  const lost = [...before].filter((id) => !after.has(id));
  const gained = [...after].filter((id) => !before.has(id));
  const kept = [...after].filter((id) => before.has(id));
  if (lost.length)
    events.push({
      realmId: realm.id,
      userIds: lost,
      event: { type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } },
    });
  if (gained.length)
    events.push({
      realmId: realm.id,
      userIds: gained,
      event: {
        type: 'realm_bot',
        op: 'add',
        bot: botToApi(ctx, moved, (await servicesOf(trx, [bot.id])).get(bot.id)),
      },
    });
  if (kept.length)
    events.push({
      realmId: realm.id,
      userIds: kept,
      event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: owner.id } },
    });
  events.push(
    userUpdated(realm, await activeUserIds(trx, realm.id), {
      user_id: bot.id,
      bot_owner_id: owner.id,
    }),
  );
}

/** POST /bots/{bot_id}/api_key/regenerate: the old key stops working at once. */
export async function regenerateBotKey(ctx: AppContext, realm: Realm, actor: User, botId: number) {
  return transact(ctx, async (trx, events) => {
    const bot = await manageableBot(trx, realm, actor, botId);
    const apiKey = generateApiKey();
    await trx.updateTable('users').set({ api_key: apiKey }).where('id', '=', bot.id).execute();
    events.push({
      realmId: realm.id,
      userIds: await botAudience(trx, realm, bot),
      event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, api_key: apiKey } },
    });
    // A poll with the old key must fail in every process from now on.
    events.push(queueControl(realm.id, [bot.id], 'reauthenticate'));
    return { api_key: apiKey };
  });
}

/** DELETE /bots/{bot_id}: the bot's owner or an administrator deactivates a bot. */
export async function deactivateBot(ctx: AppContext, realm: Realm, actor: User, botId: number) {
  await transact(ctx, async (trx, events) => {
    const bot = await manageableBot(trx, realm, actor, botId);
    if (!bot.is_active) throw badRequest('User is deactivated');
    await deactivateWithBots(trx, realm, bot, events);
  });
  return {};
}
