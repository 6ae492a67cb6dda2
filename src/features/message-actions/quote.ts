/**
 * The text "Quote and reply" and "reply mentioning" put in the compose box, written as the
 * reference web app writes it, so other Zulip clients render our quotes the same way.
 */

/**
 * A backtick fence longer than any fence inside `content` (at least three), so that a quoted code
 * block cannot close the quote early.
 */
export function unusedFence(content: string): string {
  let longest = 2;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm))
    longest = Math.max(longest, match[1].length);
  return '`'.repeat(longest + 1);
}

/** `@_**Name|ID** [said](url):` and the raw content in a quote block. */
export function quoteBlock(
  sender: { name: string; id: number },
  permalink: string,
  rawContent: string,
): string {
  const fence = unusedFence(rawContent);
  return `@_**${sender.name}|${sender.id}** [said](${permalink}):\n${fence}quote\n${rawContent}\n${fence}\n`;
}

/** A mention of a person that stays unambiguous when two people share a name. */
export function mentionOf(sender: { name: string; id: number }): string {
  return `@**${sender.name}|${sender.id}** `;
}

/** A path of this app as a link anyone in the organization can open. */
export function absoluteUrl(path: string, origin: string = window.location.origin): string {
  return new URL(path, origin).href;
}
