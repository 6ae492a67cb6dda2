/**
 * Bots the user may manage (`realm_bots`): every bot for administrators, their own for others.
 * Bots are users too; what they send and who they are comes from the users state.
 */
import type { Bot, RealmBotEvent, RegisterResponse } from '../api/model';

export interface BotsState {
  byId: Readonly<Record<number, Bot>>;
}

export function botsFromSnapshot(register: RegisterResponse): BotsState {
  const byId: Record<number, Bot> = {};
  for (const bot of register.realm_bots ?? []) byId[bot.user_id] = bot;
  return { byId };
}

/**
 * Whether an update leaves a property as it was. `services` (an outgoing webhook's URL, format
 * and token) is a list of plain objects, compared by content: an update carries a new list.
 */
function sameValue(old: unknown, value: unknown): boolean {
  if (old === value) return true;
  if (typeof old !== 'object' || typeof value !== 'object' || old === null || value === null)
    return false;
  return JSON.stringify(old) === JSON.stringify(value);
}

export function reduceBots(state: BotsState, event: RealmBotEvent): BotsState {
  const existing = state.byId[event.bot.user_id];
  switch (event.op) {
    case 'add':
      return { byId: { ...state.byId, [event.bot.user_id]: event.bot } };
    case 'update': {
      // Any property may come, `services` among them when an outgoing webhook's URL or format
      // changes; what comes replaces what the bot had.
      if (!existing) return state;
      const changed = Object.entries(event.bot).some(
        ([key, value]) => !sameValue(existing[key as keyof Bot], value),
      );
      return changed
        ? { byId: { ...state.byId, [existing.user_id]: { ...existing, ...event.bot } } }
        : state;
    }
    case 'remove':
      // Older servers' way of saying the bot was deactivated.
      if (!existing || !existing.is_active) return state;
      return { byId: { ...state.byId, [existing.user_id]: { ...existing, is_active: false } } };
    case 'delete': {
      if (!existing) return state;
      const byId = { ...state.byId };
      delete byId[existing.user_id];
      return { byId };
    }
  }
}

/** The bots a user owns, by name. */
export function botsOwnedBy(state: BotsState, ownerId: number): Bot[] {
  return Object.values(state.byId)
    .filter((bot) => bot.owner_id === ownerId)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
}
