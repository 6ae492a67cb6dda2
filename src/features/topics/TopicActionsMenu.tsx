/**
 * The topic actions menu: mark as resolved or unresolved, rename, move. Offered on recipient
 * bars, in a topic's header and on the sidebar's topic rows, with only what the person may do.
 */
import { useId, useMemo, useState } from 'react';
import { errorText } from '../../api/errors';
import { useMenuPopup } from '../../components/use-menu-popup';
import { sameTopic } from '../../narrow';
import { useMoveMessages, useStreamTopics } from '../../queries/topics';
import { useTopicDialog } from './dialog-store';
import { MoreIcon } from './icons';
import { isResolved, resolvedName, unresolvedName } from './resolved';
import { useTopicPermissions } from './use-topic-permissions';
import { useFixedT } from '../../i18n/use-fixed-t';

/** The topic without a name, which the reference server refuses to mark as resolved. */
const UNTITLED = ['', '(no topic)'];

interface TopicActionsMenuProps {
  streamId: number;
  topic: string;
  /** a message known to be in the topic, used until the topic list says which is the newest */
  messageId?: number;
  className?: string;
}

export function TopicActionsMenu({ streamId, topic, messageId, className }: TopicActionsMenuProps) {
  const t = useFixedT('search');
  const { allowed } = useTopicPermissions();
  const popup = useMenuPopup();
  const { open, setOpen, root, close } = popup;
  const [error, setError] = useState<string | null>(null);
  const menuId = useId();
  const anyAllowed = allowed.editTopic || allowed.resolve || allowed.moveBetweenChannels;
  // The newest message is the target of topic-wide changes, as in the reference app: the time
  // limits are checked against it, and a long-gone first message would refuse the whole topic.
  const topics = useStreamTopics(streamId, anyAllowed && open);
  // Looked up only while the menu is open: a closed menu sits on every recipient bar and sidebar
  // row, and a channel's list can hold thousands of topics.
  const newestId = useMemo(
    () =>
      (open ? topics.data?.find((t) => sameTopic(t.name, topic))?.maxId : undefined) ?? messageId,
    [open, topics.data, topic, messageId],
  );
  const move = useMoveMessages();
  const openDialog = useTopicDialog((s) => s.open);

  if (!anyAllowed) return null;

  const toggleResolved = () => {
    close();
    if (newestId === undefined) return;
    setError(null);
    move.mutate(
      {
        messageId: newestId,
        topic: isResolved(topic) ? unresolvedName(topic) : resolvedName(topic),
        propagateMode: 'change_all',
        notifyOld: false,
        notifyNew: true,
      },
      { onError: (e) => setError(errorText(e, t('topicActions.failed'))) },
    );
  };

  const dialogTarget = newestId ?? 0;
  const label = t('topicActions.label', { topic: topic || t('noTopic') });
  return (
    <div className={`topic-actions ${className ?? ''}`} ref={root}>
      <button
        ref={popup.button}
        type="button"
        className="icon-button topic-actions-button"
        aria-label={label}
        title={t('topicActions.title')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={move.isPending}
        onClick={popup.onButtonClick}
        onKeyDown={popup.onButtonKey}
      >
        <MoreIcon />
      </button>
      {open && (
        <div
          id={menuId}
          className={
            popup.upwards ? 'topic-actions-menu topic-actions-menu-up' : 'topic-actions-menu'
          }
          role="menu"
          aria-label={label}
          onKeyDown={popup.onMenuKey}
        >
          <TopicMenuItems
            topic={topic}
            allowed={allowed}
            disabled={newestId === undefined}
            onToggleResolved={toggleResolved}
            onOpenDialog={(kind) => {
              setOpen(false);
              openDialog({ kind, streamId, topic, targetId: dialogTarget });
            }}
          />
        </div>
      )}
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} />}
    </div>
  );
}

function TopicMenuItems({
  topic,
  allowed,
  disabled,
  onToggleResolved,
  onOpenDialog,
}: {
  topic: string;
  allowed: ReturnType<typeof useTopicPermissions>['allowed'];
  disabled: boolean;
  onToggleResolved(): void;
  onOpenDialog(kind: 'rename' | 'topic'): void;
}) {
  const t = useFixedT('search');
  return (
    <>
      {allowed.resolve && !UNTITLED.includes(topic) && (
        <button
          type="button"
          role="menuitem"
          className="topic-actions-item"
          tabIndex={-1}
          disabled={disabled}
          onClick={onToggleResolved}
        >
          {isResolved(topic) ? t('topicActions.unresolve') : t('topicActions.resolve')}
        </button>
      )}
      {allowed.editTopic && (
        <button
          type="button"
          role="menuitem"
          className="topic-actions-item"
          tabIndex={-1}
          disabled={disabled}
          onClick={() => onOpenDialog('rename')}
        >
          {t('topicActions.rename')}
        </button>
      )}
      {(allowed.editTopic || allowed.moveBetweenChannels) && (
        <button
          type="button"
          role="menuitem"
          className="topic-actions-item"
          tabIndex={-1}
          disabled={disabled}
          onClick={() => onOpenDialog('topic')}
        >
          {t('topicActions.move')}
        </button>
      )}
    </>
  );
}

function ErrorNotice({ error, onDismiss }: { error: string; onDismiss(): void }) {
  const t = useFixedT('search');
  return (
    <span className="topic-actions-error" role="alert">
      {error}
      <button
        type="button"
        className="link-button"
        aria-label={t('topicActions.dismiss')}
        onClick={onDismiss}
      >
        ×
      </button>
    </span>
  );
}
