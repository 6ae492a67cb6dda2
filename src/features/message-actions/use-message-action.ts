/**
 * Carries out one action of a message's menu or shortcut keys. Editing and deleting belong to the
 * message list (the editor and the confirmation sit in the row), so the caller passes them in.
 */
import { openMoveMessageDialog } from '../topics/dialog-store';
import { useCallback } from 'react';
import { i18n } from '../../i18n';
import type { Message } from '../../api/model';
import { useOwnUserId } from '../../model/hooks';
import { useComposeRequests, type ComposeTo } from '../../model/compose-request';
import { dmMessageParticipants, messageUrl, narrowKey } from '../../narrow';
import { useStarMessage } from '../../queries/flags';
import { useToggleReaction, type ReactionRef } from '../../queries/message-actions';
import {
  useFetchMessageSource,
  useMarkUnreadFromHere,
  useToggleCollapsed,
} from '../../queries/message-menu';
import type { MessageActionId } from './menu-items';
import { absoluteUrl, mentionOf, quoteBlock } from './quote';
import { useMessageActionsUi } from './store';

export type RunnableAction = Exclude<MessageActionId, 'edit' | 'delete'> | 'mention' | 'thumbs-up';

/** The `+` key's reaction: 1f44d under the reference's canonical name for it. */
const THUMBS_UP: ReactionRef = {
  emoji_name: '+1',
  emoji_code: '1f44d',
  reaction_type: 'unicode_emoji',
};

/** Where a reply to `message` goes: its topic, or its direct-message conversation. */
export function conversationOf(message: Message, ownUserId: number): ComposeTo {
  if (message.type === 'stream')
    return { type: 'stream', streamId: message.stream_id, topic: message.subject };
  return { type: 'direct', userIds: dmMessageParticipants(message, ownUserId) ?? [ownUserId] };
}

/** The reaction picker of a row is its own component: opening it is pressing its button. */
export function openReactionPicker(messageId: number): void {
  const button = document.querySelector<HTMLButtonElement>(
    `[data-message-id="${messageId}"] button[data-add-reaction]`,
  );
  button?.click();
}

/** The actions that open the compose box, addressed and filled in for the message. */
const COMPOSE_ACTIONS = ['reply', 'reply-privately', 'mention', 'quote'] as const;
type ComposeAction = (typeof COMPOSE_ACTIONS)[number];

function isComposeAction(action: RunnableAction): action is ComposeAction {
  return (COMPOSE_ACTIONS as readonly string[]).includes(action);
}

function startComposing(
  action: ComposeAction,
  message: Message,
  ownUserId: number,
  fetchSource: (messageId: number) => Promise<string>,
): void {
  const compose = useComposeRequests.getState();
  const sender = { name: message.sender_full_name, id: message.sender_id };
  switch (action) {
    case 'reply':
      compose.request({
        to: conversationOf(message, ownUserId),
        insert: null,
        focus: 'content',
      });
      return;
    case 'reply-privately':
      compose.request({
        to: { type: 'direct', userIds: [message.sender_id] },
        insert: null,
        focus: 'content',
      });
      return;
    case 'mention':
      compose.request({
        to: conversationOf(message, ownUserId),
        insert: mentionOf(sender),
        focus: 'content',
      });
      return;
    case 'quote':
      fetchSource(message.id).then(
        (raw) =>
          compose.request({
            to: conversationOf(message, ownUserId),
            insert: quoteBlock(sender, absoluteUrl(messageUrl(message, ownUserId)), raw),
            focus: 'content',
          }),
        () => useMessageActionsUi.getState().statusShown(i18n.t('messages:status.quoteFailed')),
      );
      return;
  }
}

export function useRunMessageAction(): (action: RunnableAction, message: Message) => void {
  const ownUserId = useOwnUserId();
  const fetchSource = useFetchMessageSource();
  const { mutate: toggleStar } = useStarMessage();
  const { mutate: toggleReaction } = useToggleReaction();
  const { mutate: toggleCollapsed } = useToggleCollapsed();
  const { mutate: markUnread } = useMarkUnreadFromHere();

  return useCallback(
    (action: RunnableAction, message: Message) => {
      if (isComposeAction(action)) {
        startComposing(action, message, ownUserId, fetchSource);
        return;
      }
      const ui = useMessageActionsUi.getState();
      switch (action) {
        case 'star':
          toggleStar(message);
          return;
        case 'thumbs-up': {
          const mine = (message.reactions ?? []).some(
            (r) => r.user_id === ownUserId && r.emoji_code === THUMBS_UP.emoji_code,
          );
          toggleReaction({ message, reaction: THUMBS_UP, add: !mine });
          return;
        }
        case 'react':
          // After the menu has closed and given the focus back.
          setTimeout(() => openReactionPicker(message.id), 0);
          return;
        case 'collapse':
          toggleCollapsed(message);
          return;
        case 'mark-unread': {
          const narrow = ui.narrow;
          if (!narrow) return;
          ui.readingPaused(narrowKey(narrow));
          markUnread(
            { narrow, messageId: message.id },
            { onError: () => ui.statusShown(i18n.t('messages:status.markUnreadFailed')) },
          );
          return;
        }
        case 'copy-link':
          navigator.clipboard.writeText(absoluteUrl(messageUrl(message, ownUserId))).then(
            () => ui.statusShown(i18n.t('messages:status.linkCopied')),
            () => ui.statusShown(i18n.t('messages:status.linkCopyFailed')),
          );
          return;
        case 'edit-history':
        case 'read-receipts':
        case 'source':
          ui.dialogOpened(action, message.id);
          return;
        case 'move':
          openMoveMessageDialog(message);
          return;
      }
    },
    [ownUserId, fetchSource, toggleStar, toggleReaction, toggleCollapsed, markUnread],
  );
}
