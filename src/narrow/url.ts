/**
 * Every place in the app has a URL. Narrows live under /narrow/…, the views that are not message
 * lists at the top level. Stream slugs carry the id first, so renaming a stream keeps old links.
 */
import {
  dmNarrow,
  feedNarrow,
  FILTER_OPERATORS,
  filterNarrow,
  mentionsNarrow,
  starredNarrow,
  topicNarrow,
  type FilterOperator,
  type MessageTarget,
  type Narrow,
  type NarrowTerm,
} from './narrow';
import type { Message } from '../api/model';

export type ViewName =
  | 'inbox'
  | 'recent'
  | 'drafts'
  | 'scheduled'
  | 'settings'
  | 'organization'
  | 'channels'
  | 'groups'
  | 'user';

export type Place =
  /**
   * `path`: what follows the view in the URL, decoded (`/settings/notifications` has
   * `['notifications']`, `/channels/5/subscribers` has `['5', 'subscribers']`); the view reads it.
   */
  | { kind: 'view'; view: ViewName; path?: string[] }
  /** `target`: the list opens at that message (a `near/ID` or `with/ID` link) */
  | { kind: 'narrow'; narrow: Narrow; target?: MessageTarget };

/** The views, each at `/<name>`; the server serves the app at each (server/http/client-routes.ts). */
export const VIEWS: readonly ViewName[] = [
  'inbox',
  'recent',
  'drafts',
  'scheduled',
  'settings',
  'organization',
  'channels',
  'groups',
  'user',
];
/** Views whose URL may go on with a section or an id (`/settings/notifications`, `/user/12`). */
export const VIEWS_WITH_PATH: readonly ViewName[] = [
  'settings',
  'organization',
  'channels',
  'groups',
  'user',
];

/** Where a visitor starts when no channel is web-public: no place, but an address a reload keeps. */
export const NOTHING_PUBLIC_URL = '/nothing-public';

/**
 * The encoding the reference web app uses in narrow links (encodeURIComponent, with '.' escaping
 * instead of '%'), so that links rendered in messages (`/#narrow/channel/5-design/topic/a.20b`)
 * and our own URLs are one format.
 */
export function hashEncode(text: string): string {
  return encodeURIComponent(text).replace(/\./g, '%2E').replace(/%/g, '.');
}

export function hashDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment.replace(/\.(?=[0-9A-Fa-f]{2})/g, '%'));
  } catch {
    return null;
  }
}

/** A stream's URL segment: `5-general`; spaces become dashes for readability. */
export function streamSlug(streamId: number, streamName?: string): string {
  if (!streamName) return String(streamId);
  return `${streamId}-${hashEncode(streamName.replace(/ /g, '-'))}`;
}

/**
 * The reference app's hash links (`#narrow/…` in messages and from other clients, `#settings/…`
 * and `#organization/…` in its mails), as the path this app routes.
 */
export function pathFromZulipHash(hash: string): string | null {
  return /^#(?:narrow|settings|organization)\//.test(hash) ? `/${hash.slice(1)}` : null;
}

export function narrowToUrl(narrow: Narrow, streamName?: string): string {
  switch (narrow.kind) {
    case 'feed':
      return '/feed';
    case 'stream':
      return `/narrow/channel/${streamSlug(narrow.streamId, streamName)}`;
    case 'topic':
      return `/narrow/channel/${streamSlug(narrow.streamId, streamName)}/topic/${hashEncode(narrow.topic)}`;
    case 'dm':
      return `/narrow/dm/${narrow.userIds.join(',')}`;
    case 'starred':
      return '/narrow/starred';
    case 'mentions':
      return '/narrow/mentions';
    case 'search':
      return `/narrow/search/${hashEncode(narrow.query)}`;
    case 'filter':
      return `/narrow/${narrow.terms
        .map((term) => {
          const operand =
            term.operator === 'channel' && /^\d+$/.test(term.operand)
              ? streamSlug(Number(term.operand), streamName)
              : hashEncode(term.operand);
          return `${term.negated ? '-' : ''}${term.operator}/${operand}`;
        })
        .join('/')}`;
  }
}

/** A narrow's URL opened at a message: `/narrow/channel/5-general/topic/lunch/near/42`. */
export function narrowUrlAt(narrow: Narrow, target: MessageTarget, streamName?: string): string {
  // The short forms of the views (`/narrow/starred`) take nothing after them: a view opened at a
  // message is written as its operator, as the reference app writes it (`/narrow/is/starred/near/42`).
  const base =
    narrow.kind === 'feed'
      ? '/narrow'
      : narrow.kind === 'starred'
        ? '/narrow/is/starred'
        : narrow.kind === 'mentions'
          ? '/narrow/is/mentioned'
          : narrowToUrl(narrow, streamName);
  return `${base}/${target.follow ? 'with' : 'near'}/${target.messageId}`;
}

/**
 * The permanent link of a message: its conversation with `/near/ID`, as the reference web app
 * writes it, so that the link still finds the message after its topic is renamed.
 */
export function messageUrl(message: Message, ownUserId?: number): string {
  const conversation =
    message.type === 'stream'
      ? narrowToUrl(topicNarrow(message.stream_id, message.subject), message.display_recipient)
      : narrowToUrl(
          dmNarrow(
            message.display_recipient.map((r) => r.id),
            ownUserId,
          ),
        );
  return `${conversation}/near/${message.id}`;
}

export function viewToUrl(view: ViewName, path: readonly (string | number)[] = []): string {
  return [`/${view}`, ...path.map((segment) => encodeURIComponent(String(segment)))].join('/');
}

export function placeToUrl(place: Place): string {
  if (place.kind === 'view') return viewToUrl(place.view, place.path);
  return place.target ? narrowUrlAt(place.narrow, place.target) : narrowToUrl(place.narrow);
}

const decode = hashDecode;

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Operator names older links and other clients use, as the current ones. */
const OPERATOR_ALIASES: Record<string, FilterOperator> = {
  stream: 'channel',
  subject: 'topic',
  'pm-with': 'dm',
  from: 'sender',
  'group-pm-with': 'dm-including',
};

/**
 * One URL operand in the form a filter term holds it. Channels need their id (`5-general`);
 * people may be `12`, `12-othello` (the reference app's slugs) or an email.
 */
function termFromSegments(operatorSegment: string, operandSegment: string): NarrowTerm | null {
  const negated = operatorSegment.startsWith('-');
  const name = negated ? operatorSegment.slice(1) : operatorSegment;
  const operator = OPERATOR_ALIASES[name] ?? name;
  if (!(FILTER_OPERATORS as readonly string[]).includes(operator)) return null;
  const decoded = decode(operandSegment);
  if (decoded === null) return null;
  let operand = decoded;
  switch (operator as FilterOperator) {
    case 'channel': {
      const id = parseStreamId(operandSegment);
      if (id === null) return null;
      operand = String(id);
      break;
    }
    case 'dm': {
      const ids = /^(\d+(,\d+)*)(-.*)?$/.exec(decoded);
      if (!ids && !decoded.includes('@')) return null;
      operand = ids ? ids[1] : decoded;
      break;
    }
    case 'sender':
    case 'dm-including': {
      const id = /^(\d+)(-.*)?$/.exec(decoded);
      operand = id ? id[1] : decoded;
      break;
    }
    case 'is':
      operand = decoded.toLowerCase() === 'private' ? 'dm' : decoded.toLowerCase();
      break;
    case 'has':
      operand = decoded.toLowerCase();
      break;
    default:
      break;
  }
  return { operator: operator as FilterOperator, operand, negated };
}

function parseStreamId(slug: string): number | null {
  const match = /^(\d+)(-|$)/.exec(slug);
  return match ? Number(match[1]) : null;
}

/** The place a pathname names, or null for an unknown path. `ownUserId` canonicalises DM lists. */
export function parsePlaceUrl(pathname: string, ownUserId?: number): Place | null {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(1);
  const [first, second] = segments;
  if (segments.length === 1 && (VIEWS as readonly string[]).includes(first))
    return { kind: 'view', view: first as ViewName };
  if (segments.length > 1 && (VIEWS_WITH_PATH as readonly string[]).includes(first)) {
    const path: string[] = [];
    for (const segment of segments.slice(1)) {
      const decoded = decodeSegment(segment);
      if (decoded === null) return null;
      path.push(decoded);
    }
    return { kind: 'view', view: first as ViewName, path };
  }
  if (segments.length === 1 && first === 'feed') return { kind: 'narrow', narrow: feedNarrow };
  if (first !== 'narrow') return null;
  if (segments.length === 2 && second === 'starred')
    return { kind: 'narrow', narrow: starredNarrow };
  if (segments.length === 2 && second === 'mentions')
    return { kind: 'narrow', narrow: mentionsNarrow };

  const pairs = segments.slice(1);
  if (pairs.length === 0 || pairs.length % 2 !== 0) return null;
  const terms: NarrowTerm[] = [];
  let target: MessageTarget | undefined;
  for (let i = 0; i < pairs.length; i += 2) {
    const [operator, operand] = [pairs[i], pairs[i + 1]];
    if (operator === 'near' || operator === 'with') {
      if (!/^\d+$/.test(operand)) return null;
      target = { messageId: Number(operand), follow: operator === 'with' };
      continue;
    }
    const term = termFromSegments(operator, operand);
    if (!term) return null;
    terms.push(term);
  }
  const narrow = filterNarrow(terms, ownUserId);
  return target ? { kind: 'narrow', narrow, target } : { kind: 'narrow', narrow };
}
