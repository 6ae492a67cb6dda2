/**
 * Where a reader goes when the topic they are reading moves. As in the reference app, a topic
 * narrow follows its messages when the whole topic moves (change_all), and when its later part
 * moves (change_later) unless the message they are looking at (a /near/ link's message, or the
 * selected one) stayed behind. A single message moved away (change_one) leaves the reader where
 * they are.
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
  // Moves always name the messages' old place; an event without it moved nothing.
  if (event.stream_id !== streamId || event.orig_subject === undefined) return null;
  if (!sameTopic(event.orig_subject, topic)) return null;
  const focus = nearId ?? selectedIn(place.narrow);
  const follows =
    event.propagate_mode === 'change_all' ||
    (event.propagate_mode === 'change_later' &&
      (focus === null || event.message_ids.includes(focus)));
  if (!follows) return null;
  const newStreamId = event.new_stream_id ?? streamId;
  const newTopic = event.subject ?? topic;
  if (newStreamId === streamId && newTopic === topic) return null;
  const url = narrowToUrl(topicNarrow(newStreamId, newTopic), streamName(newStreamId));
  return nearId !== null ? `${url}/near/${nearId}` : url;
}
