/**
 * Sending with local echo: the outbox shows the message at once; the server's event replaces it.
 * Messages leave one at a time, in the order they were written, whenever the server can be
 * reached (OutboxSender); a message written without a connection waits, also across a reload.
 *
 * Not in the page's first script: the compose box and the widgets import it, and so load it with
 * the message views; a session with a waiting message kept from an earlier visit loads it then
 * (send.ts). A page that only reads never runs it.
 */
import { describeFailure, ApiRequestError } from '../api/errors';
import type { Message } from '../api/model';
import { getMessages, sendMessage } from '../api/routes/messages';
import { newLocalId, type OutboxDestination, type OutboxMessage } from './outbox';
import { registeredSender, registerSender } from './sender-registry';
import type { SessionCore } from './session-core';

export function sendFromCompose(
  session: SessionCore,
  destination: OutboxDestination,
  content: string,
): void {
  const localId = newLocalId();
  outboxSenderFor(session);
  session.outbox
    .getState()
    .sendStarted({ localId, destination, content, timestamp: Math.floor(Date.now() / 1000) });
}

/** The session's one sender, made at its first use; null once the session has stopped. */
export function outboxSenderFor(session: SessionCore): OutboxSender | null {
  const known = registeredSender(session);
  if (known !== undefined) return known as OutboxSender | null;
  const sender = new OutboxSender(session);
  if (!registerSender(session, sender)) {
    sender.stop();
    return null;
  }
  sender.wake(); // messages that waited before it was made
  return sender;
}

/** A failure after which the same request may succeed: no answer, or the server not ready. */
function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiRequestError)) return true; // fetch itself failed
  const { failure } = error;
  return (
    failure.kind === 'network' ||
    (failure.kind === 'server' && failure.status >= 500) ||
    (failure.kind === 'api' && (failure.status === 429 || failure.status >= 500))
  );
}

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;
/**
 * How far back a message found on the server may be dated before the outbox's own time for it
 * (the browser's clock may be ahead of the server's) and still be taken for it. Wider, and the
 * same words sent a little earlier on purpose would be taken for it.
 */
const CLOCK_SLACK_S = 60;

/**
 * Sends the outbox's waiting messages, oldest first, one at a time, while the session is
 * connected. A request that gets no answer puts its message back to wait; before it goes again,
 * the server's latest messages of the conversation by this person are searched for it, so that a
 * message the server took before the connection broke is not sent twice. A message the server
 * refuses is marked failed, for the user to retry or drop, and the others go on.
 */
export class OutboxSender {
  private running = false;
  private stopped = false;
  private retryDelay = FIRST_RETRY_MS;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** server messages already taken for an outbox message, so that two alike find two */
  private readonly matched = new Set<number>();
  private readonly unsubscribe: (() => void)[];

  constructor(private readonly session: SessionCore) {
    this.unsubscribe = [
      session.outbox.subscribe(() => this.wake()),
      session.state.subscribe((state, previous) => {
        if (state.status === 'connected' && previous.status !== 'connected') {
          // Back: no reason to wait out the back-off.
          if (this.retryTimer) clearTimeout(this.retryTimer);
          this.retryTimer = null;
          this.retryDelay = FIRST_RETRY_MS;
          this.wake();
        }
      }),
    ];
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }

  /** Looks for work, after the change that called it has finished. */
  wake(): void {
    if (this.running || this.stopped || this.retryTimer) return;
    queueMicrotask(() => void this.run());
  }

  private async run() {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      while (!this.stopped && this.session.state.getState().status === 'connected') {
        const next = this.session.outbox.getState().messages.find((m) => m.status === 'waiting');
        if (!next) return;
        if (!(await this.deliver(next))) {
          this.retryLater();
          return;
        }
        this.retryDelay = FIRST_RETRY_MS;
      }
    } finally {
      this.running = false;
    }
  }

  private retryLater() {
    if (this.stopped) return;
    const delay = this.retryDelay * (0.75 + Math.random() / 2);
    this.retryDelay = Math.min(LAST_RETRY_MS, this.retryDelay * 2);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.wake();
    }, delay);
  }

  /** One message's turn; false when the server could not be reached (try again later). */
  private async deliver(entry: OutboxMessage): Promise<boolean> {
    const { outbox } = this.session;
    const { localId } = entry;
    outbox.getState().requestStarted(localId);
    try {
      if (entry.mayHaveArrived) {
        const found = await this.findOnServer(entry);
        if (found !== null) {
          // The server has it, and its history (fetched again) shows it: the echo can go.
          outbox.getState().sendAccepted(localId, found);
          outbox.getState().echoesArrived([localId]);
          this.session.caches.refreshMessages();
          return true;
        }
      }
      const queueId = this.session.state.getState().store?.getState().queueId ?? undefined;
      const echo = queueId ? { queue_id: queueId, local_id: localId } : {};
      const { destination, content } = entry;
      const result =
        destination.type === 'stream'
          ? await sendMessage(this.session.connection, {
              type: 'stream',
              to: destination.streamId,
              topic: destination.topic,
              content,
              ...echo,
            })
          : await sendMessage(this.session.connection, {
              type: 'direct',
              to: destination.userIds,
              content,
              ...echo,
            });
      this.matched.add(result.id);
      // The event may have come first and taken the echo away already.
      if (outbox.getState().messages.some((m) => m.localId === localId))
        outbox.getState().sendAccepted(localId, result.id);
      return true;
    } catch (error) {
      if (!outbox.getState().messages.some((m) => m.localId === localId)) return true; // dropped
      if (isTransient(error)) {
        outbox.getState().requestInterrupted(localId);
        return false;
      }
      outbox
        .getState()
        .sendFailed(
          localId,
          error instanceof ApiRequestError ? describeFailure(error.failure) : String(error),
        );
      return true;
    }
  }

  /** The id of this person's message on the server that is `entry`, or null. */
  private async findOnServer(entry: OutboxMessage): Promise<number | null> {
    const store = this.session.state.getState().store;
    if (!store) return null;
    const me = store.getState().ownUserId;
    const { destination } = entry;
    const narrow =
      destination.type === 'stream'
        ? [
            { operator: 'channel', operand: destination.streamId },
            { operator: 'topic', operand: destination.topic },
            { operator: 'sender', operand: me },
          ]
        : [
            { operator: 'dm', operand: destination.userIds },
            { operator: 'sender', operand: me },
          ];
    const { messages } = await getMessages(this.session.connection, {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow,
      apply_markdown: false,
    });
    const wanted = entry.content.trim();
    const match = (messages as Message[]).find(
      (m) =>
        !this.matched.has(m.id) &&
        m.timestamp >= entry.timestamp - CLOCK_SLACK_S &&
        m.content.trim() === wanted,
    );
    if (!match) return null;
    this.matched.add(match.id);
    return match.id;
  }
}
