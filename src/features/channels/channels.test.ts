import { describe, expect, it } from 'vitest';
import type { Stream } from '../../api/model';
import { visibleChannels } from './ChannelsView';

const stream = (stream_id: number, name: string, description = '', is_archived = false) =>
  ({ stream_id, name, description, is_archived }) as Stream;

describe('the channel list', () => {
  it('sorts by name, filters by name or description, and leaves archived channels out', () => {
    const all = [
      stream(1, 'general'),
      stream(2, 'design', 'mockups'),
      stream(3, 'old', '', true),
      stream(4, 'Announce'),
    ];
    expect(visibleChannels(all, '').map((s) => s.name)).toEqual(['Announce', 'design', 'general']);
    expect(visibleChannels(all, 'MOCK').map((s) => s.name)).toEqual(['design']);
    expect(visibleChannels(all, 'NOUN').map((s) => s.name)).toEqual(['Announce']);
    expect(visibleChannels(all, 'old')).toEqual([]);
  });
});
