import type { ApiNarrow, ApiNarrowTerm } from '../api/model';
import type { MessageTarget, Narrow, NarrowTerm } from './narrow';

const isId = (text: string) => /^\d+$/.test(text);

/** One filter term for the API: ids as numbers, people by id or else as written (an email). */
export function toApiTerm(term: NarrowTerm): ApiNarrowTerm {
  const { operator, operand } = term;
  let value: ApiNarrowTerm['operand'] = operand;
  if ((operator === 'channel' || operator === 'id') && isId(operand)) value = Number(operand);
  if ((operator === 'sender' || operator === 'dm-including') && isId(operand))
    value = Number(operand);
  if (operator === 'dm' && operand.split(',').every(isId)) value = operand.split(',').map(Number);
  return term.negated ? { operator, operand: value, negated: true } : { operator, operand: value };
}

/**
 * The narrow of a list opened at a message: `with` asks the server for the conversation the
 * message is in now; `near` only places the view, so it is left out.
 */
export function toApiNarrowAt(narrow: Narrow, target: MessageTarget | undefined): ApiNarrow {
  const terms = toApiNarrow(narrow);
  return target?.follow ? [...terms, { operator: 'with', operand: target.messageId }] : terms;
}

/** The `narrow` parameter of GET /messages for a narrow. */
export function toApiNarrow(narrow: Narrow): ApiNarrow {
  switch (narrow.kind) {
    case 'feed':
      return [];
    case 'stream':
      return [{ operator: 'channel', operand: narrow.streamId }];
    case 'topic':
      return [
        { operator: 'channel', operand: narrow.streamId },
        { operator: 'topic', operand: narrow.topic },
      ];
    case 'dm':
      return [{ operator: 'dm', operand: narrow.userIds }];
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'mentions':
      return [{ operator: 'is', operand: 'mentioned' }];
    case 'search':
      return [{ operator: 'search', operand: narrow.query }];
    case 'filter':
      return narrow.terms.map(toApiTerm);
  }
}
