/**
 * Links a visitor (no account) follows: a link to a conversation in a web-public channel opens
 * it for reading, as the reference web app does with spectator access on; a link to anything
 * else keeps its address and asks for a login, after which the app opens it.
 */
import { narrowTerms, type Narrow, type NarrowTerm } from '../../narrow/narrow';
import { parsePlaceUrl, pathFromZulipHash } from '../../narrow/url';

/** Whether the address points into the app (a conversation or a view), rather than its start. */
export function isDeepLink(pathname: string, hash: string): boolean {
  if (pathFromZulipHash(hash)) return true;
  return parsePlaceUrl(pathname) !== null && pathname.replace(/\/+$/, '') !== '';
}

/**
 * The operators a visitor may read by, as the reference server allows them without an account
 * (`channel`, `topic`, `sender`, `has`, `search`, `id`, and `near`/`with`, which are not terms):
 * personal views (`is:`, direct messages) need an account.
 */
const VISITOR_OPERATORS = new Set<NarrowTerm['operator']>([
  'channel',
  'topic',
  'sender',
  'has',
  'id',
  'search',
]);

/**
 * Whether a visitor reads this narrow: it names one web-public channel (its id among
 * `webPublicIds`) and uses only the operators a visitor may.
 */
export function visitorCanRead(narrow: Narrow, webPublicIds: ReadonlySet<number>): boolean {
  const terms = narrowTerms(narrow);
  const channels = terms.filter((t) => t.operator === 'channel');
  if (channels.length !== 1 || channels[0]!.negated) return false;
  if (!/^\d+$/.test(channels[0]!.operand) || !webPublicIds.has(Number(channels[0]!.operand)))
    return false;
  return terms.every((t) => VISITOR_OPERATORS.has(t.operator));
}
