/**
 * A narrow in words, for its header and the document title: "Messages from Othello in #general",
 * "Starred messages", "Search results for “lunch”", "Messages with images".
 */
import { narrowTerms, type Narrow, type NarrowTerm } from '../../narrow';
import { i18n } from '../../i18n';
import type { SearchDirectory } from './search-query';

const t = (...args: Parameters<typeof i18n.t>) => i18n.t(...args);

const IS_VALUES = [
  'starred',
  'unread',
  'mentioned',
  'alerted',
  'resolved',
  'followed',
  'dm',
] as const;
type IsValue = (typeof IS_VALUES)[number];
const isKnownIs = (operand: string): operand is IsValue =>
  (IS_VALUES as readonly string[]).includes(operand);

const HAS_VALUES = ['link', 'image', 'attachment', 'reaction'] as const;
function hasNoun(operand: string): string {
  return (HAS_VALUES as readonly string[]).includes(operand)
    ? t(`search:title.has.${operand as (typeof HAS_VALUES)[number]}`)
    : operand;
}

const quote = (text: string) => t('search:title.quote', { text });
/**
 * Search words in quotes: a query that is one quoted phrase (`"roadmap budget"`) is quoted once,
 * with the title's own quotation marks, not shown as “"roadmap budget"”.
 */
const quoteSearch = (text: string) => {
  const phrase = /^\s*"([^"]+)"\s*$/.exec(text);
  return quote(phrase ? phrase[1].trim() : text.trim());
};

function personName(directory: SearchDirectory, operand: string): string {
  if (!/^\d+$/.test(operand)) return operand;
  const id = Number(operand);
  if (id === directory.ownUserId) return t('search:title.you');
  return directory.users[id]?.full_name ?? t('search:title.unknownUser');
}

function peopleNames(directory: SearchDirectory, operand: string): string {
  const names = operand.split(',').map((id) => personName(directory, id));
  if (names.length <= 1) return names.join('');
  return t('search:title.nameList', { list: names.slice(0, -1).join(', '), last: names.at(-1) });
}

function channelName(directory: SearchDirectory, operand: string): string {
  const stream = /^\d+$/.test(operand) ? directory.streams[Number(operand)] : undefined;
  return `#${stream?.name ?? operand}`;
}

/** The words for one narrow, built from its terms so that every combination reads. */
export function narrowTitle(narrow: Narrow, directory: SearchDirectory): string {
  switch (narrow.kind) {
    case 'feed':
      return t('search:title.feed');
    case 'starred':
      return t('search:title.is.starred');
    case 'mentions':
      return t('search:title.mentions');
    case 'search':
      return t('search:title.searchResults', { query: quoteSearch(narrow.query) });
    default:
      return describeTerms(narrowTerms(narrow), directory);
  }
}

function describeTerms(terms: NarrowTerm[], directory: SearchDirectory): string {
  const positiveIs = terms.find((t) => t.operator === 'is' && !t.negated);
  const onlySearch = terms.every((t) => t.operator === 'search' && !t.negated);
  if (onlySearch && terms.length > 0)
    return t('search:title.searchResults', { query: quoteSearch(terms[0].operand) });
  const noun =
    positiveIs && isKnownIs(positiveIs.operand)
      ? t(`search:title.is.${positiveIs.operand}`)
      : t('search:title.messages');
  // Phrases read in a fixed order whatever the order of the terms: what, from whom, where, words.
  const context: TermContext = {
    directory,
    positiveIs,
    channel: terms.find((t) => t.operator === 'channel' && !t.negated),
    topic: terms.find((t) => t.operator === 'topic' && !t.negated),
  };
  const phrases: RankedPhrase[] = [];
  for (const term of terms) {
    const phrase = termPhrase(term, context);
    if (phrase) phrases.push(phrase);
  }
  // A direct-message conversation on its own reads as its name.
  if (terms.length === 1 && terms[0].operator === 'dm' && !terms[0].negated)
    return t('search:title.dmsWith', { names: peopleNames(directory, terms[0].operand) });
  phrases.sort((a, b) => a[0] - b[0]);
  return [noun, ...phrases.map(([, phrase]) => phrase)].join(' ');
}

/** A phrase and its place in the title: lower ranks read first. */
type RankedPhrase = [number, string];

interface TermContext {
  directory: SearchDirectory;
  /** The `is:` term that names the messages ("Starred messages"), so it makes no phrase. */
  positiveIs: NarrowTerm | undefined;
  channel: NarrowTerm | undefined;
  topic: NarrowTerm | undefined;
}

/** One term in words, or nothing when another part of the title already says it. */
function termPhrase(term: NarrowTerm, context: TermContext): RankedPhrase | undefined {
  const { directory, positiveIs, channel, topic } = context;
  const { operator, operand, negated } = term;
  switch (operator) {
    case 'is':
      if (term === positiveIs) return undefined;
      return [
        0,
        negated && isKnownIs(operand)
          ? t(`search:title.isNot.${operand}`)
          : t('search:title.isOther', { value: operand }),
      ];
    case 'has':
      return [
        1,
        t(negated ? 'search:title.without' : 'search:title.with', { what: hasNoun(operand) }),
      ];
    case 'sender':
      return [
        2,
        t(negated ? 'search:title.notFrom' : 'search:title.from', {
          name: personName(directory, operand),
        }),
      ];
    case 'channel':
      if (negated)
        return [3, t('search:title.outsideChannel', { channel: channelName(directory, operand) })];
      return [
        3,
        topic
          ? t('search:title.inChannelTopic', {
              channel: channelName(directory, operand),
              topic: topic.operand,
            })
          : t('search:title.inChannel', { channel: channelName(directory, operand) }),
      ];
    case 'topic':
      if (negated) return [3, t('search:title.outsideTopic', { topic: quote(operand) })];
      if (!channel) return [3, t('search:title.inTopic', { topic: quote(operand) })];
      return undefined;
    case 'dm':
      return [
        4,
        t(negated ? 'search:title.outsideDmsWith' : 'search:title.inDmsWith', {
          names: peopleNames(directory, operand),
        }),
      ];
    case 'dm-including':
      return [
        4,
        t(negated ? 'search:title.outsideDmsIncluding' : 'search:title.inDmsIncluding', {
          name: personName(directory, operand),
        }),
      ];
    case 'id':
      return [5, t(negated ? 'search:title.except' : 'search:title.numbered', { id: operand })];
    case 'search':
      return [
        6,
        t(negated ? 'search:title.notMatching' : 'search:title.matching', {
          text: quoteSearch(operand),
        }),
      ];
  }
  return undefined;
}
