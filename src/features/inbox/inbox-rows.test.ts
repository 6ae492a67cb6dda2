import { describe, expect, it } from 'vitest';
import type { UnreadsState } from '../../model/unreads';
import { buildInboxRows, channelSectionKey, type InboxInputs } from './inbox-rows';

const unreads: UnreadsState = {
  streams: {
    1: { lunch: [10, 11], dinner: [30] },
    2: { sketches: [20], quiet: [40] },
    9: { stray: [5] },
  },
  dms: { '7': [12], '8': [50] },
  mentions: [11],
  oldUnreadsMissing: false,
};
const NAMES: Record<number, string> = { 1: 'general', 2: 'design', 9: 'zoo' };

function inputs(overrides: Partial<InboxInputs> = {}): InboxInputs {
  return {
    unreads,
    channelOrder: [2, 1],
    channelName: (id) => NAMES[id] ?? '?',
    isChannelMuted: () => false,
    isTopicMuted: (streamId, topic) => streamId === 2 && topic === 'quiet',
    dmName: (ids) => (ids[0] === 7 ? 'Iago' : 'Othello'),
    filter: '',
    includeMuted: false,
    collapsed: new Set(),
    ...overrides,
  };
}
const keys = (rows: ReturnType<typeof buildInboxRows>) => rows.map((row) => row.key);

describe('Inbox rows', () => {
  it('lists DMs newest first, then channels in sidebar order with their newest topics first', () => {
    expect(keys(buildInboxRows(inputs()))).toEqual([
      'dm',
      'dm:8',
      'dm:7',
      'stream:2',
      'topic:2:sketches',
      'stream:1',
      'topic:1:dinner',
      'topic:1:lunch',
      'stream:9',
      'topic:9:stray',
    ]);
  });

  it('hides muted topics unless asked, and muted ones shown do not count', () => {
    const rows = buildInboxRows(inputs({ includeMuted: true }));
    expect(keys(rows)).toContain('topic:2:quiet');
    const design = rows.find((row) => row.key === 'stream:2');
    expect(design?.kind === 'channel' && design.count).toBe(1);
  });

  it('filters by channel and topic names and by people', () => {
    expect(keys(buildInboxRows(inputs({ filter: 'LUN' })))).toEqual(['stream:1', 'topic:1:lunch']);
    expect(keys(buildInboxRows(inputs({ filter: 'general din' })))).toEqual([
      'stream:1',
      'topic:1:dinner',
    ]);
    expect(keys(buildInboxRows(inputs({ filter: 'iago' })))).toEqual(['dm', 'dm:7']);
  });

  it('keeps only the header of a collapsed section, with its count', () => {
    const rows = buildInboxRows(inputs({ collapsed: new Set([channelSectionKey(1), 'dm']) }));
    expect(keys(rows)).toEqual([
      'dm',
      'stream:2',
      'topic:2:sketches',
      'stream:1',
      'stream:9',
      'topic:9:stray',
    ]);
    const general = rows.find((row) => row.key === 'stream:1');
    expect(general?.kind === 'channel' && [general.count, general.mention]).toEqual([3, true]);
  });

  it('leaves out conversations the caller hides (one-on-one with a muted user)', () => {
    const rows = buildInboxRows(inputs({ dmName: (ids) => (ids[0] === 7 ? null : 'Othello') }));
    expect(keys(rows).filter((key) => key.startsWith('dm'))).toEqual(['dm', 'dm:8']);
  });
});
