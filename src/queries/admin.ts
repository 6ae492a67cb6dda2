/**
 * What administrators do to the organization. People and bots come from the live store (realm_user
 * and realm_bot events keep it current), so their mutations touch no cache; the pending
 * invitations are fetched and refetched when an `invites_changed` event says they changed.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiConnection } from '../api/connection';
import type { Bot, OutgoingWebhookService } from '../api/model';
import {
  createInviteLink,
  getInvites,
  resendEmailInvite,
  revokeEmailInvite,
  revokeInviteLink,
  sendInvites,
  type PendingInvite,
} from '../api/routes/invitations';
import {
  createBot,
  deactivateBot,
  deactivateUser,
  reactivateUser,
  regenerateBotKey,
  updateBot,
  updateUser,
} from '../api/routes/users';
import { getMailLog } from '../api/extensions/mail-log';
import { useSessionCore } from '../model/session-core';

export const inviteKeys = { all: ['invites'] as const };
export const mailKeys = { all: ['parley-mail'] as const };

/**
 * The organization's outgoing mail (a Parley extension). No event announces new mail, so the
 * list is fetched again every 15 seconds while it is shown.
 */
export function useMailLog() {
  const { connection } = useSessionCore();
  return useQuery({
    queryKey: mailKeys.all,
    queryFn: () => getMailLog(connection),
    refetchInterval: 15_000,
  });
}

export function invitesQuery(connection: ApiConnection) {
  return queryOptions({
    queryKey: inviteKeys.all,
    queryFn: async (): Promise<PendingInvite[]> => (await getInvites(connection)).invites,
  });
}

/** The pending invitations (email and links) the reader may manage, soonest to expire first. */
export function useInvites() {
  const { connection } = useSessionCore();
  return useQuery(invitesQuery(connection));
}

export interface NewInviteLink {
  role: number;
  /** null: the link never expires */
  expiresInMinutes: number | null;
}

/** A reusable sign-up link; new people join the organization's default channels. */
export function useCreateInviteLink() {
  const { connection } = useSessionCore();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ role, expiresInMinutes }: NewInviteLink) =>
      createInviteLink(connection, {
        invite_as: role,
        invite_expires_in_minutes: expiresInMinutes,
        include_realm_default_subscriptions: true,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inviteKeys.all }),
  });
}

export interface NewEmailInvites {
  emails: string;
  role: number;
  streamIds: number[];
  /** with no channels chosen, join the organization's default channels */
  defaultChannels: boolean;
  expiresInMinutes: number | null;
}

/** Invitations by email; the server mails each address its own sign-up link. */
export function useInviteByEmail() {
  const { connection } = useSessionCore();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invites: NewEmailInvites) =>
      sendInvites(connection, {
        invitee_emails: invites.emails,
        invite_as: invites.role,
        stream_ids: invites.streamIds,
        invite_expires_in_minutes: invites.expiresInMinutes,
        include_realm_default_subscriptions: invites.defaultChannels,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inviteKeys.all }),
  });
}

/** Revokes an invitation; it leaves the list at once (and returns if the server refuses). */
export function useRevokeInvite() {
  const { connection } = useSessionCore();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invite: PendingInvite) =>
      invite.is_multiuse
        ? revokeInviteLink(connection, invite.id)
        : revokeEmailInvite(connection, invite.id),
    onMutate: async (invite) => {
      await queryClient.cancelQueries({ queryKey: inviteKeys.all });
      const before = queryClient.getQueryData<PendingInvite[]>(inviteKeys.all);
      queryClient.setQueryData<PendingInvite[]>(inviteKeys.all, (list) =>
        list?.filter((i) => !(i.id === invite.id && i.is_multiuse === invite.is_multiuse)),
      );
      return { before };
    },
    onError: (_error, _invite, context) =>
      queryClient.setQueryData(inviteKeys.all, context?.before),
    onSettled: () => queryClient.invalidateQueries({ queryKey: inviteKeys.all }),
  });
}

export function useResendInvite() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (id: number) => resendEmailInvite(connection, id) });
}

export function useDeactivateUser() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (userId: number) => deactivateUser(connection, userId) });
}

export function useReactivateUser() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (userId: number) => reactivateUser(connection, userId) });
}

/** A new role or name for someone; the realm_user event brings it into every list. */
export function useUpdateUser() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ userId, ...changes }: { userId: number; full_name?: string; role?: number }) =>
      updateUser(connection, userId, changes),
  });
}

export const BOT_TYPE = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3 } as const;

/** The format an outgoing webhook bot's server is sent messages in (`interface_type`). */
export const BOT_INTERFACE = { GENERIC: 1, SLACK: 2 } as const;

/** An outgoing webhook bot's service (where it is sent messages), if the bot is one. */
export function outgoingWebhookOf(bot: Bot): OutgoingWebhookService | undefined {
  if (bot.bot_type !== BOT_TYPE.OUTGOING_WEBHOOK) return undefined;
  return bot.services.find(
    (s): s is OutgoingWebhookService => 'base_url' in s && typeof s.base_url === 'string',
  );
}

/**
 * A new bot owned by the reader; the realm_bot event adds it to the lists. An outgoing webhook
 * bot also has the URL it is sent messages at and their format; other types send neither.
 */
export function useCreateBot() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (bot: {
      fullName: string;
      shortName: string;
      botType: number;
      payloadUrl?: string;
      interfaceType?: number;
    }) => {
      const outgoing = bot.botType === BOT_TYPE.OUTGOING_WEBHOOK;
      return createBot(connection, {
        full_name: bot.fullName,
        short_name: bot.shortName,
        bot_type: bot.botType,
        payload_url: outgoing ? bot.payloadUrl : undefined,
        interface_type: outgoing ? bot.interfaceType : undefined,
      });
    },
  });
}

export function useUpdateBot() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({
      botId,
      ...changes
    }: {
      botId: number;
      full_name?: string;
      bot_owner_id?: number;
      service_payload_url?: string;
      service_interface?: number;
    }) => updateBot(connection, botId, changes),
  });
}

export function useRegenerateBotKey() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (botId: number) => regenerateBotKey(connection, botId) });
}

export function useDeactivateBot() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (botId: number) => deactivateBot(connection, botId) });
}

/** The zuliprc file a bot's owner downloads to run it with the API's clients. */
export function zuliprc(email: string, apiKey: string, site: string): string {
  return `[api]\nemail=${email}\nkey=${apiKey}\nsite=${site}\n`;
}
