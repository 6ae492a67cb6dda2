import { describe, expect, it } from 'vitest';
import type { ScheduledMessage } from '../../api/model';
import { fromInputValue, quickChoices, scheduledFor, toInputValue } from './schedule-times';

const scheduled = (fields: Partial<ScheduledMessage>): ScheduledMessage => ({
  scheduled_message_id: 1,
  type: 'stream',
  to: 5,
  topic: 'lunch',
  content: 'hi',
  rendered_content: '<p>hi</p>',
  scheduled_delivery_timestamp: 0,
  failed: false,
  ...fields,
});

describe('quick schedule choices', () => {
  it('offers this afternoon in the morning, tomorrow, and next Monday', () => {
    // Wednesday 25 November 2026, 08:30 local time
    const choices = quickChoices(new Date(2026, 10, 25, 8, 30));
    expect(choices.map((c) => [c.kind, toInputValue(c.at)])).toEqual([
      ['inHour', '2026-11-25T09:30'],
      ['todayAt', '2026-11-25T16:00'],
      ['tomorrowAt', '2026-11-26T09:00'],
      ['tomorrowAt', '2026-11-26T16:00'],
      ['mondayAt', '2026-11-30T09:00'],
    ]);
  });

  it('leaves out this afternoon after noon and Monday when tomorrow is Monday', () => {
    // Sunday 29 November 2026, 14:00
    const choices = quickChoices(new Date(2026, 10, 29, 14, 0));
    expect(choices.map((c) => c.kind)).toEqual(['inHour', 'tomorrowAt', 'tomorrowAt']);
  });
});

describe('datetime-local values', () => {
  it('round-trip in local time and refuse what is not a time', () => {
    const date = new Date(2026, 0, 2, 3, 4);
    expect(toInputValue(date)).toBe('2026-01-02T03:04');
    expect(fromInputValue('2026-01-02T03:04')?.getTime()).toBe(date.getTime());
    expect(fromInputValue('2026-01-02T03:04:05')?.getSeconds()).toBe(5);
    expect(fromInputValue('')).toBeNull();
    expect(fromInputValue('tomorrow')).toBeNull();
  });
});

describe('scheduledFor', () => {
  it('matches the same topic (any case) or the same direct-message group', () => {
    const topic = { type: 'stream' as const, streamId: 5, topic: 'Lunch' };
    expect(scheduledFor(scheduled({}), topic, 9)).toBe(true);
    expect(scheduledFor(scheduled({ topic: 'dinner' }), topic, 9)).toBe(false);
    expect(scheduledFor(scheduled({ to: 6 }), topic, 9)).toBe(false);
    const dm = { type: 'direct' as const, userIds: [3, 4] };
    expect(scheduledFor(scheduled({ type: 'private', to: [4, 3, 9] }), dm, 9)).toBe(true);
    expect(scheduledFor(scheduled({ type: 'private', to: [3] }), dm, 9)).toBe(false);
    expect(scheduledFor(scheduled({}), null, 9)).toBe(false);
  });
});
