/**
 * Where a reader goes when the topic they are reading moves. As in the reference app, a topic
 * narrow follows its messages when the whole topic moves (change_all), or when the part that moved
 * holds the message they are looking at (a /near/ link's message, or the selected one).
 */
import type { UpdateMessageEvent } from '../../api/model';
import { narrowToUrl, parsePlaceUrl, sameTopic, topicNarrow, type Narrow } from '../../narrow';

const NEAR = /\/near\/(\d+)$/;

/** The URL to replace `pathname` with after `event`, or null to stay. */
export function urlAfterMove(
  pathname: string,
  event: UpdateMessageEvent,
  /** the message selected in a narrow's list, if any */
  selectedIn: (narrow: Narrow) => number | null,
  streamName: (streamId: number) => string | undefined,
): string | null {
  if (event.subject === undefined && event.new_stream_id === undefined) return null;
  const trimmed = pathname.replace(/\/+$/, '');
  const near = NEAR.exec(trimmed);
  const nearId = near ? Number(near[1]) : null;
  const place = parsePlaceUrl(near ? trimmed.slice(0, near.index) : trimmed);
  if (place?.kind !== 'narrow' || place.narrow.kind !== 'topic') return null;
  const { streamId, topic } = place.narrow;
  if (event.stream_id !== undefined && event.stream_id !== streamId) return null;
  if (event.orig_subject !== undefined && !sameTopic(event.orig_subject, topic)) return null;
  const moved = new Set(event.message_ids);
  const focus = nearId ?? selectedIn(place.narrow);
  const follows =
    event.propagate_mode === 'change_all' ||
    (focus !== null && moved.has(focus) && event.propagate_mode !== undefined);
  // Without orig_subject the event must name a message we know was in this topic.
  if (!follows || (event.orig_subject === undefined && (focus === null || !moved.has(focus))))
    return null;
  const newStreamId = event.new_stream_id ?? streamId;
  const newTopic = event.subject ?? topic;
  if (newStreamId === streamId && newTopic === topic) return null;
  const url = narrowToUrl(topicNarrow(newStreamId, newTopic), streamName(newStreamId));
  return nearId !== null ? `${url}/near/${nearId}` : url;
}
