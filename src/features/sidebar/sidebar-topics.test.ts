import { describe, expect, it } from 'vitest';
import { sidebarTopics, TOPICS_SHOWN, TOPICS_SHOWN_WITH_UNREAD } from './sidebar-topics';

const names = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('sidebarTopics', () => {
  it('lists every topic of a small channel', () => {
    const list = sidebarTopics(
      names(5),
      [],
      () => 0,
      () => false,
      null,
    );
    expect(list).toEqual({ shown: names(5), all: names(5), hidden: 0, hiddenUnread: 0 });
  });

  it('lists the most recent few of a read channel and counts the rest', () => {
    const list = sidebarTopics(
      names(30),
      [],
      () => 0,
      () => false,
      null,
    );
    expect(list.shown).toEqual(names(TOPICS_SHOWN));
    expect(list.hidden).toBe(30 - TOPICS_SHOWN);
    expect(list.all).toHaveLength(30);
  });

  it('lists unread topics past the first few up to the limit, and counts the unread rest', () => {
    const all = names(2000);
    // Every topic from the twentieth on has 3 unread messages.
    const unread = (name: string) => (Number(name.slice(1)) >= 20 ? 3 : 0);
    const list = sidebarTopics(all, [], unread, () => false, null);
    expect(list.shown).toEqual([...names(TOPICS_SHOWN), 't20', 't21', 't22', 't23']);
    expect(list.shown).toHaveLength(TOPICS_SHOWN_WITH_UNREAD);
    expect(list.hidden).toBe(2000 - TOPICS_SHOWN_WITH_UNREAD);
    expect(list.hiddenUnread).toBe((2000 - 20 - 4) * 3);
  });

  it('does not give a muted topic a place for its unread messages, nor count them', () => {
    const unread = (name: string) => (name === 't10' || name === 't11' ? 2 : 0);
    const list = sidebarTopics(names(20), [], unread, (name) => name === 't10', null);
    expect(list.shown).toEqual([...names(TOPICS_SHOWN), 't11']);
    expect(list.hiddenUnread).toBe(0);
  });

  it('always lists the open topic, in its place, matched without regard to case', () => {
    const list = sidebarTopics(
      names(30),
      [],
      () => 0,
      () => false,
      'T25',
    );
    expect(list.shown).toEqual([...names(TOPICS_SHOWN), 't25']);
    // One the list does not know (a new topic being opened) comes first.
    const fresh = sidebarTopics(
      names(30),
      [],
      () => 0,
      () => false,
      'brand new',
    );
    expect(fresh.shown[0]).toBe('brand new');
    expect(fresh.all[0]).toBe('brand new');
  });

  it('puts unread topics the list lacks first, once', () => {
    const list = sidebarTopics(
      ['a', 'B'],
      ['b', 'new'],
      () => 1,
      () => false,
      null,
    );
    expect(list.all).toEqual(['new', 'a', 'B']);
  });
});
