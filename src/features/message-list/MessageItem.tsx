import { memo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useUploadImages } from './uploads';
import { Link } from 'react-router';
import type { Message, User } from '../../api/model';
import type { ReactionRef } from '../../queries/message-actions';
import { Avatar } from '../../components/Avatar';
import { PersonTrigger } from '../people/PersonTrigger';
import { EditIcon, StarIcon, TrashIcon } from '../../components/icons';
import type { OutboxMessage } from '../../model/outbox';
import { isMentioned } from '../../narrow';
import { messageUrl } from '../../narrow/url';
import { useOwnUserGroupIds } from '../../model/hooks';
import { onMessageContentClick } from './content-clicks';
import { MessageTime } from './MessageTime';
import { formatDay, formatTime } from './format';
import { CollapsedNotice } from '../message-actions/CollapsedNotice';
import { MessageActionsMenu } from '../message-actions/MessageActionsMenu';
import { MessageEditor } from './MessageEditor';
import { ReactionPicker, Reactions } from './Reactions';
import { sanitizeMessageHtml } from './sanitize';
import { TopicText } from '../search/TopicText';
import { MoveMessageButton } from '../topics/MoveMessageButton';
import { TopicActionsMenu } from '../topics/TopicActionsMenu';

interface MessageItemProps {
  message: Message;
  showSender: boolean;
  ownUserId: number;
  twentyFourHour: boolean;
  echo?: OutboxMessage;
  onToggleStar(message: Message): void;
  onRetry(localId: string): void;
  onCancel(localId: string): void;
  canEdit: boolean;
  canDelete: boolean;
  editing: boolean;
  onEdit(messageId: number | null): void;
  onDelete(message: Message): Promise<string | null>;
  users: Readonly<Record<number, User>>;
  showReactionNames: boolean;
  onToggleReaction(message: Message, reaction: ReactionRef, add: boolean): void;
  /** the sender is a user you muted: the message stays hidden until revealed */
  mutedSender: boolean;
  /** a visitor without an account: nothing to star, react, edit or delete */
  readOnly: boolean;
}

export const MessageItem = memo(function MessageItem(props: MessageItemProps) {
  const { message, showSender, ownUserId, twentyFourHour, echo } = props;
  const { t } = useTranslation('messages');
  const unread = !message.flags.includes('read');
  const starred = message.flags.includes('starred');
  const classes = [
    'message',
    showSender ? 'message-first' : '',
    unread ? 'message-unread' : '',
    isMentioned(message.flags) ? 'message-mentioned' : '',
    echo ? `message-echo message-echo-${echo.status}` : '',
  ];
  const time = formatTime(message.timestamp, twentyFourHour);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const content = useRef<HTMLDivElement>(null);
  const ownGroupIds = useOwnUserGroupIds();
  const html = sanitizeMessageHtml(message.content, ownUserId, {
    groupIds: ownGroupIds,
    twentyFourHour,
  });
  const permalink = echo ? null : messageUrl(message, ownUserId);
  useUploadImages(content, html);
  const hidden = props.mutedSender && !revealed;
  // The sender as they are now (renamed, new picture), as the message recorded them otherwise.
  const sender = props.users[message.sender_id];
  const senderName = props.mutedSender
    ? t('item.mutedUser')
    : (sender?.full_name ?? message.sender_full_name);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const confirmDelete = async () => {
    const failure = await props.onDelete(message);
    setDeleteError(failure);
    if (!failure) setConfirmingDelete(false);
  };

  return (
    <article
      className={classes.filter(Boolean).join(' ')}
      aria-label={t('item.label', { sender: senderName, time })}
      data-message-id={message.id}
    >
      <div className="message-gutter">
        {showSender ? (
          <PersonTrigger userId={message.sender_id} duplicate>
            <Avatar
              url={props.mutedSender ? null : (sender?.avatar_url ?? message.avatar_url)}
              name={senderName}
              size={36}
            />
          </PersonTrigger>
        ) : (
          <MessageTime
            className="message-hover-time"
            timestamp={message.timestamp}
            time={time}
            permalink={permalink}
          />
        )}
      </div>
      <div className="message-main">
        {showSender && (
          <div className="message-header">
            <PersonTrigger userId={message.sender_id} className="message-sender">
              {senderName}
            </PersonTrigger>
            <MessageTime timestamp={message.timestamp} time={time} permalink={permalink} />
          </div>
        )}
        {hidden ? (
          <p className="message-hidden">
            {t('item.hidden')}{' '}
            <button type="button" className="link-button" onClick={() => setRevealed(true)}>
              {t('item.showIt')}
            </button>
          </p>
        ) : props.editing ? (
          <MessageEditor messageId={message.id} onDone={() => props.onEdit(null)} />
        ) : message.flags.includes('collapsed') ? (
          <CollapsedNotice message={message} />
        ) : (
          <div
            ref={content}
            className="message-content rendered-markdown"
            dangerouslySetInnerHTML={{ __html: html }}
            onClick={(event) => onMessageContentClick(event, message.id)}
          />
        )}
        {!echo && !hidden && (
          <Reactions
            message={message}
            ownUserId={ownUserId}
            users={props.users}
            showNames={props.showReactionNames}
            readOnly={props.readOnly}
            onToggle={props.onToggleReaction}
          />
        )}
        {confirmingDelete && (
          <div className="message-confirm" role="group" aria-label={t('item.deleteGroup')}>
            <span>{t('item.deleteQuestion')}</span>
            <button
              type="button"
              className="button button-small button-danger"
              onClick={() => void confirmDelete()}
            >
              {t('item.delete')}
            </button>
            <button
              type="button"
              className="button button-small button-quiet"
              onClick={() => {
                setConfirmingDelete(false);
                setDeleteError(null);
              }}
            >
              {t('item.keep')}
            </button>
            {deleteError && (
              <span className="message-editor-error" role="alert">
                {deleteError}
              </span>
            )}
          </div>
        )}
        {!props.editing && message.last_edit_timestamp !== undefined && (
          <span className="message-edited">{t('item.edited')}</span>
        )}
        {echo && <EchoStatus echo={echo} onRetry={props.onRetry} onCancel={props.onCancel} />}
      </div>
      {!echo && !props.readOnly && (
        <div className="message-actions">
          <button
            type="button"
            className={starred ? 'icon-button star-button starred' : 'icon-button star-button'}
            aria-label={starred ? t('item.unstar') : t('item.star')}
            aria-pressed={starred}
            onClick={() => props.onToggleStar(message)}
          >
            <StarIcon />
          </button>
          <ReactionPicker
            message={message}
            ownUserId={ownUserId}
            onToggle={props.onToggleReaction}
          />
          {props.canEdit && !props.editing && (
            <button
              type="button"
              className="icon-button"
              aria-label={t('item.editMessage')}
              title={t('item.edit')}
              onClick={() => props.onEdit(message.id)}
            >
              <EditIcon />
            </button>
          )}
          <MoveMessageButton message={message} />
          {props.canDelete && (
            <button
              type="button"
              className="icon-button"
              aria-label={t('item.deleteMessage')}
              title={t('item.delete')}
              onClick={() => setConfirmingDelete(true)}
            >
              <TrashIcon />
            </button>
          )}
          <MessageActionsMenu
            message={message}
            canEdit={props.canEdit && !props.editing}
            canDelete={props.canDelete}
            onEdit={() => props.onEdit(message.id)}
            onDelete={() => setConfirmingDelete(true)}
          />
        </div>
      )}
    </article>
  );
});

function EchoStatus({
  echo,
  onRetry,
  onCancel,
}: {
  echo: OutboxMessage;
  onRetry(id: string): void;
  onCancel(id: string): void;
}) {
  const { t } = useTranslation('messages');
  if (echo.status !== 'failed') return <span className="echo-status">{t('echo.sending')}</span>;
  return (
    <div className="echo-failed" role="alert">
      <span>
        {echo.error
          ? t('echo.notSentBecause', { reason: echo.error.replace(/[.!]+$/, '') })
          : t('echo.notSent')}
      </span>
      <button type="button" className="button button-small" onClick={() => onRetry(echo.localId)}>
        {t('echo.retry')}
      </button>
      <button
        type="button"
        className="button button-small button-quiet"
        onClick={() => onCancel(echo.localId)}
      >
        {t('echo.cancel')}
      </button>
    </div>
  );
}

export function DateSeparator({ timestamp }: { timestamp: number }) {
  useTranslation('messages'); // "Today" and the date follow the interface language
  return (
    <div className="date-separator" role="separator" aria-label={formatDay(timestamp)}>
      <span>{formatDay(timestamp)}</span>
    </div>
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
