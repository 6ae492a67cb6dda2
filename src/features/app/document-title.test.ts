import { afterEach, describe, expect, it, vi } from 'vitest';
import { COUNT_DISPLAY, documentTitle, placeTitle, titleCount } from './document-title';
import { badgeText, setAppBadge } from './favicon-badge';

const names = (id: number) => ({ 1: 'general' })[id];
const dmName = (ids: number[]) => ids.map((id) => `User ${id}`).join(', ');

describe('the document title', () => {
  it('puts the count first and the organization last', () => {
    const topic = placeTitle(
      { kind: 'narrow', narrow: { kind: 'topic', streamId: 1, topic: 'lunch' } },
      names,
      dmName,
    );
    expect(documentTitle(5, topic, 'Parley Demo')).toBe('(5) #general > lunch - Parley Demo');
    expect(documentTitle(0, 'Inbox', 'Parley Demo')).toBe('Inbox - Parley Demo');
  });

  it('names views, channels and conversations', () => {
    expect(placeTitle({ kind: 'view', view: 'inbox' }, names, dmName)).toBe('Inbox');
    expect(placeTitle({ kind: 'view', view: 'recent' }, names, dmName)).toBe(
      'Recent conversations',
    );
    expect(
      placeTitle({ kind: 'narrow', narrow: { kind: 'stream', streamId: 1 } }, names, dmName),
    ).toBe('#general');
    expect(
      placeTitle({ kind: 'narrow', narrow: { kind: 'dm', userIds: [7, 8] } }, names, dmName),
    ).toBe('User 7, User 8');
  });

  it('counts what the unread count setting asks for', () => {
    const counts = { unmuted: 12, directMessages: 2, mentions: 3 };
    expect(titleCount(COUNT_DISPLAY.ALL, counts)).toBe(12);
    expect(titleCount(undefined, counts)).toBe(12);
    expect(titleCount(COUNT_DISPLAY.DMS_AND_MENTIONS, counts)).toBe(5);
    expect(titleCount(COUNT_DISPLAY.NONE, counts)).toBe(0);
  });

  it('caps the favicon badge', () => {
    expect(badgeText(7)).toBe('7');
    expect(badgeText(150)).toBe('99+');
  });
});

describe("the installed app's badge", () => {
  const badging = navigator;
  afterEach(() => {
    Reflect.deleteProperty(badging, 'setAppBadge');
    Reflect.deleteProperty(badging, 'clearAppBadge');
  });

  it('shows the count through the Badging API, and clears it at zero', () => {
    const set = vi.fn(() => Promise.resolve());
    const clear = vi.fn(() => Promise.resolve());
    Object.assign(badging, { setAppBadge: set, clearAppBadge: clear });
    setAppBadge(12);
    expect(set).toHaveBeenCalledWith(12);
    setAppBadge(0);
    expect(clear).toHaveBeenCalledTimes(1);
  });

  it('does nothing where the browser has no badges, or refuses them', async () => {
    expect(() => setAppBadge(3)).not.toThrow();
    Object.assign(badging, { setAppBadge: () => Promise.reject(new Error('not installed')) });
    setAppBadge(3);
    await Promise.resolve(); // the refusal is caught, not left unhandled
  });
});
