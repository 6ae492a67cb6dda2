import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../components/QueryState';
import { EmptyState } from '../../components/StatePanel';
import { type MessageTarget, type Narrow } from '../../narrow';
import { useJumpToNewest } from '../../queries/messages';
import { TargetNotice, useFollowMovedTarget, useTargetMark } from '../search/message-target';
import { useMessageCursorKeys } from '../keyboard/use-message-cursor-keys';
import { MessageActionsLayer } from '../message-actions/MessageActionsLayer';
import type { FeedRow } from './build-rows';
import { FeedRowView, type MessageRowActions } from './FeedRowView';
import { ImageViewer } from '../lightbox/ImageViewer';
import { useMessageTaps } from './message-taps';
import { useStuckRecipient } from './stuck-recipient';
import { useFeedRows } from './use-feed-items';
import { openingRow, useFeedScroll } from './use-feed-scroll';
import {
  useInternalLinkClicks,
  useLoadMore,
  useMarkReadOnWindowFocus,
  useMarkVisibleRead,
  useMessageMutations,
  useReportSeen,
} from './use-message-list';

const ROW_ESTIMATES = { date: 40, recipient: 40, first: 68, continued: 30 };
const STUCK_BAR_ROOM = 36;

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
  const { query, rows } = useFeedRows(narrow, target);
  useFollowMovedTarget(narrow, target, query.data);
  if (query.status !== 'success' || rows.length === 0)
    return <FeedPlaceholder query={query} narrow={narrow} emptyText={emptyText} />;
  return <LoadedFeed narrow={narrow} target={target} query={query} rows={rows} />;
}

/**
 * The feed once it has rows: made only then, so that the virtualizer starts where the list
 * opens (estimated from the rows) and draws only those rows the first time, rather than the
 * first rows of the conversation and then, once scrolled, the ones at its end.
 */
function LoadedFeed({
  narrow,
  target,
  query,
  rows,
}: {
  narrow: Narrow;
  target: MessageTarget | undefined;
  query: ReturnType<typeof useFeedRows>['query'];
  rows: FeedRow[];
}) {
  const { t } = useTranslation('messages');
  const markedId = useTargetMark(target);
  const scroller = useRef<HTMLDivElement>(null);
  const [editingId, setEditingId] = useState<number | null>(null);

  const virtualizer = useFeedVirtualizer(rows, scroller, target?.messageId);

  const { loadOlder, loadNewer } = useLoadMore(query);
  const markVisibleRead = useMarkVisibleRead(narrow, rows, virtualizer, scroller);
  const { toggleStar, removeMessage, toggleReaction } = useMessageMutations();

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
  const { selectedId, selectByClick } = useMessageCursorKeys({
    narrow,
    rows,
    virtualizer,
    scroller,
    loadOlder,
    loadNewer,
    hasNewer: query.hasNextPage,
    jumpToNewest: useJumpToNewest(narrow),
    seen: useReportSeen(),
  });

  useMarkReadOnWindowFocus(markVisibleRead);
  const openInternalLink = useInternalLinkClicks(selectByClick);

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
        loading={query.isFetchingPreviousPage}
        reachedStart={!query.hasPreviousPage}
        conversation={['stream', 'topic', 'dm'].includes(narrow.kind)}
      />
      <FeedCanvas
        virtualizer={virtualizer}
        rows={rows}
        selectedId={selectedId}
        markedId={markedId}
        onToggleStar={toggleStar}
        editingId={editingId}
        onEdit={setEditingId}
        onDelete={removeMessage}
        onToggleReaction={toggleReaction}
      />
      {query.isFetchingNextPage && <p className="history-edge">{t('list.loadingNewer')}</p>}
      <ImageViewer rows={rows} />
      <MessageActionsLayer
        narrow={narrow}
        onEdit={setEditingId}
        onReadingResumed={markVisibleRead}
      />
    </div>
  );
}

/**
 * Only the rows near the screen are drawn; the others are estimated until measured. The first
 * drawing is of the window's height at the opening position, from the estimates; the opening
 * scroll (use-feed-scroll.ts) then lands it exactly.
 */
function useFeedVirtualizer(
  rows: FeedRow[],
  scroller: RefObject<HTMLDivElement | null>,
  targetId: number | undefined,
) {
  return useVirtualizer({
    initialRect: { width: 0, height: window.innerHeight },
    initialOffset: () => openingOffset(rows, targetId, window.innerHeight),
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateRow(rows[index]),
    getItemKey: (index) => rows[index].key,
    overscan: 10,
    // A row scrolled to the top (a step up, the first unread) lands under the stuck bar, not behind it.
    scrollPaddingStart: STUCK_BAR_ROOM,
  });
}

/** While the messages load, if they failed, or when there are none. */
function FeedPlaceholder({
  query,
  narrow,
  emptyText,
}: {
  query: ReturnType<typeof useFeedRows>['query'];
  narrow: Narrow;
  emptyText: string;
}) {
  const { t } = useTranslation('messages');
  if (query.status !== 'success')
    return (
      <QueryState query={query} loadingLabel={t('list.loading')} errorTitle={t('list.loadFailed')}>
        {() => null}
      </QueryState>
    );
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

/**
 * The drawn rows, each in a slot placed at its measured offset. Not memoised: it draws what the
 * virtualizer says on every render of the list, as the list itself did. The stuck recipient bar
 * is drawn first, in the canvas's flow, where `position: sticky` holds it at the top; it keeps
 * its key, so the same element moves between its place and the top. On a phone, a tap on a
 * message shows its actions.
 */
function FeedCanvas({
  virtualizer,
  rows,
  selectedId,
  markedId,
  ...actions
}: {
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  rows: FeedRow[];
  selectedId: number | null;
  markedId: number | undefined;
} & MessageRowActions) {
  const canvas = useRef<HTMLDivElement>(null);
  const stuck = useStuckRecipient(rows, virtualizer, canvas);
  const { actionsId, onTap } = useMessageTaps(canvas);
  const placed = virtualizer
    .getVirtualItems()
    .filter((item) => item.index !== stuck?.index)
    .map((item) => ({ index: item.index, item }));
  const slots = stuck ? [{ index: stuck.index, item: null }, ...placed] : placed;
  return (
    <div
      ref={canvas}
      className="message-canvas"
      style={{ height: virtualizer.getTotalSize() }}
      onClick={onTap}
    >
      {slots.map(({ index, item }) => {
        const row = rows[index];
        return (
          <div
            key={row.key}
            data-index={index}
            // The stuck bar is drawn without its top margin: its size in the list stays as measured.
            ref={item ? virtualizer.measureElement : undefined}
            {...selectedSlotProps(row, selectedId)}
            {...actionsSlotProps(row, actionsId)}
            className={slotClass(row, markedId, !item)}
            style={{
              transform: item
                ? `translateY(${item.start}px)`
                : stuck?.push
                  ? `translateY(${stuck.push}px)`
                  : undefined,
            }}
          >
            <FeedRowView row={row} {...actions} />
          </div>
        );
      })}
    </div>
  );
}

function slotClass(row: FeedRow, markedId: number | undefined, stuck: boolean): string {
  if (stuck) return 'message-slot message-slot-stuck';
  return isMessageRow(row, markedId) ? 'message-slot message-target' : 'message-slot';
}

function isMessageRow(row: FeedRow | undefined, id: number | undefined): boolean {
  return id !== undefined && row?.kind === 'message' && row.message.id === id;
}

/** The selected message's slot is outlined and announced as the current one. */
function selectedSlotProps(row: FeedRow | undefined, selectedId: number | null) {
  const selected = row?.kind === 'message' && !row.echo && row.message.id === selectedId;
  return selected ? { 'aria-current': true, 'data-selected': true } : {};
}

/** The message whose actions a tap showed (on a phone; see message-taps.ts). */
function actionsSlotProps(row: FeedRow | undefined, actionsId: number | null) {
  const open = row?.kind === 'message' && !row.echo && row.message.id === actionsId;
  return open ? { 'data-actions-open': true } : {};
}

/** Where the opening position (openingRow) is, by the estimates, for a screen `height` high. */
function openingOffset(rows: FeedRow[], targetId: number | undefined, height: number): number {
  const { index, align } = openingRow(rows, targetId);
  let start = 0;
  for (let i = 0; i < index; i++) start += estimateRow(rows[i]);
  const size = estimateRow(rows[index]);
  const offset =
    align === 'start'
      ? start - STUCK_BAR_ROOM
      : align === 'center'
        ? start + size / 2 - height / 2
        : start + size - height;
  return Math.max(0, offset);
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
