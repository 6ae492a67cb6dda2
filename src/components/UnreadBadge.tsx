import { i18n } from '../i18n';

/** A count of unread messages; hidden from assistive tech because links carry the count in their name. */
export function UnreadBadge({ count, mention = false }: { count: number; mention?: boolean }) {
  if (count <= 0) return null;
  return (
    <span
      className={mention ? 'unread-badge unread-badge-mention' : 'unread-badge'}
      aria-hidden="true"
    >
      {count > 999 ? '999+' : count}
    </span>
  );
}

/** "general, 3 unread" — the accessible name of a sidebar entry. */
export function withUnreadLabel(name: string, count: number): string {
  return count > 0 ? i18n.t('components:unreadLabel', { name, count }) : name;
}
