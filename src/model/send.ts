/** Sending with local echo: the outbox shows the message at once; the server's event replaces it. */
import { describeFailure, ApiRequestError } from '../api/errors';
import { sendMessage } from '../api/routes/messages';
import { newLocalId, type OutboxDestination } from './outbox';
import type { SessionCore } from './session-core';

export function sendFromCompose(
  session: SessionCore,
  destination: OutboxDestination,
  content: string,
): void {
  const localId = newLocalId();
  session.outbox
    .getState()
    .sendStarted({ localId, destination, content, timestamp: Math.floor(Date.now() / 1000) });
  void deliver(session, localId);
}

export function retrySend(session: SessionCore, localId: string): void {
  session.outbox.getState().retryStarted(localId);
  void deliver(session, localId);
}

async function deliver(session: SessionCore, localId: string): Promise<void> {
  const entry = session.outbox.getState().messages.find((m) => m.localId === localId);
  if (!entry) return;
  const queueId = session.state.getState().store?.getState().queueId ?? undefined;
  const echo = queueId ? { queue_id: queueId, local_id: localId } : {};
  const { destination, content } = entry;
  try {
    const result =
      destination.type === 'stream'
        ? await sendMessage(session.connection, {
            type: 'stream',
            to: destination.streamId,
            topic: destination.topic,
            content,
            ...echo,
          })
        : await sendMessage(session.connection, {
            type: 'direct',
            to: destination.userIds,
            content,
            ...echo,
          });
    session.outbox.getState().sendAccepted(localId, result.id);
  } catch (error) {
    const reason =
      error instanceof ApiRequestError ? describeFailure(error.failure) : String(error);
    session.outbox.getState().sendFailed(localId, reason);
  }
}
