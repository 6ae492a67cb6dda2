/**
 * What is being typed before the caret in the message field (a mention, a channel or topic
 * link, an emoji), and the Markdown that completes it. Pure, so it is tested without a DOM.
 */

export type TypeaheadToken =
  | { kind: 'mention'; start: number; query: string; silent: boolean }
  | { kind: 'channel'; start: number; query: string }
  | { kind: 'topic'; start: number; channel: string; query: string }
  | { kind: 'emoji'; start: number; query: string };

// Each pattern is anchored at the caret and starts after a line start, a space or an opening
// bracket, so e-mail addresses, `a#b` and `12:30` start nothing.
const MENTION = /(^|[\s(])@(_?)(\*{0,2})([^\s@*][^@*\n]{0,40})?$/;
const TOPIC = /(^|[\s(])#(?:\*\*)?([^*\n>#]{1,60}?)(?:\*\*)?>([^*\n]{0,60})$/;
const CHANNEL = /(^|[\s(])#(\*\*)?([^\s*#>][^*\n>#]{0,40})?$/;
const EMOJI = /(^|[\s(]):([a-z0-9_+-]{2,40})$/i;

/** The token ending at the caret, if any. */
export function typeaheadTokenAt(text: string, caret: number): TypeaheadToken | null {
  const before = text.slice(Math.max(0, caret - 200), caret);
  const offset = caret - before.length;
  const at = (match: RegExpExecArray) => offset + match.index + match[1].length;

  const mention = MENTION.exec(before);
  if (mention) {
    const query = mention[4] ?? '';
    // A name may have spaces ("@King Ha"), but two in a row end the mention.
    if (/\s{2,}$|\n/.test(query)) return null;
    return { kind: 'mention', start: at(mention), query, silent: mention[2] === '_' };
  }
  const topic = TOPIC.exec(before);
  if (topic) return { kind: 'topic', start: at(topic), channel: topic[2], query: topic[3] };
  const channel = CHANNEL.exec(before);
  if (channel) {
    const query = channel[3] ?? '';
    if (/\s{2,}$/.test(query)) return null;
    return { kind: 'channel', start: at(channel), query };
  }
  const emoji = EMOJI.exec(before);
  if (emoji) return { kind: 'emoji', start: at(emoji), query: emoji[2] };
  return null;
}

export type Completion =
  | { kind: 'user'; fullName: string; userId: number; ambiguous: boolean }
  | { kind: 'group'; name: string }
  | { kind: 'wildcard'; name: string }
  | { kind: 'channel'; name: string }
  | { kind: 'topic'; channel: string; topic: string }
  | { kind: 'emoji'; name: string };

/** The Markdown a completion stands for, as the reference app writes it. */
export function completionMarkdown(completion: Completion, silent = false): string {
  const at = silent ? '@_' : '@';
  switch (completion.kind) {
    case 'user':
      return completion.ambiguous
        ? `${at}**${completion.fullName}|${completion.userId}**`
        : `${at}**${completion.fullName}**`;
    case 'group':
      return `${at}*${completion.name}*`;
    case 'wildcard':
      return `${at}**${completion.name}**`;
    case 'channel':
      return `#**${completion.name}**`;
    case 'topic':
      return `#**${completion.channel}>${completion.topic}**`;
    case 'emoji':
      return `:${completion.name}:`;
  }
}

/**
 * Replaces the token with the completion and a space (none for a channel link, so that `>` can
 * follow to pick a topic) and returns the new text and caret.
 */
export function applyCompletion(
  text: string,
  token: TypeaheadToken,
  caret: number,
  completion: Completion,
): { text: string; caret: number } {
  const silent = token.kind === 'mention' && token.silent;
  const after = text.slice(caret);
  const markdown = completionMarkdown(completion, silent);
  const space = completion.kind === 'channel' || after.startsWith(' ') ? '' : ' ';
  const inserted = markdown + space;
  const skip = completion.kind !== 'channel' && after.startsWith(' ') ? 1 : 0;
  return {
    text: text.slice(0, token.start) + inserted + after,
    caret: token.start + inserted.length + skip,
  };
}

/** Inserts `insert` at the caret with a space on each side where a word would touch it. */
export function insertAtCaret(text: string, caret: number, insert: string) {
  const before = text.slice(0, caret);
  const after = text.slice(caret);
  const lead = before === '' || /\s$/.test(before) ? '' : ' ';
  const trail = after.startsWith(' ') ? '' : ' ';
  const inserted = lead + insert + trail;
  return { text: before + inserted + after, caret: caret + inserted.length };
}
