/**
 * Which actions a message's menu offers, in the reference web app's groups. Pure, so the rules
 * (own message, edited, organization settings, permissions) are tested without a screen.
 */
import type { Message } from '../../api/model';
import { i18n } from '../../i18n';

export type MessageActionId =
  | 'react'
  | 'quote'
  | 'reply'
  | 'reply-privately'
  | 'edit'
  | 'move'
  | 'star'
  | 'mark-unread'
  | 'collapse'
  | 'copy-link'
  | 'edit-history'
  | 'read-receipts'
  | 'source'
  | 'delete';

export interface MenuItem {
  id: MessageActionId;
  label: string;
}

export interface MenuContext {
  ownUserId: number;
  canEdit: boolean;
  canDelete: boolean;
  /** the topic or channel of the message may be changed (the organization's move policies) */
  canMove?: boolean;
  /** realm_allow_edit_history */
  allowEditHistory: boolean;
  /** realm_enable_read_receipts */
  readReceipts: boolean;
}

/** Whether the message has versions to show: its content, topic or channel changed. */
export function hasEditHistory(message: Message): boolean {
  const moved = (message as { last_moved_timestamp?: number }).last_moved_timestamp;
  return message.last_edit_timestamp !== undefined || moved !== undefined;
}

/** The menu of `message`, as groups of items; empty groups are left out. */
export function menuItems(message: Message, context: MenuContext): MenuItem[][] {
  const starred = message.flags.includes('starred');
  const collapsed = message.flags.includes('collapsed');
  const own = message.sender_id === context.ownUserId;
  const t = i18n.getFixedT(null, 'messages');
  const groups: (MenuItem | false)[][] = [
    [
      { id: 'react', label: t('menu.react') },
      { id: 'quote', label: t('menu.quote') },
      { id: 'reply', label: t('menu.reply') },
      !own && { id: 'reply-privately', label: t('menu.replyPrivately') },
    ],
    [
      context.canEdit && { id: 'edit', label: t('menu.edit') },
      !!context.canMove && { id: 'move', label: t('menu.move') },
      { id: 'star', label: starred ? t('menu.unstar') : t('menu.star') },
      { id: 'mark-unread', label: t('menu.markUnread') },
      { id: 'collapse', label: collapsed ? t('menu.expand') : t('menu.collapse') },
    ],
    [
      { id: 'copy-link', label: t('menu.copyLink') },
      context.allowEditHistory &&
        hasEditHistory(message) && { id: 'edit-history', label: t('menu.editHistory') },
      context.readReceipts && { id: 'read-receipts', label: t('menu.readReceipts') },
      { id: 'source', label: t('menu.source') },
    ],
    [context.canDelete && { id: 'delete', label: t('menu.delete') }],
  ];
  return groups
    .map((group) => group.filter((item): item is MenuItem => item !== false))
    .filter((group) => group.length > 0);
}
