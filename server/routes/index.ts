import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { messageRoutes } from './messages.js';
import { uploadRoutes } from './uploads.js';
import { draftRoutes } from './drafts.js';
import { scheduledMessageRoutes } from './scheduled-messages.js';
import { channelRoutes } from './channels.js';
import { subscriptionRoutes } from './subscriptions.js';
import { userRoutes } from './users.js';
import { userGroupRoutes } from './user-groups.js';
import { botRoutes } from './bots.js';
import { invitationRoutes } from './invitations.js';
import { serverAndOrganizationRoutes } from './server-and-organizations.js';
import { realTimeEventRoutes } from './real-time-events.js';
import { specialtyRoutes } from './specialty-endpoints.js';
import { operationsRoutes } from './operations.js';
import { assetRoutes } from './assets.js';
import { accountPages } from './account-pages.js';
import { mailRoutes } from './mail.js';
import { webPublicEventRoutes } from './web-public-events.js';

/**
 * The API's routes, filed as the sections of the API documentation (https://zulip.com/api/),
 * each a Fastify plugin registered with the app's context:
 *
 * | section                | files                                |
 * |------------------------|--------------------------------------|
 * | Messages               | messages.ts, uploads.ts              |
 * | Drafts                 | drafts.ts                            |
 * | Scheduled messages     | scheduled-messages.ts                |
 * | Channels               | channels.ts, subscriptions.ts        |
 * | Users                  | users.ts, user-groups.ts, bots.ts    |
 * | Invitations            | invitations.ts                       |
 * | Server & organizations | server-and-organizations.ts          |
 * | Real-time events       | real-time-events.ts                  |
 * | Specialty endpoints    | specialty-endpoints.ts               |
 * | (Parley: mail)         | mail.ts                              |
 * | (Parley: visitors)     | web-public-events.ts                 |
 */
const API_ROUTES = [
  messageRoutes,
  uploadRoutes,
  draftRoutes,
  scheduledMessageRoutes,
  channelRoutes,
  subscriptionRoutes,
  userRoutes,
  userGroupRoutes,
  botRoutes,
  invitationRoutes,
  serverAndOrganizationRoutes,
  realTimeEventRoutes,
  specialtyRoutes,
  mailRoutes,
  webPublicEventRoutes,
];

/**
 * Outside the API: probes and metrics (operations.ts), images (assets.ts: avatars, organization
 * icons, custom emoji) and the pages links in emails open (account-pages.ts). The web client's
 * files and its own addresses (client-app.ts) come last, after every other route, in app.ts.
 */
const OTHER_ROUTES = [operationsRoutes, assetRoutes, accountPages];

/** Registers every route; they are added when the app loads its plugins (`ready`, `listen`). */
export function registerRoutes(app: FastifyInstance, ctx: AppContext) {
  for (const routes of [...API_ROUTES, ...OTHER_ROUTES]) app.register(routes, { ctx });
}
