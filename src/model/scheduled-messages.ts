/** The user's messages scheduled for later delivery, by id. */
import type { RegisterResponse, ScheduledMessage, ScheduledMessagesEvent } from '../api/model';

export interface ScheduledMessagesState {
  byId: Readonly<Record<number, ScheduledMessage>>;
}

export function scheduledMessagesFromSnapshot(register: RegisterResponse): ScheduledMessagesState {
  const byId: Record<number, ScheduledMessage> = {};
  for (const message of register.scheduled_messages ?? [])
    byId[message.scheduled_message_id] = message;
  return { byId };
}

export function reduceScheduledMessages(
  state: ScheduledMessagesState,
  event: ScheduledMessagesEvent,
): ScheduledMessagesState {
  switch (event.op) {
    case 'add': {
      if (event.scheduled_messages.length === 0) return state;
      const byId = { ...state.byId };
      for (const message of event.scheduled_messages) byId[message.scheduled_message_id] = message;
      return { byId };
    }
    case 'update': {
      const message = event.scheduled_message;
      // Delivery removes a message; a late update must not bring it back.
      if (!(message.scheduled_message_id in state.byId)) return state;
      return { byId: { ...state.byId, [message.scheduled_message_id]: message } };
    }
    case 'remove': {
      if (!(event.scheduled_message_id in state.byId)) return state;
      const byId = { ...state.byId };
      delete byId[event.scheduled_message_id];
      return { byId };
    }
  }
}

/** Soonest first, as the server lists them. */
export function sortedScheduledMessages(state: ScheduledMessagesState): ScheduledMessage[] {
  return Object.values(state.byId).sort(
    (a, b) =>
      a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp ||
      a.scheduled_message_id - b.scheduled_message_id,
  );
}
