/**
 * Administration › Users: everyone in the organization, searchable, sortable and filtered by role,
 * with their role, name and whether they may log in. Active and deactivated people have a tab
 * each. The lists read the live store, so changes made anywhere (realm_user events) show here.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../api/model';
import { ROLE } from '../../../api/model/user';
import { Avatar } from '../../../components/Avatar';
import {
  measureOrEstimate,
  observeRectOrViewport,
  offsetWithin,
  scrollParentOf,
} from '../../../components/virtual-rows';
import { useLastActiveById, useOwnUserId, useUsersById } from '../../../model/hooks';
import { useDeactivateUser, useReactivateUser, useUpdateUser } from '../../../queries/admin';
import { ModalDialog } from '../../../components/ModalDialog';
import { RowMenu } from '../../../components/RowMenu';
import { formatAgo } from './format';
import { assignableRoles, mayDeactivate, roleKey, roleName, ROLES } from './roles';

type SortKey = 'name' | 'email' | 'role' | 'lastActive';
type Tab = 'active' | 'deactivated';
const TABS: readonly Tab[] = ['active', 'deactivated'];
const COLUMNS: readonly SortKey[] = ['name', 'email', 'role', 'lastActive'];
/**
 * A row's height before the browser measures it: a line of the table where the section is wider
 * than 760px, else (beside the sidebars, on a phone) a card of labelled lines, as admin-users.css
 * lays them out.
 */
const ROW_HEIGHT = 55;
const CARD_HEIGHT = 206;
const WIDE_TABLE = 760;
/** Rows rendered above and below the visible ones, so that Tab and a short scroll find them. */
const OVERSCAN = 8;

type DialogKind = 'edit' | 'deactivate' | 'reactivate' | 'role';

interface Context {
  actorId: number;
  actorRole: number;
  ownerCount: number;
  lastActive: Readonly<Record<number, number>>;
}

const emailOf = (u: User) => u.delivery_email || u.email;

function compare(key: SortKey, a: User, b: User, lastActive: Readonly<Record<number, number>>) {
  switch (key) {
    case 'email':
      return emailOf(a).localeCompare(emailOf(b));
    case 'role':
      return a.role - b.role;
    case 'lastActive':
      return (lastActive[b.user_id] ?? 0) - (lastActive[a.user_id] ?? 0);
    default:
      return 0;
  }
}

type Sort = { key: SortKey; ascending: boolean };

/** The people on the tab that match the search and role filter, in the chosen order. */
function useShownUsers(
  humans: readonly User[],
  filter: { tab: Tab; query: string; role: number | 'all'; sort: Sort },
) {
  const lastActive = useLastActiveById();
  const { tab, query, role, sort } = filter;
  return useMemo(() => {
    const needle = query.trim().toLowerCase();
    const list = humans.filter(
      (u) =>
        u.is_active === (tab === 'active') &&
        (role === 'all' || u.role === role) &&
        (!needle ||
          u.full_name.toLowerCase().includes(needle) ||
          emailOf(u).toLowerCase().includes(needle)),
    );
    list.sort(
      (a, b) =>
        (compare(sort.key, a, b, lastActive) || a.full_name.localeCompare(b.full_name)) *
        (sort.ascending ? 1 : -1),
    );
    return list;
  }, [humans, query, role, sort, tab, lastActive]);
}

/** Who acts, and what the rows need to know to offer them the right actions. */
function useRowContext(humans: readonly User[]): Context {
  const users = useUsersById();
  const actorId = useOwnUserId();
  const lastActive = useLastActiveById();
  const actorRole = users[actorId]?.role ?? ROLE.GUEST;
  const ownerCount = useMemo(
    () => humans.filter((u) => u.is_active && u.role === ROLE.OWNER).length,
    [humans],
  );
  return useMemo(
    () => ({ actorId, actorRole, ownerCount, lastActive }),
    [actorId, actorRole, ownerCount, lastActive],
  );
}

/**
 * Only the rows in view are rendered; the page's own scroll container scrolls them, and the
 * table's body starts `margin` pixels into its content (after the heading, tabs and toolbar).
 */
function useVirtualUserRows(shown: readonly User[], tab: Tab) {
  const section = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  const scroller = useRef<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);
  const [wide, setWide] = useState(false);
  useLayoutEffect(() => {
    scroller.current = scrollParentOf(section.current);
  }, []);
  const keyOf = useCallback((i: number) => shown[i]!.user_id, [shown]);
  const rows = useVirtualizer<HTMLElement, HTMLTableRowElement>({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => (wide ? ROW_HEIGHT : CARD_HEIGHT),
    getItemKey: keyOf,
    overscan: OVERSCAN,
    scrollMargin: margin,
    observeElementRect: observeRectOrViewport,
    measureElement: measureOrEstimate,
  });
  // The body moves with the tab (the other one may be empty), and when the section's width
  // changes (the toolbar wraps, the rows become cards or lines of the table).
  const hasRows = shown.length > 0;
  useLayoutEffect(() => {
    setMargin(offsetWithin(scroller.current, body.current));
  }, [tab, hasRows]);
  useEffect(() => {
    const element = section.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    let width = -1;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry || entry.contentRect.width === width) return;
      width = entry.contentRect.width;
      setMargin(offsetWithin(scroller.current, body.current));
      setWide(width > WIDE_TABLE);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // Heights measured in the other layout no longer hold.
  const measuredWide = useRef(wide);
  useEffect(() => {
    if (measuredWide.current === wide) return;
    measuredWide.current = wide;
    rows.measure();
  }, [rows, wide]);
  const items = rows.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  const spaceBefore = first ? first.start - margin : 0;
  const spaceAfter = rows.getTotalSize() - (last ? last.end - margin : 0);

  return { section, body, rows, items, spaceBefore, spaceAfter, hasRows };
}

export function UsersSection() {
  const { t } = useTranslation('adminUsers');
  const users = useUsersById();
  const [tab, setTab] = useState<Tab>('active');
  const [query, setQuery] = useState('');
  const [role, setRole] = useState<number | 'all'>('all');
  const [sort, setSort] = useState<Sort>({ key: 'name', ascending: true });
  const humans = useMemo(() => Object.values(users).filter((u) => !u.is_bot), [users]);
  const context = useRowContext(humans);
  const shown = useShownUsers(humans, { tab, query, role, sort });
  const panelId = useId();
  const { dialog, openDialog, closeDialog } = usePersonDialog();
  const dialogUser = dialog ? users[dialog.userId] : undefined;

  const { section, body, rows, items, spaceBefore, spaceAfter, hasRows } = useVirtualUserRows(
    shown,
    tab,
  );

  return (
    <div className="admin-users" ref={section}>
      <UsersTabs humans={humans} tab={tab} onTab={setTab} panelId={panelId} />
      <div id={panelId} role="tabpanel">
        <UsersToolbar query={query} onQuery={setQuery} role={role} onRole={setRole} />
        {!hasRows ? (
          <p className="admin-empty">
            {query.trim() || role !== 'all'
              ? t('users.noMatch')
              : t(tab === 'active' ? 'users.noneActive' : 'users.noneDeactivated')}
          </p>
        ) : (
          <table
            className="admin-table"
            aria-label={
              tab === 'active' ? t('users.activeListLabel') : t('users.deactivatedListLabel')
            }
            aria-rowcount={shown.length + 1}
          >
            <thead>
              <tr aria-rowindex={1}>
                {COLUMNS.map((key) => (
                  <SortHeader key={key} column={key} sort={sort} onSort={setSort} />
                ))}
                <th scope="col">
                  <span className="admin-visually-hidden">{t('users.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody ref={body}>
              {spaceBefore > 0 && <Spacer height={spaceBefore} />}
              {items.map((item) => (
                <PersonRow
                  key={item.key}
                  index={item.index}
                  measure={rows.measureElement}
                  user={shown[item.index]!}
                  context={context}
                  onDialog={openDialog}
                />
              ))}
              {spaceAfter > 0 && <Spacer height={spaceAfter} />}
            </tbody>
          </table>
        )}
      </div>
      {dialog && dialogUser && (
        <PersonDialog
          kind={dialog.kind}
          user={dialogUser}
          role={dialog.role}
          actorId={context.actorId}
          onClose={closeDialog}
        />
      )}
    </div>
  );
}

/**
 * The dialog open over the list, if any. The dialogs live with the list rather than in their row,
 * which may leave the document when the list scrolls.
 */
function usePersonDialog() {
  const [dialog, setDialog] = useState<{ kind: DialogKind; userId: number; role?: number } | null>(
    null,
  );
  const openDialog = useCallback(
    (kind: DialogKind, userId: number, role?: number) => setDialog({ kind, userId, role }),
    [],
  );
  const closeDialog = useCallback(() => setDialog(null), []);
  return { dialog, openDialog, closeDialog };
}

function PersonDialog({
  kind,
  user,
  role,
  actorId,
  onClose,
}: {
  kind: DialogKind;
  user: User;
  role?: number;
  actorId: number;
  onClose(): void;
}) {
  return (
    // Styled as when the dialogs were inside the table (its type size).
    <div className="admin-users-dialogs">
      {kind === 'edit' ? (
        <EditNameDialog user={user} onClose={onClose} />
      ) : kind === 'role' && role !== undefined ? (
        <RoleDialog user={user} role={role} self={user.user_id === actorId} onClose={onClose} />
      ) : (
        <SetActiveDialog user={user} active={kind === 'reactivate'} onClose={onClose} />
      )}
    </div>
  );
}

function UsersTabs({
  humans,
  tab,
  onTab,
  panelId,
}: {
  humans: readonly User[];
  tab: Tab;
  onTab(tab: Tab): void;
  panelId: string;
}) {
  const { t } = useTranslation('adminUsers');
  const counts = useMemo(() => {
    const active = humans.filter((u) => u.is_active).length;
    return { active, deactivated: humans.length - active };
  }, [humans]);
  return (
    <div role="tablist" className="admin-tabs" aria-label={t('users.tabsLabel')}>
      {TABS.map((id) => (
        <button
          key={id}
          type="button"
          role="tab"
          aria-selected={tab === id}
          aria-controls={panelId}
          className="admin-tab"
          onClick={() => onTab(id)}
        >
          {id === 'active'
            ? t('users.activeTab', { count: counts.active })
            : t('users.deactivatedTab', { count: counts.deactivated })}
        </button>
      ))}
    </div>
  );
}

function UsersToolbar({
  query,
  onQuery,
  role,
  onRole,
}: {
  query: string;
  onQuery(query: string): void;
  role: number | 'all';
  onRole(role: number | 'all'): void;
}) {
  const { t } = useTranslation('adminUsers');
  const searchId = useId();
  const roleId = useId();
  return (
    <div className="admin-toolbar">
      <label htmlFor={searchId} className="admin-visually-hidden">
        {t('users.search')}
      </label>
      <input
        id={searchId}
        type="search"
        className="text-input admin-search"
        placeholder={t('users.searchPlaceholder')}
        value={query}
        onChange={(e) => onQuery(e.target.value)}
      />
      <span className="admin-filter">
        <label htmlFor={roleId}>{t('users.roleFilter')}</label>
        <select
          id={roleId}
          className="text-input"
          value={String(role)}
          onChange={(e) => onRole(e.target.value === 'all' ? 'all' : Number(e.target.value))}
        >
          <option value="all">{t('users.allRoles')}</option>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {roleName(r)}
            </option>
          ))}
        </select>
      </span>
    </div>
  );
}

/** A column's heading, which sorts by it (and reverses the order when it already does). */
function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: SortKey;
  sort: Sort;
  onSort(update: (sort: Sort) => Sort): void;
}) {
  const { t } = useTranslation('adminUsers');
  const current = sort.key === column;
  return (
    <th scope="col" aria-sort={current ? (sort.ascending ? 'ascending' : 'descending') : undefined}>
      <button
        type="button"
        className="admin-sort"
        onClick={() =>
          onSort((s) => ({ key: column, ascending: s.key === column ? !s.ascending : true }))
        }
      >
        {t(`users.columns.${column}`)}
        <span
          aria-hidden="true"
          className="admin-sort-arrow"
          data-direction={current ? (sort.ascending ? 'up' : 'down') : undefined}
        />
      </button>
    </th>
  );
}

/** The height of the rows not rendered, above or below those that are. */
function Spacer({ height }: { height: number }) {
  return (
    <tr className="admin-spacer" aria-hidden="true">
      <td colSpan={COLUMNS.length + 1} style={{ height }} />
    </tr>
  );
}

const PersonRow = memo(function PersonRow({
  index,
  measure,
  user,
  context,
  onDialog,
}: {
  /** the row's place in the whole list, from 0 */
  index: number;
  measure(row: HTMLTableRowElement | null): void;
  user: User;
  context: Context;
  onDialog(kind: DialogKind, userId: number, role?: number): void;
}) {
  const { t } = useTranslation('adminUsers');
  const seen = context.lastActive[user.user_id];
  const name = user.full_name;
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={index + 2}
      className={user.user_id === context.actorId ? 'admin-row-self' : undefined}
    >
      <th scope="row" data-label={t('users.columns.name')}>
        <span className="admin-person">
          <Avatar url={user.avatar_url} name={name} size={28} />
          <span className="admin-person-name">
            {name}
            {user.user_id === context.actorId && (
              <span className="admin-badge">{t('users.you')}</span>
            )}
          </span>
        </span>
      </th>
      {/* The whole address on hover, where a narrow column cuts it short. */}
      <td data-label={t('users.columns.email')} className="admin-email" title={emailOf(user)}>
        {emailOf(user)}
      </td>
      <RoleCell user={user} context={context} onDialog={onDialog} />
      <td data-label={t('users.columns.lastActive')} className="admin-muted admin-last-active">
        {seen ? formatAgo(seen) : t('users.never')}
      </td>
      <PersonActions user={user} context={context} onDialog={onDialog} />
    </tr>
  );
});

/**
 * The person's role: a select where the viewer may change it (a choice asks first, saying what
 * the new role may do), plain text otherwise.
 */
function RoleCell({
  user,
  context,
  onDialog,
}: {
  user: User;
  context: Context;
  onDialog(kind: DialogKind, userId: number, role?: number): void;
}) {
  const { t } = useTranslation('adminUsers');
  const choices = user.is_active
    ? assignableRoles(context.actorRole, user, context.ownerCount)
    : [];
  return (
    <td data-label={t('users.columns.role')} className="admin-role-cell">
      {choices.length > 0 ? (
        <span className="admin-role">
          <select
            className="text-input"
            aria-label={t('users.roleOf', { name: user.full_name })}
            value={user.role}
            onChange={(e) => {
              const role = Number(e.currentTarget.value);
              // The role changes only once the dialog is confirmed (and the event comes back):
              // until then the list shows the current one, whichever renderer draws it.
              e.currentTarget.value = String(user.role);
              onDialog('role', user.user_id, role);
            }}
          >
            {choices.map((r) => (
              <option key={r} value={r}>
                {roleName(r)}
              </option>
            ))}
          </select>
        </span>
      ) : (
        <span className="admin-role-text">{roleName(user.role)}</span>
      )}
    </td>
  );
}

/** A role change, asked first: from what to what, and what the new role may do. */
function RoleDialog({
  user,
  role,
  self,
  onClose,
}: {
  user: User;
  role: number;
  self: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation('adminUsers');
  const update = useUpdateUser();
  const values = { name: user.full_name, from: roleName(user.role), to: roleName(role) };
  return (
    <ModalDialog
      title={t('users.roleTitle', values)}
      confirmLabel={t('users.changeRole')}
      pending={update.isPending}
      error={update.error}
      onClose={onClose}
      onConfirm={() => update.mutate({ userId: user.user_id, role }, { onSuccess: onClose })}
    >
      <p className="admin-dialog-text">{t('users.roleText', values)}</p>
      <p className="admin-dialog-text">{t(`users.roleMeans.${roleKey(role)}`)}</p>
      {self && <p className="admin-dialog-text admin-dialog-warning">{t('users.roleSelf')}</p>}
    </ModalDialog>
  );
}

/** Edit, and deactivate or reactivate, as far as the viewer may: in the row's ⋮ menu. */
function PersonActions({
  user,
  context,
  onDialog,
}: {
  user: User;
  context: Context;
  onDialog(kind: DialogKind, userId: number): void;
}) {
  const { t } = useTranslation('adminUsers');
  const isAdmin = context.actorRole <= ROLE.ADMINISTRATOR;
  const item = (kind: DialogKind, label: string, danger = false) => ({
    label,
    danger,
    onSelect: () => onDialog(kind, user.user_id),
  });
  return (
    <td className="admin-actions">
      <RowMenu
        label={t('users.actionsFor', { name: user.full_name })}
        items={[
          isAdmin && item('edit', t('users.edit')),
          user.is_active
            ? mayDeactivate(context.actorRole, context.actorId, user, context.ownerCount) &&
              item('deactivate', t('users.deactivate'), true)
            : isAdmin && item('reactivate', t('users.reactivate')),
        ]}
      />
    </td>
  );
}

function EditNameDialog({ user, onClose }: { user: User; onClose(): void }) {
  const { t } = useTranslation('adminUsers');
  const update = useUpdateUser();
  const [name, setName] = useState(user.full_name);
  const id = useId();
  return (
    <ModalDialog
      title={t('users.editTitle', { name: user.full_name })}
      confirmLabel={t('users.saveName')}
      pending={update.isPending}
      error={update.error}
      onClose={onClose}
      onConfirm={() => {
        const next = name.trim();
        if (!next || next === user.full_name) return onClose();
        update.mutate({ userId: user.user_id, full_name: next }, { onSuccess: onClose });
      }}
    >
      <div className="admin-field">
        <label htmlFor={id}>{t('users.fullName')}</label>
        <input
          id={id}
          className="text-input"
          value={name}
          maxLength={60}
          required
          onChange={(e) => setName(e.target.value)}
        />
      </div>
    </ModalDialog>
  );
}

function SetActiveDialog({
  user,
  active,
  onClose,
}: {
  user: User;
  active: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation('adminUsers');
  const deactivate = useDeactivateUser();
  const reactivate = useReactivateUser();
  const mutation = active ? reactivate : deactivate;
  const values = { name: user.full_name, email: emailOf(user) };
  return (
    <ModalDialog
      title={active ? t('users.reactivateTitle', values) : t('users.deactivateTitle', values)}
      confirmLabel={active ? t('users.reactivate') : t('users.deactivate')}
      danger={!active}
      pending={mutation.isPending}
      error={mutation.error}
      onClose={onClose}
      onConfirm={() => mutation.mutate(user.user_id, { onSuccess: onClose })}
    >
      <p className="admin-dialog-text">
        {active ? t('users.reactivateText', values) : t('users.deactivateText', values)}
      </p>
    </ModalDialog>
  );
}
