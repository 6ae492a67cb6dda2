import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { dmIds } from '../domain/conversations.js';
import { accessibleMessage } from './message-access.js';
import { badNarrow, type NarrowTerm } from './narrow-base.js';

/**
 * Upstream's `with` operator: a narrow naming a message's conversation follows the message
 * wherever it is now. When the user may read the message, the narrow becomes that conversation
 * (its channel and topic, or its direct-message participants), so that a link made before a
 * topic was renamed or the message moved still opens the right conversation. A message the user
 * may not read, or that no longer exists, leaves the rest of the narrow as it was.
 */
export async function expandWithOperator(
  db: Database,
  realm: Realm,
  user: User | null,
  terms: NarrowTerm[],
): Promise<NarrowTerm[]> {
  const withTerms = terms.filter((t) => t.operator === 'with');
  if (withTerms.length === 0) return terms;
  if (withTerms.length > 1) throw badNarrow("Duplicate 'with' operators.");
  const operand = String(withTerms[0]!.operand);
  if (!/^\d+$/.test(operand)) throw badNarrow("Invalid 'with' operator");
  const rest = terms.filter((t) => t.operator !== 'with');
  const message = await accessibleMessage(db, realm, user, Number(operand));
  if (!message) return rest;
  if (message.stream_id !== null)
    return [
      { operator: 'channel', operand: message.stream_id, negated: false },
      { operator: 'topic', operand: message.topic, negated: false },
    ];
  const participants = dmIds(message.dm_key);
  const others = participants.filter((id) => id !== user?.id);
  return [
    {
      operator: 'dm',
      operand: others.length > 0 ? others : participants,
      negated: false,
    },
  ];
}
