/** One row of the message list: a date, a recipient bar or a message. */
import type { ReactNode } from 'react';
import { Link } from '../../components/Link';
import type { Message } from '../../api/model';
import { ROLE } from '../../api/model/user';
import {
  useMutedUsers,
  useOwnUserId,
  useRealmSetting,
  useSubscriptionsById,
  useUsersById,
  useUserSetting,
} from '../../model/hooks';
import {
  dmMessageParticipants,
  dmNarrow,
  narrowToUrl,
  streamNarrow,
  topicNarrow,
} from '../../narrow';
import type { ReactionRef } from '../../queries/message-actions';
import { useSession } from '../../model/session-context';
import type { FeedRow } from './build-rows';
import { DateSeparator, MessageItem } from './MessageItem';
import { canDelete, canEditContent } from './permissions';
import { TopicText } from '../search/TopicText';
import { TopicActionsMenu } from '../topics/TopicActionsMenu';
import { useFixedT } from '../../i18n/use-fixed-t';

export interface MessageRowActions {
  onToggleStar(message: Message): void;
  editingId: number | null;
  onEdit(messageId: number | null): void;
  onDelete(message: Message): Promise<string | null>;
  onToggleReaction(message: Message, reaction: ReactionRef, add: boolean): void;
}

export function FeedRowView({ row, ...actions }: { row: FeedRow } & MessageRowActions) {
  switch (row.kind) {
    case 'date':
      return <DateSeparator timestamp={row.timestamp} />;
    case 'recipient':
      return <RecipientRow message={row.message} />;
    case 'message':
      return <MessageRow row={row} {...actions} />;
  }
}

/** The bar above a run of messages: the channel and topic, or who a DM is with. */
function RecipientRow({ message }: { message: Message }) {
  const t = useFixedT('messages');
  const ownUserId = useOwnUserId();
  const subscriptions = useSubscriptionsById();
  const users = useUsersById();
  if (message.type === 'stream') {
    const name = message.display_recipient;
    return (
      <RecipientBar
        message={message}
        streamColor={subscriptions[message.stream_id]?.color}
        streamUrl={narrowToUrl(streamNarrow(message.stream_id), name)}
        topicUrl={narrowToUrl(topicNarrow(message.stream_id, message.subject), name)}
        dmUrl={null}
        dmLabel=""
      />
    );
  }
  const participants = dmMessageParticipants(message, ownUserId) ?? [];
  const others = participants.filter((id) => id !== ownUserId);
  const label =
    others.length === 0
      ? t('list.notesToSelf')
      : t('list.youAnd', {
          names: others.map((id) => users[id]?.full_name ?? t('list.unknownUser')).join(', '),
        });
  return (
    <RecipientBar
      message={message}
      streamColor={undefined}
      streamUrl={null}
      topicUrl={null}
      dmUrl={narrowToUrl(dmNarrow(participants))}
      dmLabel={label}
    />
  );
}

function MessageRow({
  row,
  onToggleStar,
  editingId,
  onEdit,
  onDelete,
  onToggleReaction,
}: { row: Extract<FeedRow, { kind: 'message' }> } & MessageRowActions) {
  const session = useSession();
  const ownUserId = useOwnUserId();
  const settings = useRealmSettings();
  const muted = useMutedUsers();
  const showReactionNames = useUserSetting('display_emoji_reaction_users') ?? true;
  const twentyFourHour = useUserSetting('twenty_four_hour_time');
  const users = useUsersById();
  const actor = { userId: ownUserId, role: users[ownUserId]?.role ?? ROLE.MEMBER };
  const now = Date.now() / 1000;
  const sent = !row.echo;
  return (
    <MessageItem
      message={row.message}
      showSender={row.showSender}
      ownUserId={ownUserId}
      twentyFourHour={twentyFourHour}
      echo={row.echo}
      onToggleStar={onToggleStar}
      onRetry={session.retrySend}
      onCancel={session.cancelSend}
      canEdit={sent && canEditContent(row.message, actor, settings, now)}
      canDelete={sent && canDelete(row.message, actor, settings, now)}
      editing={editingId === row.message.id}
      onEdit={onEdit}
      onDelete={onDelete}
      users={users}
      showReactionNames={showReactionNames}
      onToggleReaction={onToggleReaction}
      mutedSender={row.message.sender_id !== ownUserId && row.message.sender_id in muted}
      readOnly={session.spectator}
    />
  );
}

interface RecipientBarProps {
  message: Message;
  streamColor: string | undefined;
  streamUrl: string | null;
  topicUrl: string | null;
  dmUrl: string | null;
  dmLabel: string;
}

export function RecipientBar({
  message,
  streamColor,
  streamUrl,
  topicUrl,
  dmUrl,
  dmLabel,
}: RecipientBarProps) {
  if (message.type === 'stream') {
    return (
      <div
        className="recipient-bar recipient-stream"
        style={
          { '--stream-color': streamColor ?? 'var(--color-border-strong)' } as Record<
            string,
            string
          >
        }
      >
        <BarLink to={streamUrl}>
          <span className="recipient-swatch" aria-hidden="true" />
          {message.display_recipient}
        </BarLink>
        <span className="recipient-separator" aria-hidden="true">
          ›
        </span>
        <BarLink to={topicUrl}>
          <TopicText message={message} />
        </BarLink>
        <TopicActionsMenu
          streamId={message.stream_id}
          topic={message.subject}
          messageId={message.id}
        />
      </div>
    );
  }
  return (
    <div className="recipient-bar recipient-dm">
      <BarLink to={dmUrl}>{dmLabel}</BarLink>
    </div>
  );
}

function BarLink({ to, children }: { to: string | null; children: ReactNode }) {
  return to ? (
    <Link to={to} className="recipient-link">
      {children}
    </Link>
  ) : (
    <span className="recipient-link">{children}</span>
  );
}

/** The organization settings that decide which message actions to offer. */
function useRealmSettings() {
  return {
    allow_message_editing: useRealmSetting('allow_message_editing'),
    message_content_edit_limit_seconds: useRealmSetting('message_content_edit_limit_seconds'),
    delete_own_message_policy: useRealmSetting('delete_own_message_policy'),
    message_content_delete_limit_seconds: useRealmSetting('message_content_delete_limit_seconds'),
  };
}
