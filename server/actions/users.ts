import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { badRequest, DomainError, realmDeactivated, userDeactivated } from '../domain/errors.js';
import { generateApiKey, hashPassword, newPasswordProblem } from '../domain/password.js';
import { passwordMatches } from './password-check.js';
import { isAdmin, ROLE, VALID_ROLES } from '../domain/roles.js';
import { userToApi } from '../domain/serialize.js';
import { adminRequired } from '../lib/admin-checks.js';
import { subscribeUsersToStreams } from './subscriptions.js';
import type { BotService } from '../domain/bot-services.js';
import { announceNewUser } from './announce-user.js';
import { queueLoginMail, type LoginClient } from './mail.js';
import type { ProfileValue } from '../../src/api/model/user.js';

const EMAIL_RE = /^[^\s@<>(),;:"\\]+@[^\s@<>(),;:"\\]+\.[^\s@<>(),;:"\\]+$/;

export function validateEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL_RE.test(normalized) || normalized.length > 254)
    throw badRequest(`Invalid email '${email}'`);
  return normalized;
}

export function validateFullName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw badRequest('Name too short!');
  if (trimmed.length > 100) throw badRequest('Name too long!');
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw badRequest('Invalid characters in name!');
  return trimmed;
}

export interface CreateUserOptions {
  email: string;
  fullName: string;
  password: string | null;
  role?: number;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  timezone?: string;
  /** subscribe to the organization's default streams */
  defaultStreams?: boolean;
  settings?: Record<string, unknown>;
  /** an outgoing-webhook bot's service, stored and announced with the bot */
  botService?: Omit<BotService, 'bot_id'>;
}

/** Whether an address names an account already, as its real address or its API address. */
export async function addressInUse(db: Database, realmId: number, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('realm_id', '=', realmId)
    .where((eb) => eb.or([eb('delivery_email', '=', email), eb('email', '=', email)]))
    .executeTakeFirst();
  return !!row;
}

/** Creates a user inside an open transaction; the caller publishes `events`. */
export async function insertUser(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  opts: CreateUserOptions,
  events: import('../events/types.js').Delivery[],
): Promise<User> {
  const email = validateEmail(opts.email);
  const fullName = validateFullName(opts.fullName);
  const role = opts.role ?? ROLE.MEMBER;
  if (!VALID_ROLES.includes(role)) throw badRequest('Invalid role');
  if (await addressInUse(trx, realm.id, email)) throw badRequest(`Email '${email}' already in use`);
  const passwordHash = opts.password
    ? await hashPassword(opts.password, ctx.config.scryptCost)
    : null;
  const user = await trx
    .insertInto('users')
    .values({
      realm_id: realm.id,
      email,
      delivery_email: email,
      full_name: fullName,
      password_hash: passwordHash,
      api_key: generateApiKey(),
      role,
      is_bot: opts.isBot ? 1 : 0,
      bot_type: opts.isBot ? (opts.botType ?? 1) : null,
      bot_owner_id: opts.botOwnerId ?? null,
      is_active: 1,
      date_joined: Math.floor(Date.now() / 1000),
      timezone: opts.timezone ?? '',
      avatar_version: 1,
      settings: JSON.stringify(opts.settings ?? {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  let service: BotService | undefined;
  if (opts.botService) {
    service = { ...opts.botService, bot_id: user.id };
    await trx.insertInto('bot_services').values(service).execute();
  }
  await announceNewUser(ctx, trx, realm, user, events, service);
  if (opts.defaultStreams !== false) {
    const defaults = await trx
      .selectFrom('default_streams')
      .select('stream_id')
      .where('realm_id', '=', realm.id)
      .execute();
    if (defaults.length)
      await subscribeUsersToStreams(
        ctx,
        trx,
        realm,
        [user.id],
        defaults.map((d) => d.stream_id),
        events,
      );
  }
  return user;
}

export async function createUser(
  ctx: AppContext,
  realm: Realm,
  opts: CreateUserOptions,
): Promise<User> {
  return transact(ctx, (trx, events) => insertUser(ctx, trx, realm, opts, events));
}

/** POST /users: administrators with the can_create_users permission. */
export async function createUserByAdmin(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  opts: { email: string; password: string; full_name: string },
) {
  const perms = JSON.parse(actor.settings || '{}');
  // Upstream: the administrator decorator first, then the server-granted permission.
  if (!isAdmin(actor)) throw adminRequired();
  if (!perms.can_create_users) throw badRequest('User not authorized to create users');
  // The reference's words; the rule is sign-up's (domain/password.ts).
  if (newPasswordProblem(opts.password)) throw badRequest('The password is too weak.');
  const user = await createUser(ctx, realm, {
    email: opts.email,
    fullName: opts.full_name,
    password: opts.password,
  });
  return { user_id: user.id };
}

/** POST /fetch_api_key */
export async function fetchApiKey(
  ctx: AppContext,
  realm: Realm,
  username: string,
  password: string,
  client?: LoginClient,
) {
  const user = await ctx.db
    .selectFrom('users')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('delivery_email', '=', username.trim().toLowerCase())
    .executeTakeFirst();
  const ok = await passwordMatches(ctx, realm.id, username, user?.password_hash ?? null, password);
  if (!user || !ok) {
    throw new DomainError('Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401);
  }
  if (realm.deactivated) throw realmDeactivated();
  if (!user.is_active) throw userDeactivated();
  if (client && !user.is_bot)
    await transact(ctx, (trx) => queueLoginMail(ctx, trx, realm, user, client));
  // The login address, which authenticates API requests (upstream answers `delivery_email` too).
  return { api_key: user.api_key, email: user.delivery_email, user_id: user.id };
}

export async function setPassword(ctx: AppContext, userId: number, password: string) {
  const hash = await hashPassword(password, ctx.config.scryptCost);
  await transact(ctx, (trx) =>
    trx.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute(),
  );
}

export async function profileDataFor(db: Database, realmId: number, userIds?: number[]) {
  let q = db
    .selectFrom('custom_profile_values')
    .innerJoin(
      'custom_profile_fields',
      'custom_profile_fields.id',
      'custom_profile_values.field_id',
    )
    .select([
      'custom_profile_values.user_id',
      'custom_profile_values.field_id',
      'custom_profile_values.value',
      'custom_profile_values.rendered_value',
    ])
    .where('custom_profile_fields.realm_id', '=', realmId);
  if (userIds) q = q.where('custom_profile_values.user_id', 'in', userIds.length ? userIds : [-1]);
  const rows = await q.execute();
  const byUser = new Map<number, Record<string, ProfileValue>>();
  for (const r of rows) {
    let entry = byUser.get(r.user_id);
    if (!entry) byUser.set(r.user_id, (entry = {}));
    entry[String(r.field_id)] =
      r.rendered_value !== null
        ? { value: r.value, rendered_value: r.rendered_value }
        : { value: r.value };
  }
  return byUser;
}

export async function realmUsers(db: Database, realmId: number): Promise<User[]> {
  return db.selectFrom('users').selectAll().where('realm_id', '=', realmId).orderBy('id').execute();
}

/** GET /users */
export async function getUsers(
  ctx: AppContext,
  realm: Realm,
  viewer: User | null,
  opts: { includeCustomProfileFields: boolean; userIds?: number[] },
) {
  let users = await realmUsers(ctx.db, realm.id);
  if (opts.userIds) {
    const wanted = new Set(opts.userIds);
    users = users.filter((u) => wanted.has(u.id));
  }
  const profiles = opts.includeCustomProfileFields ? await profileDataFor(ctx.db, realm.id) : null;
  return {
    members: users.map((u) =>
      userToApi(ctx, u, viewer, profiles ? (profiles.get(u.id) ?? {}) : undefined),
    ),
  };
}

export async function getUserById(
  ctx: AppContext,
  realm: Realm,
  viewer: User | null,
  userId: number,
  includeCustomProfileFields: boolean,
) {
  const user = await ctx.db
    .selectFrom('users')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw badRequest('No such user');
  const profiles = includeCustomProfileFields
    ? await profileDataFor(ctx.db, realm.id, [user.id])
    : null;
  return {
    user: userToApi(ctx, user, viewer, profiles ? (profiles.get(user.id) ?? {}) : undefined),
  };
}

export async function getUserByEmail(
  ctx: AppContext,
  realm: Realm,
  viewer: User | null,
  email: string,
  includeCustomProfileFields: boolean,
) {
  const user = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  if (!user) throw badRequest('No such user');
  return getUserById(ctx, realm, viewer, user.id, includeCustomProfileFields);
}

/** GET /users/me */
export async function getOwnUser(ctx: AppContext, realm: Realm, user: User) {
  const profiles = await profileDataFor(ctx.db, realm.id, [user.id]);
  const maxMessage = await ctx.db
    .selectFrom('user_messages')
    .select((eb) => eb.fn.max('message_id').as('max_id'))
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  const record = userToApi(
    ctx,
    user,
    user,
    user.is_bot ? undefined : (profiles.get(user.id) ?? {}),
  );
  return { ...record, max_message_id: Number(maxMessage?.max_id ?? -1) };
}
