/**
 * The search box's pills: each complete operator term (`channel:general`, `-sender:iago@…`) is
 * shown as a pill with a readable label, and only the free words stay as text. A pill keeps the
 * term as the search language writes it, so pills and text together parse as before.
 */
import { i18n } from '../../i18n';
import {
  findChannel,
  findPerson,
  parseSearch,
  quoteOperand,
  tokenize,
  typedOperator,
  type SearchDirectory,
} from './search-query';

/** The operators shown as pills: every known one but plain search words. */
export type PillOperator = Exclude<NonNullable<ReturnType<typeof typedOperator>>, 'search'>;

export interface SearchPill {
  operator: PillOperator;
  /** as written: a channel's name, a person's email, a topic, a value */
  operand: string;
  negated: boolean;
}

/** What the box holds: the pills, then the text being typed. */
export interface SearchDraft {
  pills: readonly SearchPill[];
  text: string;
}

export const EMPTY_DRAFT: SearchDraft = { pills: [], text: '' };

/** A pill as search text: `-topic:"lunch plans"`. */
export const pillText = (pill: SearchPill) =>
  `${pill.negated ? '-' : ''}${pill.operator}:${quoteOperand(pill.operand)}`;

/** The whole query the box holds, for the parser. */
export const draftQuery = (draft: SearchDraft) =>
  [...draft.pills.map(pillText), draft.text.trim()].filter(Boolean).join(' ');

/**
 * Takes the complete operator terms out of typed text as pills. A term is complete once a space
 * follows it (or, with `all`, always: a narrow's own text), and only when it parses: a channel or
 * person that matches nothing stays text, so that Enter says what is wrong with it.
 */
export function takePills(
  text: string,
  directory: SearchDirectory,
  { all = false } = {},
): { pills: SearchPill[]; text: string } {
  const pills: SearchPill[] = [];
  let rest = '';
  let at = 0;
  for (const token of tokenize(text)) {
    const operator = token.operator === null ? undefined : typedOperator(token.operator);
    const operand = token.operand.trim();
    if (operator === undefined || operator === 'search' || operand === '') continue;
    if (!all && !/\s/.test(text.charAt(token.end))) continue;
    const value = operator === 'is' || operator === 'has' ? operand.toLowerCase() : operand;
    const pill = { operator, operand: value, negated: token.negated };
    if (parseSearch(pillText(pill), directory).problems.length > 0) continue;
    pills.push(pill);
    rest += text.slice(at, token.start);
    at = token.end;
    while (/\s/.test(text.charAt(at))) at += 1;
  }
  rest += text.slice(at);
  return { pills, text: pills.length > 0 ? rest.trimStart() : text };
}

/** A narrow's search text as the box shows it: its terms as pills, its search words as text. */
export function narrowDraft(narrowText: string, directory: SearchDirectory): SearchDraft {
  return takePills(narrowText, directory, { all: true });
}

function personLabel(directory: SearchDirectory, operand: string): string {
  const id = findPerson(directory, operand);
  return id === null ? operand : (directory.users[id]?.full_name ?? operand);
}

/** What a pill says after its operator: names for channels and people, as they are known. */
function pillValue(pill: SearchPill, directory: SearchDirectory): string {
  switch (pill.operator) {
    case 'channel': {
      const id = findChannel(directory, pill.operand);
      return id === null ? pill.operand : directory.streams[id].name;
    }
    case 'sender':
    case 'dm-including':
      return personLabel(directory, pill.operand);
    case 'dm':
      return pill.operand
        .split(',')
        .map((person) => personLabel(directory, person))
        .join(', ');
    default:
      return pill.operand;
  }
}

/** "channel: general", "sender: Othello", "exclude is: resolved", in the interface language. */
export function pillLabel(pill: SearchPill, directory: SearchDirectory): string {
  const term = i18n.t('search:pill.term', {
    operator: pill.operator,
    value: pillValue(pill, directory),
  });
  return pill.negated ? i18n.t('search:pill.exclude', { term }) : term;
}

/** The channel a (positive) channel pill names, for the topics to suggest. */
export function pillChannel(
  pills: readonly SearchPill[],
  directory: SearchDirectory,
): number | null {
  for (const pill of pills)
    if (pill.operator === 'channel' && !pill.negated) {
      const id = findChannel(directory, pill.operand);
      if (id !== null) return id;
    }
  return null;
}
