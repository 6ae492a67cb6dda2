/**
 * The Inbox as one flat list of rows (so that it can be virtualised with hundreds of channels):
 * direct messages first, then channels in left-sidebar order, each followed by its unread topics,
 * most recent first. The text filter matches channel and topic names and people's names; muted
 * conversations are left out unless asked for; a collapsed section keeps only its header.
 */
import type { UnreadsState } from '../../model/unreads';

export type InboxRow =
  | { kind: 'dm-header'; key: 'dm'; count: number; collapsed: boolean }
  | { kind: 'dm'; key: string; userIds: number[]; name: string; ids: readonly number[] }
  | {
      kind: 'channel';
      key: string;
      streamId: number;
      name: string;
      count: number;
      mention: boolean;
      muted: boolean;
      collapsed: boolean;
    }
  | {
      kind: 'topic';
      key: string;
      streamId: number;
      streamName: string;
      topic: string;
      ids: readonly number[];
      mention: boolean;
      muted: boolean;
    };

export interface InboxInputs {
  unreads: UnreadsState;
  /** subscribed channel ids in sidebar order; other channels with unreads follow by name */
  channelOrder: readonly number[];
  channelName(streamId: number): string;
  isChannelMuted(streamId: number): boolean;
  isTopicMuted(streamId: number, topic: string): boolean;
  /** the conversation's name, or null when it is hidden (one-on-one with a muted user) */
  dmName(userIds: number[]): string | null;
  filter: string;
  includeMuted: boolean;
  collapsed: ReadonlySet<string>;
}

export const channelSectionKey = (streamId: number) => `stream:${streamId}`;

/** Every word of the filter appears in the text (case-insensitive). */
export function matchesFilter(text: string, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = text.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

const newestFirst = (a: readonly number[], b: readonly number[]) =>
  (b[b.length - 1] ?? 0) - (a[a.length - 1] ?? 0);

export function buildInboxRows(inputs: InboxInputs): InboxRow[] {
  const { unreads, filter, includeMuted, collapsed } = inputs;
  const mentions = new Set(unreads.mentions);
  const rows: InboxRow[] = [];

  const dms = Object.entries(unreads.dms)
    .filter(([, ids]) => ids.length > 0)
    .sort(([, a], [, b]) => newestFirst(a, b))
    .flatMap(([key, ids]) => {
      const userIds = key.split(',').map(Number);
      const name = inputs.dmName(userIds);
      if (name === null || !matchesFilter(name, filter)) return [];
      return [{ kind: 'dm' as const, key: `dm:${key}`, userIds, name, ids }];
    });
  if (dms.length > 0) {
    const dmCollapsed = collapsed.has('dm');
    const count = dms.reduce((sum, row) => sum + row.ids.length, 0);
    rows.push({ kind: 'dm-header', key: 'dm', count, collapsed: dmCollapsed });
    if (!dmCollapsed) rows.push(...dms);
  }

  const listed = new Set(inputs.channelOrder);
  const others = Object.keys(unreads.streams)
    .map(Number)
    .filter((id) => !listed.has(id))
    .sort((a, b) => inputs.channelName(a).localeCompare(inputs.channelName(b)));
  for (const streamId of [...inputs.channelOrder, ...others]) {
    const topics = unreads.streams[streamId];
    if (!topics) continue;
    const name = inputs.channelName(streamId);
    const shown = Object.entries(topics)
      .filter(([, ids]) => ids.length > 0)
      .filter(([topic]) => includeMuted || !inputs.isTopicMuted(streamId, topic))
      .filter(([topic]) => matchesFilter(`${name} ${topic}`, filter))
      .sort(([, a], [, b]) => newestFirst(a, b))
      .map(([topic, ids]) => ({
        kind: 'topic' as const,
        key: `topic:${streamId}:${topic}`,
        streamId,
        streamName: name,
        topic,
        ids,
        mention: ids.some((id) => mentions.has(id)),
        muted: inputs.isTopicMuted(streamId, topic),
      }));
    if (shown.length === 0) continue;
    const sectionCollapsed = collapsed.has(channelSectionKey(streamId));
    rows.push({
      kind: 'channel',
      key: channelSectionKey(streamId),
      streamId,
      name,
      // Muted topics shown on request are listed, greyed, but do not count.
      count: shown.reduce((sum, row) => (row.muted ? sum : sum + row.ids.length), 0),
      mention: shown.some((row) => row.mention),
      muted: inputs.isChannelMuted(streamId),
      collapsed: sectionCollapsed,
    });
    if (!sectionCollapsed) rows.push(...shown);
  }
  return rows;
}
