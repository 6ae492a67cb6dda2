/**
 * What the search box offers while one types: operators for a word being started, channels after
 * `channel:`, topics after `topic:` (the chosen channel's, or else those of recent conversations),
 * people after `sender:` or `dm:`, the values of `is:` and `has:`, and always the text itself as a
 * search. Pure and cheap: one pass over the people per keystroke, at most MAX_SUGGESTIONS results.
 */
import { i18n } from '../../i18n';
import { pillChannel, type SearchPill } from './search-pills';
import {
  findChannel,
  HAS_VALUES,
  IS_VALUES,
  quoteOperand,
  tokenize,
  type SearchDirectory,
  type SearchToken,
} from './search-query';

export const MAX_SUGGESTIONS = 8;

export type SearchSuggestion =
  /** run the search as typed */
  | { kind: 'search'; key: string; text: string }
  /** replace the text with a completion (an operator, a channel, a person, a value) */
  | {
      kind: 'complete';
      key: string;
      text: string;
      label: string;
      detail?: string;
      /** a person's avatar */
      userId?: number;
    };

/** The operators offered for a word being typed, each with its key in search:suggest.op. */
const OPERATORS = [
  ['channel:', 'channel'],
  ['topic:', 'topic'],
  ['sender:', 'sender'],
  ['dm:', 'dm'],
  ['dm-including:', 'dmIncluding'],
  ['is:', 'is'],
  ['has:', 'has'],
  ['near:', 'near'],
  ['with:', 'with'],
  ['id:', 'id'],
] as const;

/** What an `is:` or `has:` value finds, in the interface language. */
function valueHelp(operator: 'is' | 'has', value: string): string | undefined {
  if (operator === 'is' && (IS_VALUES as readonly string[]).includes(value))
    return i18n.t(`search:suggest.is.${value as (typeof IS_VALUES)[number]}`);
  if (operator === 'has' && (HAS_VALUES as readonly string[]).includes(value))
    return i18n.t(`search:suggest.has.${value as (typeof HAS_VALUES)[number]}`);
  return undefined;
}

const PEOPLE_OPERATORS = new Set(['sender', 'from', 'dm', 'pm-with', 'dm-including']);

/** Lower-cased names and emails, built once per user list (not per keystroke). */
export interface PeopleIndex {
  entries: { userId: number; name: string; email: string; words: string[] }[];
}

/** Sorted by name once, so that every match list comes out in name order without sorting. */
export function peopleIndex(users: SearchDirectory['users']): PeopleIndex {
  const entries = Object.values(users).map((u) => ({
    userId: u.user_id,
    name: u.full_name.toLowerCase(),
    email: u.email.toLowerCase(),
    words: u.full_name.toLowerCase().split(/[\s,]+/),
  }));
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries };
}

/** People whose name or email matches, those starting with the text first. */
export function matchPeople(index: PeopleIndex, typed: string, limit: number): number[] {
  const wanted = typed.trim().toLowerCase();
  const best: number[] = [];
  const rest: number[] = [];
  for (const entry of index.entries) {
    if (wanted === '' || entry.name.startsWith(wanted) || entry.email.startsWith(wanted))
      best.push(entry.userId);
    else if (
      rest.length < limit &&
      (entry.words.some((w) => w.startsWith(wanted)) || entry.name.includes(wanted))
    )
      rest.push(entry.userId);
    if (best.length >= limit) break;
  }
  return [...best, ...rest].slice(0, limit);
}

/** A conversation in a channel, for topic suggestions when no channel is chosen. */
export interface RecentTopic {
  streamId: number;
  topic: string;
}

export interface SuggestionContext {
  directory: SearchDirectory;
  people: PeopleIndex;
  /** the known topics of a channel, newest first; empty while they load */
  topicsOf(streamId: number): readonly string[];
  /** the pills before the text: a channel pill chooses the topics offered */
  pills?: readonly SearchPill[];
  /** recent conversations in channels, newest first; empty while they load */
  recentTopics?: readonly RecentTopic[];
}

/** Whether the word being typed is a `topic:` term, which may want recent conversations. */
export function typingTopic(text: string): boolean {
  const last = tokenize(text).at(-1);
  return last?.end === text.length && (last.operator === 'topic' || last.operator === 'subject');
}

/** Items whose name holds the typed text (ignoring case), those starting with it first. */
export function matchTopics<T>(items: readonly T[], typed: string, name: (item: T) => string): T[] {
  const wanted = typed.trim().toLowerCase();
  const starting: T[] = [];
  const containing: T[] = [];
  for (const item of items) {
    const lower = name(item).toLowerCase();
    if (lower.startsWith(wanted)) starting.push(item);
    else if (lower.includes(wanted)) containing.push(item);
  }
  return [...starting, ...containing];
}

/** The channel an earlier `channel:` token names, for topic suggestions. */
export function channelInText(text: string, directory: SearchDirectory): number | null {
  for (const token of tokenize(text))
    if ((token.operator === 'channel' || token.operator === 'stream') && !token.negated) {
      const id = findChannel(directory, token.operand);
      if (id !== null) return id;
    }
  return null;
}

export function suggest(text: string, context: SuggestionContext): SearchSuggestion[] {
  const trimmed = text.trim();
  const results: SearchSuggestion[] = [];
  const tokens = tokenize(text);
  const last = tokens.at(-1);
  // Typing continues the last token only while the cursor touches it.
  const current = last && last.end === text.length ? last : undefined;
  // An operator still waiting for its operand is no search yet.
  const unfinished = current?.operator && current.operand === '';
  if (trimmed && !unfinished) results.push({ kind: 'search', key: 'search', text: trimmed });
  const before = current ? text.slice(0, current.start) : text;
  const complete: Complete = (key, completion, label, detail, userId) => {
    if (results.length > MAX_SUGGESTIONS) return;
    results.push({ kind: 'complete', key, text: before + completion, label, detail, userId });
  };

  if (current?.operator) completeOperand(current, current.operator, before, context, complete);
  else if (current && current.operand && !/\s/.test(current.operand))
    completeOperator(text.slice(current.start, current.end), complete);
  return results.slice(0, MAX_SUGGESTIONS);
}

/** Offers one completion; the text it gives replaces the token being typed. */
type Complete = (
  key: string,
  completion: string,
  label: string,
  detail?: string,
  userId?: number,
) => void;

/** The operands that may follow the operator being typed: channels, topics, people or values. */
function completeOperand(
  current: SearchToken,
  operator: string,
  before: string,
  context: SuggestionContext,
  complete: Complete,
) {
  const { directory } = context;
  const minus = current.negated ? '-' : '';
  const typed = current.operand.toLowerCase();
  if (operator === 'channel' || operator === 'stream') {
    const channels = Object.values(directory.streams)
      .filter((s) => s.name.toLowerCase().includes(typed))
      .sort(
        (a, b) =>
          Number(!a.name.toLowerCase().startsWith(typed)) -
            Number(!b.name.toLowerCase().startsWith(typed)) || a.name.localeCompare(b.name),
      );
    for (const s of channels.slice(0, MAX_SUGGESTIONS))
      complete(
        `channel:${s.stream_id}`,
        `${minus}channel:${quoteOperand(s.name)} `,
        `#${s.name}`,
        i18n.t('search:suggest.channel'),
      );
  } else if (operator === 'topic' || operator === 'subject') {
    completeTopic(current, before, context, complete);
  } else if (PEOPLE_OPERATORS.has(operator)) {
    const name = operator === 'from' ? 'sender' : operator === 'pm-with' ? 'dm' : operator;
    // A group DM lists people with commas: only the last one is being typed.
    const parts = name === 'dm' ? current.operand.split(',') : [current.operand];
    const chosen = parts
      .slice(0, -1)
      .map((part) => `${part.trim()},`)
      .join('');
    for (const userId of matchPeople(context.people, parts.at(-1)!, MAX_SUGGESTIONS)) {
      const user = directory.users[userId];
      complete(
        `${name}:${userId}`,
        `${minus}${name}:${chosen}${user.email} `,
        user.full_name,
        user.email,
        userId,
      );
    }
  } else if (operator === 'is' || operator === 'has') {
    const values: readonly string[] = operator === 'is' ? IS_VALUES : HAS_VALUES;
    for (const value of values.filter((v) => v.startsWith(typed)))
      complete(
        `${operator}:${value}`,
        `${minus}${operator}:${value} `,
        `${minus}${operator}:${value}`,
        valueHelp(operator, value),
      );
  }
}

/**
 * Topics after `topic:`: the chosen channel's, else those of recent conversations, each with its
 * channel, which a choice adds too (unless the topic is excluded: that reads on its own).
 */
function completeTopic(
  current: SearchToken,
  before: string,
  context: SuggestionContext,
  complete: Complete,
) {
  const { directory } = context;
  const minus = current.negated ? '-' : '';
  const streamId = channelInText(before, directory) ?? pillChannel(context.pills ?? [], directory);
  if (streamId !== null) {
    const topics = matchTopics(context.topicsOf(streamId), current.operand, (t) => t);
    for (const topic of topics.slice(0, MAX_SUGGESTIONS))
      complete(
        `topic:${topic}`,
        `${minus}topic:${quoteOperand(topic)} `,
        topic,
        i18n.t('search:suggest.topic'),
      );
    return;
  }
  const recent = matchTopics(context.recentTopics ?? [], current.operand, (r) => r.topic);
  // An excluded topic may be in several channels: it is offered once.
  const offered = new Set<string>();
  for (const { streamId: id, topic } of recent) {
    const channel = directory.streams[id]?.name;
    if (channel === undefined) continue;
    const term = `${minus}topic:${quoteOperand(topic)} `;
    const completion = current.negated ? term : `channel:${quoteOperand(channel)} ${term}`;
    if (offered.has(completion)) continue;
    offered.add(completion);
    complete(
      `topic:${id}:${topic}`,
      completion,
      topic,
      i18n.t('search:suggest.topicIn', { channel }),
    );
  }
}

/** A word being typed, as written: the operators it may begin, `-` included for negations. */
function completeOperator(raw: string, complete: Complete) {
  const negated = raw.startsWith('-') && raw.length > 1;
  const word = (negated ? raw.slice(1) : raw).toLowerCase();
  for (const [operator, help] of OPERATORS)
    if (operator.startsWith(word) && operator !== word)
      complete(
        `op:${operator}`,
        `${negated ? '-' : ''}${operator}`,
        `${negated ? '-' : ''}${operator}`,
        i18n.t(`search:suggest.op.${help}`),
      );
}
