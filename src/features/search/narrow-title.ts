/**
 * A narrow in words, for its header and the document title: "Messages from Othello in #general",
 * "Starred messages", "Search results for “lunch”", "Messages with images".
 */
import { narrowTerms, type Narrow, type NarrowTerm } from '../../narrow';
import type { SearchDirectory } from './search-query';

const IS_NOUNS: Record<string, string> = {
  starred: 'Starred messages',
  unread: 'Unread messages',
  mentioned: 'Messages that mention you',
  alerted: 'Messages with alert words',
  resolved: 'Messages in resolved topics',
  followed: 'Messages in followed topics',
  dm: 'Direct messages',
};

const IS_NOT: Record<string, string> = {
  starred: 'not starred',
  unread: 'already read',
  mentioned: 'not mentioning you',
  alerted: 'without alert words',
  resolved: 'outside resolved topics',
  followed: 'outside followed topics',
  dm: 'outside direct messages',
};

const HAS_NOUNS: Record<string, string> = {
  link: 'links',
  image: 'images',
  attachment: 'attachments',
  reaction: 'reactions',
};

const quote = (text: string) => `“${text}”`;

function personName(directory: SearchDirectory, operand: string): string {
  if (!/^\d+$/.test(operand)) return operand;
  const id = Number(operand);
  if (id === directory.ownUserId) return 'you';
  return directory.users[id]?.full_name ?? 'an unknown user';
}

function peopleNames(directory: SearchDirectory, operand: string): string {
  const names = operand.split(',').map((id) => personName(directory, id));
  return names.length <= 2
    ? names.join(' and ')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function channelName(directory: SearchDirectory, operand: string): string {
  const stream = /^\d+$/.test(operand) ? directory.streams[Number(operand)] : undefined;
  return `#${stream?.name ?? operand}`;
}

/** The words for one narrow, built from its terms so that every combination reads. */
export function narrowTitle(narrow: Narrow, directory: SearchDirectory): string {
  switch (narrow.kind) {
    case 'feed':
      return 'Combined feed';
    case 'starred':
      return 'Starred messages';
    case 'mentions':
      return 'Mentions';
    case 'search':
      return `Search results for ${quote(narrow.query)}`;
    default:
      return describeTerms(narrowTerms(narrow), directory);
  }
}

function describeTerms(terms: NarrowTerm[], directory: SearchDirectory): string {
  const positiveIs = terms.find((t) => t.operator === 'is' && !t.negated);
  const onlySearch = terms.every((t) => t.operator === 'search' && !t.negated);
  if (onlySearch && terms.length > 0) return `Search results for ${quote(terms[0].operand)}`;
  const noun = positiveIs ? (IS_NOUNS[positiveIs.operand] ?? 'Messages') : 'Messages';
  // Phrases read in a fixed order whatever the order of the terms: what, from whom, where, words.
  const phrases: [number, string][] = [];
  const say = (rank: number, phrase: string) => phrases.push([rank, phrase]);
  const channel = terms.find((t) => t.operator === 'channel' && !t.negated);
  const topic = terms.find((t) => t.operator === 'topic' && !t.negated);
  for (const term of terms) {
    const { operator, operand, negated } = term;
    switch (operator) {
      case 'is':
        if (term === positiveIs) break;
        say(0, negated ? IS_NOT[operand] : `(${operand})`);
        break;
      case 'has':
        say(1, `${negated ? 'without' : 'with'} ${HAS_NOUNS[operand] ?? operand}`);
        break;
      case 'sender':
        say(2, `${negated ? 'not from' : 'from'} ${personName(directory, operand)}`);
        break;
      case 'channel':
        if (negated) say(3, `outside ${channelName(directory, operand)}`);
        else
          say(
            3,
            topic
              ? `in ${channelName(directory, operand)} › ${topic.operand}`
              : `in ${channelName(directory, operand)}`,
          );
        break;
      case 'topic':
        if (negated) say(3, `outside the topic ${quote(operand)}`);
        else if (!channel) say(3, `in the topic ${quote(operand)}`);
        break;
      case 'dm':
        say(
          4,
          `${negated ? 'outside' : 'in'} direct messages with ${peopleNames(directory, operand)}`,
        );
        break;
      case 'dm-including':
        say(
          4,
          `${negated ? 'outside' : 'in'} direct messages including ${personName(directory, operand)}`,
        );
        break;
      case 'id':
        say(5, `${negated ? 'except' : 'numbered'} ${operand}`);
        break;
      case 'search':
        say(6, `${negated ? 'not matching' : 'matching'} ${quote(operand)}`);
        break;
    }
  }
  // A direct-message conversation on its own reads as its name.
  if (terms.length === 1 && terms[0].operator === 'dm' && !terms[0].negated)
    return `Direct messages with ${peopleNames(directory, terms[0].operand)}`;
  phrases.sort((a, b) => a[0] - b[0]);
  return [noun, ...phrases.map(([, phrase]) => phrase)].join(' ');
}
