/**
 * A long list of conversations (Inbox, Recent conversations) that renders only its visible rows
 * and moves between them with the arrow keys; each view brings its rows and their heights.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';
import { useRowKeys } from './use-row-keys';

interface ConversationListProps<Row> {
  rows: readonly Row[];
  rowKey(row: Row): string;
  /** a row's height before it is measured */
  estimateHeight(row: Row): number;
  renderRow(row: Row): ReactNode;
  label: string;
  /** what the list says when no row is left */
  emptyText: string;
  /** the class names of the list and of each row's slot, for the view's own styles */
  canvasClassName: string;
  slotClassName: string;
}

export function ConversationList<Row>({
  rows,
  rowKey,
  estimateHeight,
  renderRow,
  label,
  emptyText,
  canvasClassName,
  slotClassName,
}: ConversationListProps<Row>) {
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateHeight(rows[index]!),
    getItemKey: (index) => rowKey(rows[index]!),
    overscan: 12,
  });
  const { onKeyDown } = useRowKeys(virtualizer, list, rows.length);

  return (
    <div className="view-scroll" ref={scroller}>
      {rows.length === 0 ? (
        <p className="view-filter-empty">{emptyText}</p>
      ) : (
        <div
          ref={list}
          role="list"
          aria-label={label}
          className={canvasClassName}
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={onKeyDown}
        >
          {virtualizer.getVirtualItems().map((item) => (
            <div
              key={item.key}
              role="listitem"
              data-index={item.index}
              ref={virtualizer.measureElement}
              className={slotClassName}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {renderRow(rows[item.index]!)}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
