/**
 * Desktop notifications for what needs the person: direct messages and mentions of them, while
 * the app is not in front. Governed by their `enable_desktop_notifications` setting, muting,
 * and the browser's permission.
 */
import { i18n } from '../../i18n';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import type { Message } from '../../api/model';
import type { ParsedEvent } from '../../api/parse-event';
import type { AccountState } from '../../model/account-state';
import { isConversationMuted } from '../../model/user-topics';
import { dmMessageParticipants, dmNarrow, narrowToUrl, topicNarrow } from '../../narrow';
import { useSession } from '../../model/session-context';

const MENTION_FLAGS = [
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
];

/** Whether a new message deserves a notification, by the rules above (focus aside). */
export function shouldNotify(
  message: Message,
  flags: readonly string[],
  state: AccountState,
): boolean {
  if (state.settings.enable_desktop_notifications === false) return false;
  if (message.sender_id === state.ownUserId) return false;
  if (message.sender_id in state.mutedUsers.byId) return false;
  if (flags.includes('read')) return false;
  if (message.type === 'private') return true;
  if (!flags.some((f) => MENTION_FLAGS.includes(f))) return false;
  // A wildcard mention in a muted conversation stays quiet; a personal mention always speaks.
  const personal = flags.includes('mentioned');
  return (
    personal ||
    !isConversationMuted(state.userTopics, state.subscriptions, message.stream_id, message.subject)
  );
}

/** The notification's text: the message as plain text, shortened. */
export function notificationBody(html: string, limit = 200): string {
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

export function notificationTitle(message: Message): string {
  return message.type === 'stream'
    ? `${message.sender_full_name} (#${message.display_recipient} > ${message.subject})`
    : message.sender_full_name;
}

export function useDesktopNotifications() {
  const session = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    if (session.spectator || typeof Notification === 'undefined') return;
    return session.onEvents((events: ParsedEvent[]) => {
      // Of the account's tabs, one notifies, and only when none is in front.
      if (Notification.permission !== 'granted' || !session.shouldNotifyHere()) return;
      const state = session.state.getState().store?.getState();
      if (!state) return;
      for (const event of events) {
        if (event.type !== 'message' || !shouldNotify(event.message as Message, event.flags, state))
          continue;
        const message = event.message as Message;
        const showContent =
          message.type === 'stream' || state.settings.pm_content_in_desktop_notifications !== false;
        const note = new Notification(notificationTitle(message), {
          body: showContent
            ? notificationBody(message.content)
            : i18n.t('navigation:notification.newDm'),
          tag: `parley-message-${message.id}`,
        });
        note.onclick = () => {
          window.focus();
          const target =
            message.type === 'stream'
              ? narrowToUrl(
                  topicNarrow(message.stream_id, message.subject),
                  message.display_recipient,
                )
              : narrowToUrl(
                  dmNarrow(dmMessageParticipants(message, state.ownUserId) ?? [], state.ownUserId),
                );
          navigate(target);
          note.close();
        };
      }
    });
  }, [session, navigate]);
}
