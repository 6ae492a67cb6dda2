/**
 * `announce` on channel creation: the notification bot tells the organization's new-channel
 * announcements channel about each new public channel, as the reference server does (private
 * channels are never announced; no announcements channel means no announcement).
 */
import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, Stream, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { realmSettings } from '../lib/realm.js';
import { insertMessage } from './send-message.js';
import { notificationBot } from './system-bots.js';

export const NEW_CHANNELS_TOPIC = 'new channels';

export async function announceNewStreams(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  actor: User,
  created: readonly Stream[],
  events: Delivery[],
) {
  const target = realmSettings(realm).new_stream_announcements_stream_id;
  if (typeof target !== 'number' || target < 0) return;
  const announced = await trx
    .selectFrom('streams')
    .select('id')
    .where('id', '=', target)
    .where('realm_id', '=', realm.id)
    .where('deactivated', '=', 0)
    .executeTakeFirst();
  if (!announced) return;
  const bot = await notificationBot(ctx, trx, realm, events);
  for (const stream of created) {
    if (stream.invite_only) continue;
    await insertMessage(
      ctx,
      trx,
      events,
      realm,
      bot,
      {
        recipient: { type: 'stream', streamId: target, topic: NEW_CHANNELS_TOPIC },
        content: `@_**${actor.full_name}|${actor.id}** created a new channel #**${stream.name}**.`,
        client: 'Internal',
      },
      true,
    );
  }
}
