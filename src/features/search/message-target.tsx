/**
 * A message list opened at a message (a `near/ID` or `with/ID` permalink): the message is marked
 * for a few seconds, a message that is gone is said to be gone, and a `with` link whose message
 * moved follows it to the conversation it is in now.
 */
import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Message } from '../../api/model';
import { useOwnUserId } from '../../model/hooks';
import { containsMessage, messageUrl, type MessageTarget, type Narrow } from '../../narrow';
import { allMessages, type MessagePage } from '../../queries/messages';

const MARK_MS = 5000;

/** The id of the message to mark, for as long as the mark shows (not again on every remount). */
export function useTargetMark(target: MessageTarget | undefined): number | undefined {
  const [marked, setMarked] = useState(target?.messageId);
  useEffect(() => {
    setMarked(target?.messageId);
    if (target === undefined) return;
    const timer = window.setTimeout(() => setMarked(undefined), MARK_MS);
    return () => window.clearTimeout(timer);
  }, [target?.messageId]); // eslint-disable-line react-hooks/exhaustive-deps
  return marked;
}

/** Whether the narrow is the message's own conversation (its topic, or its DM). */
function isConversationOf(narrow: Narrow, message: Message, ownUserId: number): boolean {
  if (narrow.kind !== 'topic' && narrow.kind !== 'dm') return false;
  return containsMessage(narrow, message, ownUserId);
}

/**
 * With `with/ID`, the server answers with the conversation the message is in now: when that is
 * not the one in the address, the address follows it (replacing the old one in history).
 */
export function useFollowMovedTarget(
  narrow: Narrow,
  target: MessageTarget | undefined,
  data: { pages: MessagePage[] } | undefined,
) {
  const navigate = useNavigate();
  const ownUserId = useOwnUserId();
  const message = target?.follow
    ? allMessages(data).find((m) => m.id === target.messageId)
    : undefined;
  const moved = message !== undefined && !isConversationOf(narrow, message, ownUserId);
  useEffect(() => {
    if (moved && message)
      navigate(messageUrl(message, ownUserId).replace(/\/near\/(\d+)$/, '/with/$1'), {
        replace: true,
      });
  }, [moved, message, navigate, ownUserId]);
}

/** Said above the list when the message a link points at is not there. */
export function TargetNotice({
  target,
  data,
}: {
  target: MessageTarget | undefined;
  data: { pages: MessagePage[] } | undefined;
}) {
  const { t } = useTranslation('search');
  if (!target || !data) return null;
  const first = data.pages[0];
  const present = allMessages(data).some((m) => m.id === target.messageId);
  if (present || first?.foundAnchor !== false) return null;
  return (
    <p className="target-notice" role="status">
      {t('targetMissing')}
    </p>
  );
}
