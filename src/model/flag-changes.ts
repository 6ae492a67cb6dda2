/**
 * Flag changes the user makes (read, starred) show at once: they are applied to the store and the
 * caches as the event the server will send, and rolled back if the server refuses. Marking as
 * read happens here once, for every way of asking: a button, a whole narrow, messages scrolled
 * past.
 */
import type { Message, UnreadMessageDetails, UpdateMessageFlagsEvent } from '../api/model';
import { updateMessageFlags } from '../api/routes/messages';
import { dmMessageParticipants, isMentioned } from '../narrow';
import type { SessionCore } from './session-core';
import { unreadDetailsFor } from './unreads';

export type FlagChange = Omit<UpdateMessageFlagsEvent, 'id' | 'type'>;

export function applyFlagChangeLocally(session: SessionCore, change: FlagChange): void {
  const store = session.state.getState().store;
  if (!store) return;
  store.getState().flagsChangedLocally(change);
  session.caches.eventsReceived(
    [{ id: -1, type: 'update_message_flags', ...change }],
    store.getState().ownUserId,
  );
}

function unreadDetails(message: Message, ownUserId: number): UnreadMessageDetails {
  if (message.type === 'stream') {
    return {
      type: 'stream',
      stream_id: message.stream_id,
      topic: message.subject,
      mentioned: isMentioned(message.flags),
    };
  }
  const participants = dmMessageParticipants(message, ownUserId) ?? [];
  return {
    type: 'private',
    user_ids: participants.filter((id) => id !== ownUserId),
    mentioned: isMentioned(message.flags),
  };
}

/**
 * Marks messages read at once and asks the server with `send` (one message list, a topic, a
 * channel, everything); if the server refuses they become unread again, in the unread counts
 * too, which is why their details are taken before they disappear from the store. `messages`
 * supplies details for messages the unread state does not know, such as freshly loaded ones.
 */
export async function markAsReadOptimistically(
  session: SessionCore,
  ids: readonly number[],
  send: () => Promise<unknown>,
  options: { all?: boolean; messages?: readonly Message[] } = {},
): Promise<void> {
  const store = session.state.getState().store;
  const ownUserId = store?.getState().ownUserId ?? -1;
  const details: Record<string, UnreadMessageDetails> = {
    ...Object.fromEntries(
      (options.messages ?? []).map((m) => [String(m.id), unreadDetails(m, ownUserId)]),
    ),
    ...(store ? unreadDetailsFor(store.getState().unreads, ids, ownUserId) : {}),
  };
  const messages = [...ids];
  applyFlagChangeLocally(session, { op: 'add', flag: 'read', messages, all: options.all ?? false });
  try {
    await send();
  } catch (error) {
    applyFlagChangeLocally(session, {
      op: 'remove',
      flag: 'read',
      messages,
      all: false,
      message_details: details,
    });
    throw error;
  }
}

/** Adds or removes one flag on messages the user points at; read goes through the one path. */
export async function changeFlag(
  session: SessionCore,
  messages: readonly Message[],
  op: 'add' | 'remove',
  flag: 'read' | 'starred',
): Promise<void> {
  const ids = messages.map((m) => m.id).filter((id) => id > 0);
  if (ids.length === 0) return;
  const send = () => updateMessageFlags(session.connection, { messages: ids, op, flag });
  if (op === 'add' && flag === 'read')
    return markAsReadOptimistically(session, ids, send, { messages });
  const ownUserId = session.state.getState().store?.getState().ownUserId ?? -1;
  const details = Object.fromEntries(
    messages.map((m) => [String(m.id), unreadDetails(m, ownUserId)]),
  );
  const change = (direction: 'add' | 'remove'): FlagChange => ({
    op: direction,
    flag,
    messages: ids,
    all: false,
    message_details: direction === 'remove' && flag === 'read' ? details : undefined,
  });
  applyFlagChangeLocally(session, change(op));
  try {
    await send();
  } catch (error) {
    applyFlagChangeLocally(session, change(op === 'add' ? 'remove' : 'add'));
    throw error;
  }
}

/**
 * Collects messages seen on screen and marks them read in one request per short burst, so that
 * scrolling through a hundred messages costs one or two requests, not a hundred.
 */
export class ReadBatcher {
  private pending = new Map<number, Message>();
  private sent = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly session: SessionCore,
    private readonly delayMs = 400,
  ) {}

  seen(messages: readonly Message[]): void {
    if (this.session.spectator) return; // nothing to mark without an account
    for (const message of messages) {
      if (message.id > 0 && !message.flags.includes('read') && !this.sent.has(message.id))
        this.pending.set(message.id, message);
    }
    if (this.pending.size > 0 && this.timer === null)
      this.timer = setTimeout(() => this.flush(), this.delayMs);
  }

  flush(): void {
    this.timer = null;
    const batch = [...this.pending.values()];
    this.pending.clear();
    if (batch.length === 0) return;
    for (const message of batch) this.sent.add(message.id);
    // Once answered, the messages may be marked again when seen again: rolled back after a
    // refusal, or made unread since ("Mark as unread from here").
    const forget = () => {
      for (const message of batch) this.sent.delete(message.id);
    };
    changeFlag(this.session, batch, 'add', 'read').then(forget, forget);
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.flush();
  }
}
