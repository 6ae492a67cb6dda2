import { describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import { buildRows, type FeedRow } from './build-rows';
import { stuckRecipientAt } from './stuck-recipient';

const day = (d: number) => new Date(2024, 4, d, 12).getTime() / 1000;

/** Rows of two topics on one day, then a third on the next; each row 40 px high. */
function feed(): { rows: FeedRow[]; places: { index: number; start: number; end: number }[] } {
  const messages = [
    eg.streamMessage({ id: 1, timestamp: day(1), subject: 'lunch' }),
    eg.streamMessage({ id: 2, timestamp: day(1), subject: 'lunch' }),
    eg.streamMessage({ id: 3, timestamp: day(1), subject: 'dinner' }),
    eg.streamMessage({ id: 4, timestamp: day(2), subject: 'dinner' }),
  ];
  const rows = buildRows(messages.map((message) => ({ message })));
  const places = rows.map((_, index) => ({ index, start: index * 40, end: index * 40 + 40 }));
  return { rows, places };
}

describe('the stuck recipient bar', () => {
  it('is none while the first bar is still in its place', () => {
    const { rows, places } = feed();
    // date 0-40, lunch bar 40-80, messages 80-160, dinner bar 160-200, message 200-240, ...
    expect(stuckRecipientAt(rows, places, 0, 30)).toBeNull();
    expect(stuckRecipientAt(rows, places, 40, 30)).toBeNull();
  });

  it('is the bar of the conversation at the top of the screen once its own bar has gone up', () => {
    const { rows, places } = feed();
    expect(stuckRecipientAt(rows, places, 41, 30)).toEqual({ index: 1, push: 0 });
    expect(stuckRecipientAt(rows, places, 120, 30)).toEqual({ index: 1, push: 0 });
    expect(stuckRecipientAt(rows, places, 170, 30)).toEqual({ index: 4, push: 0 });
  });

  it('is pushed up by the next conversation’s bar as it arrives under it', () => {
    const { rows, places } = feed();
    // The dinner bar at 160 meets the bottom of a 30 px bar stuck at 140.
    expect(stuckRecipientAt(rows, places, 130, 30)).toEqual({ index: 1, push: 0 });
    expect(stuckRecipientAt(rows, places, 140, 30)).toEqual({ index: 1, push: -10 });
    expect(stuckRecipientAt(rows, places, 159, 30)).toEqual({ index: 1, push: -29 });
  });

  it('gives way to a new day’s date, and the bar after it takes over', () => {
    const { rows, places } = feed();
    const date = rows.findIndex((row, i) => i > 0 && row.kind === 'date');
    const top = date * 40;
    expect(stuckRecipientAt(rows, places, top + 1, 30)).toBeNull();
    expect(stuckRecipientAt(rows, places, top + 41, 30)).toEqual({ index: date + 1, push: 0 });
  });

  it('is none without rows on record', () => {
    expect(stuckRecipientAt([], [], 500, 30)).toBeNull();
  });
});
