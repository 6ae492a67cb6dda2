/**
 * Every place in the app has a URL. Narrows live under /narrow/…, the views that are not message
 * lists at the top level. Stream slugs carry the id first, so renaming a stream keeps old links.
 */
import {
  dmNarrow,
  feedNarrow,
  mentionsNarrow,
  searchNarrow,
  starredNarrow,
  streamNarrow,
  topicNarrow,
  type Narrow,
} from './narrow';
import type { Message } from '../api/model';

export type ViewName = 'inbox' | 'recent' | 'drafts' | 'settings' | 'channels';

export type Place = { kind: 'view'; view: ViewName } | { kind: 'narrow'; narrow: Narrow };

const VIEWS: readonly ViewName[] = ['inbox', 'recent', 'drafts', 'settings', 'channels'];

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

/** `#narrow/...` links from messages and other clients, as a path this app routes. */
export function pathFromZulipHash(hash: string): string | null {
  return hash.startsWith('#narrow/') ? `/${hash.slice(1)}` : null;
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
  }
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

export function viewToUrl(view: ViewName): string {
  return `/${view}`;
}

export function placeToUrl(place: Place): string {
  return place.kind === 'view' ? viewToUrl(place.view) : narrowToUrl(place.narrow);
}

const decode = hashDecode;

function parseStreamId(slug: string): number | null {
  const match = /^(\d+)(-|$)/.exec(slug);
  return match ? Number(match[1]) : null;
}

function parseUserIds(list: string): number[] | null {
  const ids = list.split(',').map(Number);
  return ids.length > 0 && ids.every((id) => Number.isInteger(id) && id > 0) ? ids : null;
}

/** The place a pathname names, or null for an unknown path. `ownUserId` canonicalises DM lists. */
export function parsePlaceUrl(pathname: string, ownUserId?: number): Place | null {
  // A message's permalink (`…/near/42`, or upstream's `…/with/42`) opens its conversation.
  const conversation = pathname
    .replace(/\/+$/, '')
    .replace(/^(\/narrow\/.+)\/(near|with)\/\d+$/, '$1');
  const segments = conversation.split('/').slice(1);
  const [first, second, third, fourth, fifth] = segments;
  if (segments.length === 1 && (VIEWS as readonly string[]).includes(first))
    return { kind: 'view', view: first as ViewName };
  if (segments.length === 1 && first === 'feed') return { kind: 'narrow', narrow: feedNarrow };
  if (first !== 'narrow') return null;

  const narrow = parseNarrowSegments(second, third, fourth, fifth, segments.length, ownUserId);
  return narrow ? { kind: 'narrow', narrow } : null;
}

function parseNarrowSegments(
  operator: string | undefined,
  operand: string | undefined,
  subOperator: string | undefined,
  subOperand: string | undefined,
  count: number,
  ownUserId: number | undefined,
): Narrow | null {
  if (count === 2 && operator === 'starred') return starredNarrow;
  if (count === 2 && operator === 'mentions') return mentionsNarrow;
  if (operand === undefined) return null;
  if (count === 3 && operator === 'search') {
    const query = decode(operand);
    return query ? searchNarrow(query) : null;
  }
  if (count === 3 && operator === 'dm') {
    const ids = parseUserIds(operand);
    return ids ? dmNarrow(ids, ownUserId) : null;
  }
  if (operator !== 'channel' && operator !== 'stream') return null;
  const streamId = parseStreamId(operand);
  if (streamId === null) return null;
  if (count === 3) return streamNarrow(streamId);
  if (count === 5 && subOperator === 'topic' && subOperand !== undefined) {
    const topic = decode(subOperand);
    return topic === null ? null : topicNarrow(streamId, topic);
  }
  return null;
}
