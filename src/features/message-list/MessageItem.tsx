import { memo, useRef, useState, type RefObject } from 'react';
import { ModalDialog } from '../../components/ModalDialog';
import { useUploadImages } from './uploads';
import type { Message, User } from '../../api/model';
import type { ReactionRef } from '../../queries/message-actions';
import { Avatar } from '../../components/Avatar';
import { PersonTrigger } from '../people/PersonTrigger';
import { EditIcon, StarIcon, TrashIcon } from '../../components/icons';
import type { OutboxMessage } from '../../model/outbox';
import { isMentioned } from '../../narrow';
import { messageUrl } from '../../narrow/url';
import { onMessageContentClick } from './content-clicks';
import { MessageTime } from './MessageTime';
import { EditMark } from './EditMark';
import { formatDay, formatTime } from './format';
import { CollapsedNotice } from '../message-actions/CollapsedNotice';
import { MessageActionsMenu } from '../message-actions/MessageActionsMenu';
import { MessageEditor } from './MessageEditor';
import { ReactionPicker, Reactions } from './Reactions';
import { MessageHeader, useMessageHtml } from './MessageHeader';
import { MoveMessageButton } from '../topics/MoveMessageButton';
import { useMessageWidget, WidgetView } from '../widgets/WidgetView';
import { useFixedT } from '../../i18n/use-fixed-t';

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
  const { message, ownUserId, twentyFourHour, echo } = props;
  const t = useFixedT('messages');
  const [revealed, setRevealed] = useState(false);
  const hidden = props.mutedSender && !revealed;
  const { html, actionHtml } = useMessageHtml(props, hidden);
  const showSender = props.showSender || actionHtml !== null;
  const unread = !message.flags.includes('read');
  const classes = [
    'message',
    showSender ? 'message-first' : '',
    unread ? 'message-unread' : '',
    isMentioned(message.flags) ? 'message-mentioned' : '',
    echo ? `message-echo message-echo-${echo.status}` : '',
    actionHtml !== null ? 'message-me' : '',
    message.flags.includes('starred') ? 'message-starred' : '',
  ];
  const time = formatTime(message.timestamp, twentyFourHour);
  const deletion = useDeleteConfirmation(message, props.onDelete);
  const content = useRef<HTMLDivElement>(null);
  const permalink = echo ? null : messageUrl(message, ownUserId);
  useUploadImages(content, html);
  // The sender as they are now (renamed, new picture), as the message recorded them otherwise.
  const sender = props.users[message.sender_id];
  const senderName = props.mutedSender
    ? t('item.mutedUser')
    : (sender?.full_name ?? message.sender_full_name);

  return (
    <article
      className={classes.filter(Boolean).join(' ')}
      aria-label={t('item.label', { sender: senderName, time })}
      data-message-id={message.id}
    >
      <MessageGutter
        message={message}
        showSender={showSender}
        avatarUrl={props.mutedSender ? null : (sender?.avatar_url ?? message.avatar_url)}
        senderName={senderName}
        time={time}
        permalink={permalink}
      />
      <div className="message-main">
        {showSender && (
          <MessageHeader
            message={message}
            senderName={senderName}
            actionHtml={actionHtml}
            time={time}
            permalink={permalink}
          />
        )}
        <MessageBody
          message={message}
          hidden={hidden}
          editing={props.editing}
          html={html}
          ownUserId={ownUserId}
          readOnly={props.readOnly}
          contentRef={content}
          onReveal={() => setRevealed(true)}
          onEdit={props.onEdit}
        />
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
        {deletion.confirming && <DeleteConfirmation deletion={deletion} />}
        {!props.editing && <EditMark message={message} />}
        {echo && <EchoStatus echo={echo} onRetry={props.onRetry} onCancel={props.onCancel} />}
      </div>
      {!echo && !props.readOnly && <MessageActions {...props} onAskDelete={deletion.ask} />}
    </article>
  );
});

/** The sender's picture on a message that starts a run, its time on hover otherwise. */
function MessageGutter({
  message,
  showSender,
  avatarUrl,
  senderName,
  time,
  permalink,
}: {
  message: Message;
  showSender: boolean;
  avatarUrl: string | null | undefined;
  senderName: string;
  time: string;
  permalink: string | null;
}) {
  return (
    <div className="message-gutter">
      {showSender ? (
        <PersonTrigger userId={message.sender_id} duplicate>
          <Avatar url={avatarUrl} name={senderName} size={36} />
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
  );
}

/** Deleting asks first; a refusal from the server stays beside the question. */
function useDeleteConfirmation(
  message: Message,
  onDelete: (message: Message) => Promise<string | null>,
) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    const failure = await onDelete(message);
    setError(failure);
    if (!failure) setConfirming(false);
  };
  const keep = () => {
    setConfirming(false);
    setError(null);
  };
  return { confirming, error, ask: () => setConfirming(true), confirm, keep };
}

type DeleteConfirmationState = ReturnType<typeof useDeleteConfirmation>;

/**
 * The message itself, or what stands in for it: a muted sender's notice, the editor, a collapse,
 * or its widget (a poll, a to-do list, a bot's form), which replaces the text that created it.
 */
function MessageBody({
  message,
  hidden,
  editing,
  html,
  ownUserId,
  readOnly,
  contentRef,
  onReveal,
  onEdit,
}: {
  message: Message;
  hidden: boolean;
  editing: boolean;
  html: string;
  ownUserId: number;
  readOnly: boolean;
  contentRef: RefObject<HTMLDivElement | null>;
  onReveal(): void;
  onEdit(messageId: number | null): void;
}) {
  const t = useFixedT('messages');
  const widget = useMessageWidget(message, ownUserId);
  if (hidden)
    return (
      <p className="message-hidden">
        {t('item.hidden')}{' '}
        <button type="button" className="link-button" onClick={onReveal}>
          {t('item.showIt')}
        </button>
      </p>
    );
  if (editing) return <MessageEditor messageId={message.id} onDone={() => onEdit(null)} />;
  if (message.flags.includes('collapsed')) return <CollapsedNotice message={message} />;
  if (widget)
    return (
      <WidgetView message={message} widget={widget} ownUserId={ownUserId} readOnly={readOnly} />
    );
  // A /me line may be the whole message.
  if (html === '' && message.is_me_message) return null;
  return (
    <div
      ref={contentRef}
      className="message-content rendered-markdown"
      dangerouslySetInnerHTML={{ __html: html }}
      onClick={(event) => onMessageContentClick(event, message.id)}
    />
  );
}

/**
 * Deleting asks first, in a dialog in the middle of the screen (a question inside a message near
 * the bottom opened under the compose box); a refusal from the server stays in the dialog.
 */
function DeleteConfirmation({ deletion }: { deletion: DeleteConfirmationState }) {
  const t = useFixedT('messages');
  const [pending, setPending] = useState(false);
  return (
    <ModalDialog
      title={t('item.deleteQuestion')}
      confirmLabel={t('item.delete')}
      danger
      pending={pending}
      onClose={deletion.keep}
      onConfirm={() => {
        setPending(true);
        void deletion.confirm().finally(() => setPending(false));
      }}
    >
      <p className="admin-dialog-text">{t('item.deleteExplained')}</p>
      {deletion.error && (
        <p className="settings-status settings-status-error" role="alert">
          {deletion.error}
        </p>
      )}
    </ModalDialog>
  );
}

/** The buttons that show on hover: star, react, edit, move, delete and the rest in a menu. */
function MessageActions(props: MessageItemProps & { onAskDelete(): void }) {
  const { message, ownUserId } = props;
  const t = useFixedT('messages');
  const starred = message.flags.includes('starred');
  return (
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
      <ReactionPicker message={message} ownUserId={ownUserId} onToggle={props.onToggleReaction} />
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
          onClick={props.onAskDelete}
        >
          <TrashIcon />
        </button>
      )}
      <MessageActionsMenu
        message={message}
        canEdit={props.canEdit && !props.editing}
        canDelete={props.canDelete}
        onEdit={() => props.onEdit(message.id)}
        onDelete={props.onAskDelete}
      />
    </div>
  );
}

function EchoStatus({
  echo,
  onRetry,
  onCancel,
}: {
  echo: OutboxMessage;
  onRetry(id: string): void;
  onCancel(id: string): void;
}) {
  const t = useFixedT('messages');
  if (echo.status === 'waiting')
    return <span className="echo-status echo-waiting">{t('echo.waiting')}</span>;
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
  useFixedT('messages'); // "Today" and the date follow the interface language
  return (
    <div className="date-separator" role="separator" aria-label={formatDay(timestamp)}>
      <span>{formatDay(timestamp)}</span>
    </div>
  );
}
