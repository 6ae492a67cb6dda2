import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import {
  createBot,
  deactivateBot,
  listOwnBots,
  regenerateBotKey,
  updateBot,
} from '../actions/bots.js';
import { deleteBotStorage, getBotStorage, putBotStorage } from '../actions/bot-storage.js';
import { check, p, type Checker } from '../http/params.js';
import { invalidParam } from '../domain/errors.js';

/**
 * The "Users" section's bots, which upstream serves without documenting them: bots people own;
 * create, rename or give away, new API key, deactivate.
 */
export async function botRoutes(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    { method: 'GET', path: '/bots', callers: 'members', params: {} },
    async ({ realm, user }) => listOwnBots(ctx, realm, user),
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/bots',
      callers: 'members',
      params: {
        full_name: p.string(),
        short_name: p.string(),
        bot_type: p.int().default(1),
        // JSON-encoded, as upstream's json_validator=check_url
        payload_url: p.json(webhookUrl).optional(),
        interface_type: p.int().optional(),
        service_name: p.string().optional(),
      },
    },
    async ({ realm, user, params }) => createBot(ctx, realm, user, params),
  );

  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/bots/:bot_id',
      pathInts: ['bot_id'],
      params: {
        full_name: p.string().optional(),
        bot_owner_id: p.int().optional(),
        service_payload_url: p.json(webhookUrl).optional(),
        service_interface: p.int().optional(),
      },
    },
    async ({ realm, user, params, pathInt }) =>
      updateBot(ctx, realm, user, pathInt('bot_id'), params),
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/bots/:bot_id/api_key/regenerate',
      pathInts: ['bot_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) => regenerateBotKey(ctx, realm, user, pathInt('bot_id')),
  );

  route(
    app,
    ctx,
    { method: 'DELETE', path: '/bots/:bot_id', pathInts: ['bot_id'], params: {} },
    async ({ realm, user, pathInt }) => deactivateBot(ctx, realm, user, pathInt('bot_id')),
  );

  // A bot's own storage (zulip_bots' state handler); people are refused ("Must be a bot user").
  route(
    app,
    ctx,
    { method: 'GET', path: '/bot_storage', params: { keys: p.stringList().optional() } },
    async ({ user, params }) => getBotStorage(ctx, user, params.keys),
  );

  route(
    app,
    ctx,
    { method: 'PUT', path: '/bot_storage', params: { storage: p.json(stringDict) } },
    async ({ user, params }) => putBotStorage(ctx, user, params.storage),
  );

  route(
    app,
    ctx,
    { method: 'DELETE', path: '/bot_storage', params: { keys: p.stringList().optional() } },
    async ({ user, params }) => deleteBotStorage(ctx, user, params.keys),
  );
}

/** A JSON object whose values are all strings, as upstream's check_dict(value_validator=check_string). */
const stringDict: Checker<Record<string, string>> = (value, name) => {
  const dict = check.object(value, name);
  for (const [key, item] of Object.entries(dict))
    if (typeof item !== 'string')
      throw invalidParam(name, `${name}[${JSON.stringify(key)}] is not a string`);
  return dict as Record<string, string>;
};

/** upstream check_url: an absolute http(s) URL ("payload_url is not a URL" otherwise). */
const webhookUrl: Checker<string> = (value, name) => {
  const url = typeof value === 'string' ? value.trim() : null;
  if (url === null || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw invalidParam(name, `${name} is not a URL`);
  return url;
};
