/**
 * Which of an open channel's topics the left sidebar lists, as the reference app chooses them:
 * the most recent few, then topics with unread messages up to a few more, and the open topic
 * whatever its place. The rest wait behind "More topics", with their unread count: a channel of
 * 2,000 unread topics lists 12 rows, not 2,000.
 */

/** Topics listed whatever they hold. */
export const TOPICS_SHOWN = 8;
/** Topics listed while the extra ones have unread messages. */
export const TOPICS_SHOWN_WITH_UNREAD = 12;

export interface SidebarTopics {
  /** the topics listed, in order */
  shown: string[];
  /** every topic, in order: the list behind "More topics" */
  all: string[];
  /** topics not listed */
  hidden: number;
  /** unread messages in unmuted topics not listed */
  hiddenUnread: number;
}

/**
 * @param names the channel's topics, most recent first (GET /users/me/{stream_id}/topics)
 * @param unreadCount unread messages of a topic, by its name
 * @param unreadNames topics with unread messages, which come first when the list lacks them
 *   (not loaded yet, or a topic newer than the list)
 */
export function sidebarTopics(
  names: readonly string[],
  unreadNames: readonly string[],
  unreadCount: (name: string) => number,
  isMuted: (name: string) => boolean,
  openTopic: string | null,
): SidebarTopics {
  const known = new Set(names.map((n) => n.toLowerCase()));
  const all = [...unreadNames.filter((n) => !known.has(n.toLowerCase())), ...names];
  const open = openTopic?.toLowerCase();
  if (openTopic !== null && !all.some((n) => n.toLowerCase() === open)) all.unshift(openTopic);
  const shown: string[] = [];
  let hidden = 0;
  let hiddenUnread = 0;
  for (const name of all) {
    const unread = isMuted(name) ? 0 : unreadCount(name);
    if (
      name.toLowerCase() === open ||
      shown.length < TOPICS_SHOWN ||
      (unread > 0 && shown.length < TOPICS_SHOWN_WITH_UNREAD)
    )
      shown.push(name);
    else {
      hidden += 1;
      hiddenUnread += unread;
    }
  }
  return { shown, all, hidden, hiddenUnread };
}
