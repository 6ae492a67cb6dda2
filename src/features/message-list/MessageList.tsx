import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Message } from '../../api/model';
import { errorText } from '../../api/errors';
import { ROLE } from '../../api/model/user';
import { QueryState } from '../../components/QueryState';
import { EmptyState } from '../../components/StatePanel';
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
  narrowKey,
  narrowToUrl,
  streamNarrow,
  topicNarrow,
  type MessageTarget,
  type Narrow,
} from '../../narrow';
import { useStarMessage } from '../../queries/flags';
import {
  useDeleteMessage,
  useToggleReaction,
  type ReactionRef,
} from '../../queries/message-actions';
import { useJumpToNewest } from '../../queries/messages';
import { useSession } from '../../model/session-context';
import { TargetNotice, useFollowMovedTarget, useTargetMark } from '../search/message-target';
import { useMessageCursorKeys } from '../keyboard/use-message-cursor-keys';
import { MessageActionsLayer } from '../message-actions/MessageActionsLayer';
import { isReadingPaused } from '../message-actions/store';
import type { FeedRow } from './build-rows';
import { DateSeparator, MessageItem, RecipientBar } from './MessageItem';
import { canDelete, canEditContent } from './permissions';
import { ImageViewer } from '../lightbox/ImageViewer';
import { openUpload } from './uploads';
import { useFeedRows } from './use-feed-items';
import { useFeedScroll } from './use-feed-scroll';

const ROW_ESTIMATES = { date: 40, recipient: 40, first: 68, continued: 30 };

export function MessageList({
  narrow,
  emptyText,
  target,
}: {
  narrow: Narrow;
  emptyText: string;
  /** a permalink's message, which the list opens at */
  target?: MessageTarget;
}) {
  const { t } = useTranslation('messages');
  const session = useSession();
  const navigate = useNavigate();
  const { query, rows } = useFeedRows(narrow, target);
  useFollowMovedTarget(narrow, target, query.data);
  const markedId = useTargetMark(target);
  const scroller = useRef<HTMLDivElement>(null);
  const [editingId, setEditingId] = useState<number | null>(null);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateRow(rows[index]),
    getItemKey: (index) => rows[index].key,
    overscan: 10,
  });

  const {
    hasPreviousPage,
    isFetchingPreviousPage,
    fetchPreviousPage,
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
  } = query;
  const loadOlder = useCallback(() => {
    if (hasPreviousPage && !isFetchingPreviousPage) void fetchPreviousPage();
  }, [hasPreviousPage, isFetchingPreviousPage, fetchPreviousPage]);
  const loadNewer = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const markVisibleRead = useCallback(() => {
    const element = scroller.current;
    if (!element || !document.hasFocus()) return;
    // After "Mark as unread from here" the messages stay unread until the person scrolls.
    if (isReadingPaused(narrowKey(narrow))) return;
    const top = element.scrollTop;
    const bottom = top + element.clientHeight;
    const seen: Message[] = [];
    for (const item of virtualizer.measurementsCache) {
      if (item.end <= top || item.start >= bottom) continue;
      const row = rows[item.index];
      // A message counts as seen once its end is on screen.
      if (row?.kind === 'message' && item.end <= bottom + 2 && item.end > top)
        seen.push(row.message);
    }
    session.readBatcher.seen(seen);
  }, [rows, virtualizer, session, narrow]);

  // A refused star is rolled back in place: the message shows its old state again.
  const { mutate: toggleStar } = useStarMessage();

  /** Deletes a message; the answer is null, or what went wrong in words. */
  const { mutateAsync: deleteMessage } = useDeleteMessage();
  const removeMessage = useCallback(
    async (message: Message): Promise<string | null> => {
      try {
        await deleteMessage(message.id);
        return null;
      } catch (error) {
        return errorText(error, String(error));
      }
    },
    [deleteMessage],
  );

  // A refused reaction is rolled back in place; the console keeps why, for bug reports.
  const { mutate: changeReaction } = useToggleReaction();
  const toggleReaction = useCallback(
    (message: Message, reaction: ReactionRef, add: boolean) =>
      changeReaction(
        { message, reaction, add },
        { onError: (error) => console.warn('reaction not changed', error) },
      ),
    [changeReaction],
  );

  const { onScroll } = useFeedScroll({
    rows,
    virtualizer,
    scroller,
    loadOlder,
    loadNewer,
    onVisibleRowsChanged: markVisibleRead,
    targetId: target?.messageId,
  });

  // The selected message (keyboard cursor): j/k, arrows, Home/End, PageUp/PageDown, clicks.
  const jumpToNewest = useJumpToNewest(narrow);
  const { selectedId, selectByClick } = useMessageCursorKeys({
    narrow,
    rows,
    virtualizer,
    scroller,
    loadOlder,
    loadNewer,
    hasNewer: hasNextPage,
    jumpToNewest,
    seen: useCallback((messages: Message[]) => session.readBatcher.seen(messages), [session]),
  });

  useEffect(() => {
    window.addEventListener('focus', markVisibleRead);
    return () => window.removeEventListener('focus', markVisibleRead);
  }, [markVisibleRead]);

  if (query.status !== 'success')
    return (
      <QueryState query={query} loadingLabel={t('list.loading')} errorTitle={t('list.loadFailed')}>
        {() => null}
      </QueryState>
    );
  if (rows.length === 0) {
    // A search that finds nothing is not an empty conversation.
    const searching =
      narrow.kind === 'search' ||
      (narrow.kind === 'filter' && narrow.terms.some((term) => term.operator === 'search'));
    return (
      <EmptyState title={searching ? t('list.noMatchesTitle') : t('list.emptyTitle')}>
        {emptyText}
      </EmptyState>
    );
  }

  // Stream and topic links inside messages navigate within the app instead of reloading it.
  // Uploaded files open through a temporary URL, since a plain link cannot carry credentials.
  function openInternalLink(event: React.MouseEvent) {
    selectByClick(event.target);
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    if (event.defaultPrevented) return; // handled inside the message (spoilers, image viewer)
    const upload = (event.target as Element).closest?.('a[data-upload]');
    if (upload) {
      event.preventDefault();
      openUpload(session, upload.getAttribute('data-upload')!);
      return;
    }
    const link = (event.target as Element).closest?.('a[data-internal]');
    if (!link) return;
    event.preventDefault();
    navigate(link.getAttribute('href')!);
  }

  return (
    <div
      ref={scroller}
      className="message-scroller"
      onScroll={onScroll}
      onClick={openInternalLink}
      tabIndex={0}
      aria-label={t('list.label')}
      role="log"
    >
      <TargetNotice target={target} data={query.data} />
      <HistoryEdge
        loading={isFetchingPreviousPage}
        reachedStart={!hasPreviousPage}
        conversation={['stream', 'topic', 'dm'].includes(narrow.kind)}
      />
      <div className="message-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            {...selectedSlotProps(rows[item.index], selectedId)}
            className={
              isMessageRow(rows[item.index], markedId)
                ? 'message-slot message-target'
                : 'message-slot'
            }
            style={{ transform: `translateY(${item.start}px)` }}
          >
            <FeedRowView
              row={rows[item.index]}
              onToggleStar={toggleStar}
              editingId={editingId}
              onEdit={setEditingId}
              onDelete={removeMessage}
              onToggleReaction={toggleReaction}
            />
          </div>
        ))}
      </div>
      {isFetchingNextPage && <p className="history-edge">{t('list.loadingNewer')}</p>}
      <ImageViewer rows={rows} />
      <MessageActionsLayer
        narrow={narrow}
        onEdit={setEditingId}
        onReadingResumed={markVisibleRead}
      />
    </div>
  );
}

function isMessageRow(row: FeedRow | undefined, id: number | undefined): boolean {
  return id !== undefined && row?.kind === 'message' && row.message.id === id;
}

/** The selected message's slot is outlined and announced as the current one. */
function selectedSlotProps(row: FeedRow | undefined, selectedId: number | null) {
  const selected = row?.kind === 'message' && !row.echo && row.message.id === selectedId;
  return selected ? { 'aria-current': true, 'data-selected': true } : {};
}

function estimateRow(row: FeedRow | undefined): number {
  if (!row) return ROW_ESTIMATES.continued;
  if (row.kind === 'message') return row.showSender ? ROW_ESTIMATES.first : ROW_ESTIMATES.continued;
  return ROW_ESTIMATES[row.kind];
}

interface HistoryEdgeProps {
  loading: boolean;
  reachedStart: boolean;
  /** a stream, topic or DM has a beginning; cross-cutting views just run out */
  conversation: boolean;
}

function HistoryEdge({ loading, reachedStart, conversation }: HistoryEdgeProps) {
  const { t } = useTranslation('messages');
  if (loading) return <p className="history-edge">{t('list.loadingOlder')}</p>;
  if (!reachedStart) return null;
  const text = conversation ? t('list.beginning') : t('list.noOlder');
  return <p className="history-edge">{text}</p>;
}

function FeedRowView({
  row,
  onToggleStar,
  editingId,
  onEdit,
  onDelete,
  onToggleReaction,
}: {
  row: FeedRow;
  onToggleStar(message: Message): void;
  editingId: number | null;
  onEdit(messageId: number | null): void;
  onDelete(message: Message): Promise<string | null>;
  onToggleReaction(message: Message, reaction: ReactionRef, add: boolean): void;
}) {
  const { t } = useTranslation('messages');
  const session = useSession();
  const ownUserId = useOwnUserId();
  const settings = useRealmSettings();
  const muted = useMutedUsers();
  const showReactionNames = useUserSetting('display_emoji_reaction_users') ?? true;
  const twentyFourHour = useUserSetting('twenty_four_hour_time');
  const subscriptions = useSubscriptionsById();
  const users = useUsersById();

  switch (row.kind) {
    case 'date':
      return <DateSeparator timestamp={row.timestamp} />;
    case 'recipient': {
      const { message } = row;
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
    case 'message': {
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
  }
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
