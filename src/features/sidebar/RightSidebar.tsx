import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
  type SyntheticEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/model';
import { Avatar } from '../../components/Avatar';
import {
  keepingRows,
  measureOrEstimate,
  observeRectOrViewport,
  offsetWithin,
} from '../../components/virtual-rows';
import {
  useActiveUsers,
  useMutedUsers,
  useOwnUserId,
  usePresenceStatuses,
} from '../../model/hooks';
import type { PresenceStatus } from '../../model/presence';
import { PersonRow, ProfileCardLayer } from '../people';

/** A row's height before the browser measures it: `.sidebar-row` is at least 32px high. */
const ROW_HEIGHT = 32;
/** Rows rendered above and below the visible ones, so that Tab and a short scroll find them. */
const OVERSCAN = 10;

/**
 * The people list. An organization may have thousands of people, so each of its two lists
 * (people, bots) renders only the rows in view; the sidebar itself is their scroll container, as
 * it was when every row was rendered, so it looks and scrolls as before.
 */
export function RightSidebar({ hidden }: { hidden: boolean }) {
  const { t } = useTranslation('people');
  const ownUserId = useOwnUserId();
  const [filter, setFilter] = useState('');
  const { shown, humans, bots } = useShownPeople(filter, ownUserId);

  const { activeId, onActivity } = useActiveRow();
  const humanPins = useMemo(
    () => indexOf(humans, (h) => h.user.user_id, activeId),
    [humans, activeId],
  );
  const botPins = useMemo(() => indexOf(bots, (u) => u.user_id, activeId), [bots, activeId]);
  const humanKey = useCallback((i: number) => humans[i]!.user.user_id, [humans]);
  const botKey = useCallback((i: number) => bots[i]!.user_id, [bots]);

  const aside = useRef<HTMLElement>(null);
  const humanList = useRef<HTMLUListElement>(null);
  const botList = useRef<HTMLUListElement>(null);
  // Where each list starts in the sidebar's scrolled content: the heading and the filter come
  // before the people, and the people before the bots.
  const [margins, setMargins] = useState({ humans: 0, bots: 0 });
  const humanRows = useRows(aside, humans.length, humanKey, margins.humans, humanPins);
  const botRows = useRows(aside, bots.length, botKey, margins.bots, botPins);
  // They move when the sidebar is shown, when the people's list grows or shrinks, and when the
  // bots' list comes or goes.
  const humansHeight = humanRows.getTotalSize();
  const hasBots = bots.length > 0;
  useLayoutEffect(() => {
    const next = {
      humans: offsetWithin(aside.current, humanList.current),
      bots: offsetWithin(aside.current, botList.current),
    };
    setMargins((m) => (m.humans === next.humans && m.bots === next.bots ? m : next));
  }, [hidden, humansHeight, hasBots]);

  return (
    <aside
      ref={aside}
      id="right-sidebar"
      className="right-sidebar"
      aria-label={t('sidebar.heading')}
      hidden={hidden}
      onFocus={onActivity}
      onClick={onActivity}
    >
      <h2 className="sidebar-heading">{t('sidebar.heading')}</h2>
      <label htmlFor="people-filter" className="visually-hidden">
        {t('sidebar.filterLabel')}
      </label>
      <input
        id="people-filter"
        className="text-input people-filter"
        type="search"
        placeholder={t('sidebar.filterLabel')}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <PeopleRows
        listRef={humanList}
        rows={humanRows}
        margin={margins.humans}
        userAt={(i) => humans[i]!.user}
        render={(i) => {
          const { user, status } = humans[i]!;
          return <HumanRow user={user} presence={status} isYou={user.user_id === ownUserId} />;
        }}
      />
      {hasBots && (
        <>
          <h3 className="sidebar-subheading">{t('sidebar.bots')}</h3>
          <PeopleRows
            listRef={botList}
            rows={botRows}
            margin={margins.bots}
            userAt={(i) => bots[i]!}
            render={(i) => <BotRow user={bots[i]!} />}
          />
        </>
      )}
      {shown.length === 0 && <p className="sidebar-empty">{t('sidebar.nobody', { filter })}</p>}
      <ProfileCardLayer />
    </aside>
  );
}

/** The people the filter finds, muted people left out: humans in their order, then bots. */
function useShownPeople(filter: string, ownUserId: number) {
  const users = useActiveUsers();
  const muted = useMutedUsers();
  const statusOf = usePresenceStatuses();
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return users.filter(
      (u) =>
        !(u.user_id in muted) &&
        (!needle ||
          u.full_name.toLowerCase().includes(needle) ||
          u.email.toLowerCase().includes(needle)),
    );
  }, [users, filter, muted]);
  // You first, then who is here now, then who is away, each by name (the list arrives by name).
  const humans = useMemo(
    () =>
      shown
        .filter((u) => !u.is_bot)
        .map((u) => ({ user: u, status: statusOf(u.user_id) }))
        .sort(
          (a, b) =>
            Number(b.user.user_id === ownUserId) - Number(a.user.user_id === ownUserId) ||
            STATUS_ORDER[a.status] - STATUS_ORDER[b.status],
        ),
    [shown, statusOf, ownUserId],
  );
  const bots = useMemo(() => shown.filter((u) => u.is_bot), [shown]);
  return { shown, humans, bots };
}

/**
 * The row last focused or clicked stays rendered wherever the list is scrolled, so that the focus
 * is not lost with it, and an open card can give the focus back to it on closing.
 */
function useActiveRow() {
  const [activeId, setActiveId] = useState<number | null>(null);
  const onActivity = useCallback((event: SyntheticEvent<HTMLElement>) => {
    const target = event.target as Element;
    // Events from the open card (a portal) bubble here too; the row it belongs to stays.
    if (!event.currentTarget.contains(target)) return;
    const row = target.closest<HTMLElement>('[data-user-id]');
    setActiveId(row ? Number(row.dataset.userId) : null);
  }, []);
  return { activeId, onActivity };
}

const STATUS_ORDER: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };

/**
 * One list's rows in view, each placed at its offset in the whole list and telling the list's
 * length and its own place in it.
 */
function PeopleRows({
  listRef,
  rows,
  margin,
  userAt,
  render,
}: {
  listRef: RefObject<HTMLUListElement | null>;
  rows: Virtualizer<HTMLElement, HTMLLIElement>;
  /** where the list starts in the sidebar's scrolled content */
  margin: number;
  userAt: (index: number) => User;
  render: (index: number) => ReactNode;
}) {
  return (
    <ul
      ref={listRef}
      className="sidebar-list people-canvas"
      style={{ height: rows.getTotalSize() }}
    >
      {rows.getVirtualItems().map((item) => (
        <li
          key={item.key}
          ref={rows.measureElement}
          data-index={item.index}
          data-user-id={userAt(item.index).user_id}
          className="people-slot"
          aria-setsize={rows.options.count}
          aria-posinset={item.index + 1}
          style={{ transform: `translateY(${item.start - margin}px)` }}
        >
          {render(item.index)}
        </li>
      ))}
    </ul>
  );
}

/** One list's virtualizer, scrolled by the sidebar; `scrollMargin` is where the list starts in it. */
function useRows(
  scroller: RefObject<HTMLElement | null>,
  count: number,
  keyOf: (index: number) => number,
  scrollMargin: number,
  pinned: readonly number[],
): Virtualizer<HTMLElement, HTMLLIElement> {
  const rangeExtractor = useMemo(() => keepingRows(pinned), [pinned]);
  return useVirtualizer<HTMLElement, HTMLLIElement>({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: keyOf,
    overscan: OVERSCAN,
    scrollMargin,
    rangeExtractor,
    observeElementRect: observeRectOrViewport,
    measureElement: measureOrEstimate,
  });
}

const NONE: readonly number[] = [];

/** The position of the person `id` in `list`, as the list of rows to keep. */
function indexOf<T>(list: readonly T[], idOf: (item: T) => number, id: number | null) {
  if (id === null) return NONE;
  const index = list.findIndex((item) => idOf(item) === id);
  return index < 0 ? NONE : [index];
}

// The rows re-render only when their person, presence or status does, not on every scroll.
const HumanRow = memo(PersonRow);

const BotRow = memo(function BotRow({ user }: { user: User }) {
  return (
    <PersonRow user={user} isYou={false}>
      <Avatar url={user.avatar_url} name={user.full_name} size={24} />
    </PersonRow>
  );
});
