/**
 * Outgoing-webhook bots' services (upstream's Service model): where a bot's triggers are sent, in
 * which format, with which token.
 */

export const OUTGOING_WEBHOOK_BOT = 3;
/** 1: Zulip's own JSON payload; 2: Slack's outgoing-webhook form (upstream's interface types) */
export const SERVICE_INTERFACE = { GENERIC: 1, SLACK: 2 } as const;

export interface BotService {
  bot_id: number;
  name: string;
  base_url: string;
  interface: number;
  token: string;
}

/** A bot's services as `realm_bots` shows them to its owner and the administrators. */
export function serviceDicts(bot: { bot_type: number | null }, service: BotService | undefined) {
  if (bot.bot_type !== OUTGOING_WEBHOOK_BOT || !service) return [];
  return [{ base_url: service.base_url, interface: service.interface, token: service.token }];
}
