import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Message, Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { DomainError } from '../domain/errors.js';
import {
  OUTGOING_WEBHOOK_BOT,
  SERVICE_INTERFACE,
  type BotService,
} from '../domain/bot-services.js';
import { inContentFormat } from '../domain/content-format.js';
import { nowSeconds } from '../lib/admin-checks.js';
import { buildMessageRecords, dmIds } from '../lib/message-records.js';
import { postWebhook, type WebhookOutcome } from '../lib/webhook-http.js';
import { topicNarrowUrl } from '../markdown/links.js';
import { SERVICE_VERSION } from '../domain/version.js';
import { servicesOf } from '../lib/service-bots.js';
import { insertMessage, type Recipient } from './send-message.js';

/**
 * Outgoing-webhook bots (upstream zerver/lib/outgoing_webhook.py and the outgoing_webhooks queue
 * worker). A message that mentions such a bot in a channel, or a direct message it receives,
 * leaves a job in the message's own transaction; a worker POSTs the message to the bot's service
 * and posts the service's answer as the bot, in the conversation it came from. Failures are told
 * in the conversation ("Failure! …") and, with the details, to the bot's owner.
 */

/** upstream OUTGOING_WEBHOOK_TIMEOUT_SECONDS */
export const WEBHOOK_TIMEOUT_SECONDS = 10;
/** upstream MAX_REQUEST_RETRIES: tries after the first, for timeouts and connection errors */
export const MAX_RETRIES = 3;
/** how long a worker holds a job it took; a process that died lets it go after this */
const CLAIM_SECONDS = 2 * WEBHOOK_TIMEOUT_SECONDS + 30;
const BATCH = 20;
const CLIENT = 'OutgoingWebhookResponse';

type Job = {
  id: number;
  realm_id: number;
  bot_id: number;
  message_id: number;
  trigger: string;
  attempts: number;
};

/**
 * Sends the jobs that are due, each taken with a claim so that another process (or an
 * overlapping tick) leaves it alone, and returns how many it took. `now` is for tests.
 */
export async function runDueWebhookJobs(ctx: AppContext, now = nowSeconds()): Promise<number> {
  const due = await ctx.db
    .selectFrom('outgoing_webhook_jobs')
    .select(['id', 'realm_id', 'bot_id', 'message_id', 'trigger', 'attempts'])
    .where('next_attempt_at', '<=', now)
    .where('claimed_until', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(BATCH)
    .execute();
  const taken: Job[] = [];
  for (const job of due) {
    const claim = await transact(ctx, (trx) =>
      trx
        .updateTable('outgoing_webhook_jobs')
        .set({ claimed_until: now + CLAIM_SECONDS })
        .where('id', '=', job.id)
        .where('claimed_until', '<=', now)
        .executeTakeFirst(),
    );
    if (Number(claim.numUpdatedRows)) taken.push(job);
  }
  // Each bot's server answers in its own time: one slow service does not hold up the others.
  await Promise.all(
    taken.map((job) =>
      runJob(ctx, job).catch((err) =>
        ctx.log.error({ err, job: job.id }, 'An outgoing webhook job failed'),
      ),
    ),
  );
  return taken.length;
}

/** What the worker knows of a trigger while it handles it. */
interface Trigger {
  job: Job;
  realm: Realm;
  bot: User;
  service: BotService;
  message: Message;
  /** the message as the service receives it */
  payload: Record<string, unknown>;
}

async function runJob(ctx: AppContext, job: Job) {
  const trigger = await loadTrigger(ctx, job);
  if (!trigger) {
    await finishJob(ctx, job, []);
    return;
  }
  const { service, message } = trigger;
  const slack = service.interface === SERVICE_INTERFACE.SLACK;
  if (slack && message.type !== 'stream') {
    await finishJob(ctx, job, [
      failure(trigger, "Slack outgoing webhooks don't support direct messages."),
    ]);
    return;
  }
  const outcome = await postWebhook({
    url: service.base_url,
    ...(slack ? slackRequest(trigger) : genericRequest(trigger)),
    userAgent: `ZulipOutgoingWebhook/${SERVICE_VERSION}`,
    timeoutMs: WEBHOOK_TIMEOUT_SECONDS * 1000,
    allow: ctx.config.webhookAllow ?? [],
  });
  ctx.log.info({ bot: trigger.bot.id, outcome: outcome.kind }, 'Outgoing webhook request');
  if (outcome.kind === 'timeout' || outcome.kind === 'connection') {
    const why =
      outcome.kind === 'timeout'
        ? `Request timed out after ${WEBHOOK_TIMEOUT_SECONDS} seconds.`
        : 'A connection error occurred. Is my bot server down?';
    if (job.attempts < MAX_RETRIES) {
      await retryLater(ctx, job);
      return;
    }
    ctx.log.warn({ bot: trigger.bot.email }, 'Maximum retries exceeded for an outgoing webhook');
    await finishJob(ctx, job, [
      failure(trigger, 'Bot is unavailable'),
      ownerNotice(ctx, trigger, { failureMessage: why }),
    ]);
    return;
  }
  await finishJob(ctx, job, answerTo(ctx, trigger, outcome, slack));
}

/** The posts an answer (or a failure) calls for, as upstream's do_rest_call makes them. */
function answerTo(
  ctx: AppContext,
  trigger: Trigger,
  outcome: Exclude<WebhookOutcome, { kind: 'timeout' | 'connection' }>,
  slack: boolean,
): Post[] {
  if (outcome.kind === 'blocked')
    return [
      failure(trigger, 'Third party responded with 407'),
      ownerNotice(ctx, trigger, { status: 407 }),
    ];
  if (outcome.kind === 'exception') {
    const name = outcome.error.name || 'Error';
    return [
      failure(
        trigger,
        `An exception of type *${name}* occurred for message \`${trigger.message.content}\`! See the server logs for more information.`,
      ),
      ownerNotice(ctx, trigger, { exception: outcome.error }),
    ];
  }
  if (outcome.status < 200 || outcome.status > 299)
    return [
      failure(trigger, `Third party responded with ${outcome.status}`),
      ownerNotice(ctx, trigger, { status: outcome.status, response: outcome.body }),
    ];
  let reply: string | null;
  try {
    reply = replyContent(outcome.body, slack);
  } catch (error) {
    const msg = (error as Error).message;
    return [
      failure(trigger, msg),
      ownerNotice(ctx, trigger, {
        failureMessage: `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${msg}`,
        response: outcome.body,
      }),
    ];
  }
  if (reply === null || reply.trim() === '') return [];
  return [{ to: conversationOf(trigger.message), content: reply, asSystem: true }];
}

/** The answer's message, if it asks for one (upstream's process_success for each interface). */
export function replyContent(body: string, slack: boolean): string | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error('Invalid JSON in response');
  }
  // zulip_botserver before 2021-05 answered "" when no answer was needed.
  if (json === '') return null;
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new Error('Invalid response format');
  const answer = json as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  if (slack) return 'text' in answer ? text(answer.text) : null;
  if (answer.response_not_required) return null;
  if ('response_string' in answer) return text(answer.response_string);
  if ('content' in answer) return text(answer.content);
  return null;
}

function genericRequest(trigger: Trigger) {
  const { bot, service, message, payload, job } = trigger;
  return {
    contentType: 'application/json',
    body: JSON.stringify({
      data: message.content,
      message: payload,
      bot_email: bot.email,
      bot_full_name: bot.full_name,
      token: service.token,
      trigger: job.trigger,
    }),
  };
}

/** Slack's outgoing-webhook form, with the fields upstream fills in. */
function slackRequest(trigger: Trigger) {
  const { realm, service, message, payload, job } = trigger;
  const form = new URLSearchParams([
    ['token', service.token],
    ['team_id', `T${realm.id}`],
    ['team_domain', realm.string_id || 'parley'],
    ['channel_id', `C${message.stream_id}`],
    ['channel_name', String(payload.display_recipient)],
    ['thread_ts', String(message.date_sent)],
    ['timestamp', String(message.date_sent)],
    ['user_id', `U${message.sender_id}`],
    ['user_name', String(payload.sender_full_name)],
    ['text', message.content],
    ['trigger_word', job.trigger],
    ['service_id', String(job.bot_id)],
  ]);
  return { contentType: 'application/x-www-form-urlencoded', body: form.toString() };
}

async function loadTrigger(ctx: AppContext, job: Job): Promise<Trigger | null> {
  const db = ctx.db;
  const [realm, bot, message, services] = await Promise.all([
    db.selectFrom('realms').selectAll().where('id', '=', job.realm_id).executeTakeFirst(),
    db.selectFrom('users').selectAll().where('id', '=', job.bot_id).executeTakeFirst(),
    db.selectFrom('messages').selectAll().where('id', '=', job.message_id).executeTakeFirst(),
    servicesOf(db, [job.bot_id]),
  ]);
  const service = services.get(job.bot_id);
  // A bot deactivated, a message deleted, or a service removed since: nothing to send.
  if (!realm || !bot?.is_active || bot.bot_type !== OUTGOING_WEBHOOK_BOT || !message || !service)
    return null;
  const record = (await buildMessageRecords(ctx, db, realm, [message])).get(message.id)!;
  const payload = {
    ...inContentFormat(record, false),
    rendered_content: record.rendered_content,
  };
  return { job, realm, bot, service, message, payload };
}

/** A message the worker posts as the bot, or (`asSystem`) past the channel's posting rules. */
interface Post {
  to: Recipient;
  content: string;
  asSystem: boolean;
}

function conversationOf(message: Message): Recipient {
  return message.type === 'stream'
    ? { type: 'stream', streamId: message.stream_id!, topic: message.topic }
    : { type: 'direct', userIds: dmIds(message.dm_key) };
}

/** upstream fail_with_message: the failure, in the conversation that triggered the bot. */
function failure(trigger: Trigger, why: string): Post {
  return { to: conversationOf(trigger.message), content: `Failure! ${why}`, asSystem: true };
}

/** upstream notify_bot_owner: a direct message from the bot to its owner, with the details. */
function ownerNotice(
  ctx: AppContext,
  trigger: Trigger,
  details: { status?: number; response?: string; failureMessage?: string; exception?: Error },
): Post {
  const { bot } = trigger;
  let text = `[A message](${messageUrl(ctx, trigger)}) to your bot @_**${bot.full_name}** triggered an outgoing webhook.`;
  if (details.exception)
    text += `\nWhen trying to send a request to the webhook service, an exception of type ${details.exception.name} occurred:\n${fenced(details.exception.message)}`;
  else if (details.failureMessage) text += `\n${details.failureMessage}`;
  else if (details.status === 407)
    text += '\nThe URL configured for the webhook is for a private or disallowed network.';
  else if (details.status)
    text += `\nThe webhook got a response with status code *${details.status}*.`;
  if (details.response)
    text += `\nThe response contains the following payload:\n${fenced(details.response.slice(0, 2000))}`;
  return {
    to: { type: 'direct', userIds: bot.bot_owner_id ? [bot.bot_owner_id] : [] },
    content: text,
    asSystem: false,
  };
}

/** A code block around text from elsewhere, its fence longer than any run of backticks in it. */
function fenced(text: string) {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

function messageUrl(ctx: AppContext, { message, payload }: Trigger) {
  const base = ctx.config.externalUrl;
  if (message.type === 'stream') {
    const stream = String(payload.display_recipient);
    return `${base}${topicNarrowUrl(message.stream_id!, stream, message.topic)}/near/${message.id}`;
  }
  const ids = dmIds(message.dm_key);
  return `${base}/#narrow/dm/${ids.join(',')}-${ids.length > 2 ? 'group' : 'dm'}/near/${message.id}`;
}

/** Posts what the job calls for and deletes it, in one transaction: a crash repeats neither. */
async function finishJob(ctx: AppContext, job: Job, posts: Post[]) {
  await transact(ctx, async (trx, events) => {
    await trx.deleteFrom('outgoing_webhook_jobs').where('id', '=', job.id).execute();
    if (!posts.length) return;
    const realm = await trx
      .selectFrom('realms')
      .selectAll()
      .where('id', '=', job.realm_id)
      .executeTakeFirst();
    const bot = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', job.bot_id)
      .executeTakeFirst();
    if (!realm || !bot) return;
    for (const post of posts) {
      if (post.to.type === 'direct' && !post.to.userIds?.length) continue;
      try {
        await sendAsBot(ctx, trx, events, realm, bot, post);
      } catch (error) {
        // The channel was deleted, the owner deactivated…: there is nowhere to say it.
        if (!(error instanceof DomainError)) throw error;
        ctx.log.info(
          { bot: bot.id, err: error.message },
          'An outgoing webhook answer was not sent',
        );
      }
    }
  });
}

function sendAsBot(
  ctx: AppContext,
  trx: Database,
  events: Delivery[],
  realm: Realm,
  bot: User,
  post: Post,
) {
  return insertMessage(
    ctx,
    trx,
    events,
    realm,
    bot,
    { recipient: post.to, content: post.content, client: CLIENT },
    post.asSystem,
  );
}

async function retryLater(ctx: AppContext, job: Job) {
  const attempts = job.attempts + 1;
  await transact(ctx, (trx) =>
    trx
      .updateTable('outgoing_webhook_jobs')
      .set({
        attempts,
        // 5, 10 and 20 seconds: a bot server restarting is back by the last try.
        next_attempt_at: nowSeconds() + 5 * 2 ** (attempts - 1),
        claimed_until: 0,
      })
      .where('id', '=', job.id)
      .execute(),
  );
}

/**
 * Sends due jobs in this process: at once when a message here or in another process triggers a
 * bot (its delivery says so on the bus), and every `intervalMs` for retries and for jobs left by
 * a process that stopped. Returns the function that stops it and waits for a run in progress.
 */
export function startOutgoingWebhooks(
  ctx: AppContext,
  opts: { intervalMs?: number } = {},
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = runDueWebhookJobs(ctx)
      .catch((err) => ctx.log.error({ err }, 'Sending outgoing webhooks failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  ctx.queues.bus.subscribe((deliveries) => {
    if (deliveries.some((d) => d.event && d.outgoingWebhooks)) run();
  });
  const timer = setInterval(run, opts.intervalMs ?? 5000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
