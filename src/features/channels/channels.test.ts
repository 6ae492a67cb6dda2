import { describe, expect, it } from 'vitest';
import type { Stream } from '../../api/model';
import { joinability, visibleChannels } from './ChannelsView';

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

describe('joining a channel', () => {
  const channel = (invite_only: boolean) => ({ stream_id: 9, name: 'x', invite_only }) as Stream;
  it('offers members public channels, and private ones only by invitation', () => {
    for (const role of [100, 200, 300, 400]) {
      expect(joinability(channel(false), role), `role ${role}`).toBe('join');
      expect(joinability(channel(true), role), `role ${role}`).toBe('invitation-only');
    }
  });
  it('offers guests nothing, and nothing before the user is known', () => {
    expect(joinability(channel(false), 600)).toBe('none');
    expect(joinability(channel(true), 600)).toBe('none');
    expect(joinability(channel(false), undefined)).toBe('none');
  });
});
