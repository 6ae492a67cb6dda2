/**
 * Resolved topics, as the reference app marks them: the topic is renamed with a check mark and a
 * space in front ("✔ lunch"), so every client and every list shows the state without a new field.
 */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

export const isResolved = (topic: string) => topic.startsWith(RESOLVED_TOPIC_PREFIX);

/** The name the topic takes when resolved; the same name when it already is. */
export const resolvedName = (topic: string) =>
  isResolved(topic) ? topic : `${RESOLVED_TOPIC_PREFIX}${topic}`;

/** The name without the mark, however many times it was added. */
export function unresolvedName(topic: string): string {
  let name = topic;
  while (isResolved(name)) name = name.slice(RESOLVED_TOPIC_PREFIX.length);
  return name;
}
