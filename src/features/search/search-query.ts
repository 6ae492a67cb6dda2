/**
 * The search language of the reference web app: `channel:general -sender:iago@example.com
 * topic:"lunch plans" is:starred cool sunglasses`. Pure functions from the text in the search box
 * to a narrow, and back, resolving names against the people and channels this client knows.
 */
import { i18n } from '../../i18n';
import {
  filterNarrow,
  narrowTerms,
  type FilterOperator,
  type MessageTarget,
  type Narrow,
  type NarrowTerm,
} from '../../narrow';

/** What the parser needs to know of people and channels. */
export interface SearchDirectory {
  ownUserId: number;
  users: Readonly<
    Record<
      number,
      { user_id: number; full_name: string; email: string; avatar_url?: string | null }
    >
  >;
  streams: Readonly<Record<number, { stream_id: number; name: string }>>;
}

/** The operators a person may type, with the names older links and habits use. */
const TYPED_OPERATORS: Record<string, FilterOperator | 'near' | 'with'> = {
  channel: 'channel',
  stream: 'channel',
  topic: 'topic',
  subject: 'topic',
  sender: 'sender',
  from: 'sender',
  dm: 'dm',
  'pm-with': 'dm',
  'dm-including': 'dm-including',
  'group-pm-with': 'dm-including',
  is: 'is',
  has: 'has',
  id: 'id',
  near: 'near',
  with: 'with',
  search: 'search',
};

/** The operator a typed name stands for (`from` is `sender`), or undefined for an unknown one. */
export const typedOperator = (name: string): FilterOperator | 'near' | 'with' | undefined =>
  Object.hasOwn(TYPED_OPERATORS, name) ? TYPED_OPERATORS[name] : undefined;

export const IS_VALUES = [
  'starred',
  'unread',
  'mentioned',
  'alerted',
  'resolved',
  'followed',
  'dm',
] as const;
export const HAS_VALUES = ['link', 'image', 'attachment', 'reaction'] as const;

/** One piece of typed text: an operator with its operand, or a word (quoted phrases whole). */
export interface SearchToken {
  negated: boolean;
  /** lower-cased as typed, null for a plain word */
  operator: string | null;
  operand: string;
  /** where the token starts and ends in the text */
  start: number;
  end: number;
}

const TOKEN = /(-?)([A-Za-z][\w-]*):(?:"([^"]*)"?|(\S*))|"([^"]*)"?|(\S+)/g;

export function tokenize(text: string): SearchToken[] {
  const tokens: SearchToken[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const [whole, minus, operator, quoted, bare, phrase, word] = match;
    const start = match.index;
    const end = start + whole.length;
    if (operator !== undefined)
      tokens.push({
        negated: minus === '-',
        operator: operator.toLowerCase(),
        operand: quoted ?? bare ?? '',
        start,
        end,
      });
    else tokens.push({ negated: false, operator: null, operand: phrase ?? word ?? '', start, end });
  }
  return tokens;
}

export interface ParsedSearch {
  terms: NarrowTerm[];
  target?: MessageTarget;
  /** what could not be understood, in words; nothing is searched while there are problems */
  problems: string[];
}

const isId = (text: string) => /^\d+$/.test(text);

/** A person by id, email, "me" or full name (ignoring case); their id, or null. */
export function findPerson(directory: SearchDirectory, text: string): number | null {
  const wanted = text.trim().toLowerCase();
  if (wanted === '') return null;
  if (wanted === 'me') return directory.ownUserId;
  if (isId(wanted) && directory.users[Number(wanted)]) return Number(wanted);
  let byName: number | null = null;
  const byPrefix: number[] = [];
  for (const user of Object.values(directory.users)) {
    if (user.email.toLowerCase() === wanted) return user.user_id;
    const name = user.full_name.toLowerCase();
    if (byName === null && name === wanted) byName = user.user_id;
    else if (
      name.split(/[\s,]+/).some((_, i, words) => words.slice(i).join(' ').startsWith(wanted))
    )
      byPrefix.push(user.user_id);
  }
  // "sender:othello" finds "Othello, the Moor of Venice" when nobody else's name fits.
  return byName ?? (byPrefix.length === 1 ? byPrefix[0] : null);
}

export function findChannel(directory: SearchDirectory, text: string): number | null {
  const wanted = text.trim().replace(/^#/, '').toLowerCase();
  if (isId(wanted) && directory.streams[Number(wanted)]) return Number(wanted);
  for (const stream of Object.values(directory.streams))
    if (stream.name.toLowerCase() === wanted) return stream.stream_id;
  return null;
}

/**
 * The words a token without a known operator searches for. An unknown operator is searched as it
 * was written, as the reference app does. A quoted phrase keeps its quotes: the server matches its
 * words next to each other.
 */
function searchedAsWritten(text: string, token: SearchToken): string {
  const operand = token.operand.trim();
  const typed = text.slice(token.start, token.end);
  if (token.operator !== null) return typed;
  return typed.startsWith('"') && operand ? `"${operand}"` : operand;
}

/** Parses the search box's text into filter terms, a target message and any problems. */
export function parseSearch(text: string, directory: SearchDirectory): ParsedSearch {
  const terms: NarrowTerm[] = [];
  const words: string[] = [];
  const problems: string[] = [];
  let target: MessageTarget | undefined;
  const add = (operator: FilterOperator, operand: string, negated: boolean) =>
    terms.push({ operator, operand, negated });

  for (const token of tokenize(text)) {
    const operator = token.operator === null ? undefined : typedOperator(token.operator);
    const operand = token.operand.trim();
    if (operator === undefined) {
      const written = searchedAsWritten(text, token);
      if (written) words.push(written);
      continue;
    }
    if (operand === '') continue;
    switch (operator) {
      case 'channel': {
        const id = findChannel(directory, operand);
        if (id === null) problems.push(i18n.t('search:problems.noChannel', { name: operand }));
        else add('channel', String(id), token.negated);
        break;
      }
      case 'sender':
      case 'dm-including': {
        const id = findPerson(directory, operand);
        if (id !== null) add(operator, String(id), token.negated);
        else if (operand.includes('@')) add(operator, operand, token.negated);
        else problems.push(i18n.t('search:problems.noPerson', { name: operand }));
        break;
      }
      case 'dm': {
        const people = operand.split(',').map((part) => part.trim());
        const ids = people.map((person) => findPerson(directory, person));
        const unknown = people.filter((_, i) => ids[i] === null);
        if (unknown.length > 0)
          problems.push(i18n.t('search:problems.noPeople', { names: unknown.join('”, “') }));
        else add('dm', ids.join(','), token.negated);
        break;
      }
      case 'is': {
        const value = operand.toLowerCase() === 'private' ? 'dm' : operand.toLowerCase();
        if (!(IS_VALUES as readonly string[]).includes(value))
          problems.push(
            i18n.t('search:problems.badIs', { value: operand, choices: IS_VALUES.join(', ') }),
          );
        else add('is', value, token.negated);
        break;
      }
      case 'has': {
        const value = operand.toLowerCase().replace(/s$/, '');
        if (!(HAS_VALUES as readonly string[]).includes(value))
          problems.push(
            i18n.t('search:problems.badHas', { value: operand, choices: HAS_VALUES.join(', ') }),
          );
        else add('has', value, token.negated);
        break;
      }
      case 'id':
      case 'near':
      case 'with':
        if (!isId(operand)) problems.push(i18n.t('search:problems.needsNumber', { operator }));
        else if (operator === 'id') add('id', operand, token.negated);
        else target = { messageId: Number(operand), follow: operator === 'with' };
        break;
      case 'topic':
        add('topic', operand, token.negated);
        break;
      case 'search':
        if (token.negated) add('search', operand, true);
        else words.push(operand);
        break;
    }
  }
  if (words.length > 0) add('search', words.join(' '), false);
  return target ? { terms, target, problems } : { terms, problems };
}

/** The narrow the search box's text names (canonical: `channel:x topic:y` is a topic narrow). */
export function searchToNarrow(
  text: string,
  directory: SearchDirectory,
): { narrow: Narrow; target?: MessageTarget; problems: string[] } {
  const parsed = parseSearch(text, directory);
  return {
    narrow: filterNarrow(parsed.terms, directory.ownUserId),
    target: parsed.target,
    problems: parsed.problems,
  };
}

/** An operand as typed text: quoted when it holds spaces or quotes. */
export function quoteOperand(operand: string): string {
  return /[\s"]/.test(operand) || operand === '' ? `"${operand.replace(/"/g, '')}"` : operand;
}

function personText(directory: SearchDirectory, operand: string): string {
  if (!isId(operand)) return operand;
  return directory.users[Number(operand)]?.email ?? operand;
}

/** A narrow as the text the search box shows for it, which parses back to the same narrow. */
export function narrowToSearchText(narrow: Narrow, directory: SearchDirectory): string {
  return narrowTerms(narrow)
    .map((term) => {
      let operand = term.operand;
      if (term.operator === 'channel' && isId(operand))
        operand = directory.streams[Number(operand)]?.name ?? operand;
      if (term.operator === 'sender' || term.operator === 'dm-including')
        operand = personText(directory, operand);
      if (term.operator === 'dm')
        operand = operand
          .split(',')
          .map((id) => personText(directory, id))
          .join(',');
      if (term.operator === 'search' && !term.negated) return operand;
      return `${term.negated ? '-' : ''}${term.operator}:${quoteOperand(operand)}`;
    })
    .join(' ');
}
