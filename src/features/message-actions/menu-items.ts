/**
 * Which actions a message's menu offers, in the reference web app's groups. Pure, so the rules
 * (own message, edited, organization settings, permissions) are tested without a screen.
 */
import type { Message } from '../../api/model';

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
  const groups: (MenuItem | false)[][] = [
    [
      { id: 'react', label: 'Add emoji reaction' },
      { id: 'quote', label: 'Quote and reply' },
      { id: 'reply', label: 'Reply' },
      !own && { id: 'reply-privately', label: 'Reply privately' },
    ],
    [
      context.canEdit && { id: 'edit', label: 'Edit message' },
      !!context.canMove && { id: 'move', label: 'Move message' },
      { id: 'star', label: starred ? 'Unstar message' : 'Star message' },
      { id: 'mark-unread', label: 'Mark as unread from here' },
      { id: 'collapse', label: collapsed ? 'Expand message' : 'Collapse message' },
    ],
    [
      { id: 'copy-link', label: 'Copy link to message' },
      context.allowEditHistory &&
        hasEditHistory(message) && { id: 'edit-history', label: 'View edit history' },
      context.readReceipts && { id: 'read-receipts', label: 'View read receipts' },
      { id: 'source', label: 'View message source' },
    ],
    [context.canDelete && { id: 'delete', label: 'Delete message' }],
  ];
  return groups
    .map((group) => group.filter((item): item is MenuItem => item !== false))
    .filter((group) => group.length > 0);
}
