import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { authRoutes } from './auth.js';
import { eventRoutes } from './events.js';
import { messageRoutes } from './messages.js';
import { streamRoutes } from './streams.js';
import { userRoutes } from './users.js';
import { assetRoutes } from './assets.js';
import { flagRoutes } from './flags.js';
import { draftRoutes } from './drafts.js';
import { topicRoutes } from './topics.js';
import { reactionRoutes } from './reactions.js';
import { messageEditRoutes } from './message-edits.js';
import { settingsRoutes } from './settings.js';
import { subscriptionSettingRoutes } from './subscription-settings.js';

export function registerRoutes(app: FastifyInstance, ctx: AppContext) {
  authRoutes(app, ctx);
  userRoutes(app, ctx);
  streamRoutes(app, ctx);
  messageRoutes(app, ctx);
  eventRoutes(app, ctx);
  flagRoutes(app, ctx);
  draftRoutes(app, ctx);
  topicRoutes(app, ctx);
  reactionRoutes(app, ctx);
  messageEditRoutes(app, ctx);
  settingsRoutes(app, ctx);
  subscriptionSettingRoutes(app, ctx);
  assetRoutes(app, ctx);
}
