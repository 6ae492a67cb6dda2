import { describe, expect, it } from 'vitest';
import { eg } from '../test/eg';
import { draftsFromSnapshot, reduceDrafts, sortedDrafts } from './drafts';
import { realmFromSnapshot, realmName, reduceRealm } from './realm';
import { reduceSettings } from './settings';

describe('reduceRealm', () => {
  const initial = () => realmFromSnapshot(eg.registerResponse());

  it('reads realm_* settings and limits from the snapshot', () => {
    const realm = initial();
    expect(realmName(realm)).toBe('Test Org');
    expect(realm.maxTopicLength).toBe(60);
    expect(realm.settings.users).toBeUndefined();
  });

  it('applies update and update_dict', () => {
    const renamed = reduceRealm(initial(), {
      id: 1,
      type: 'realm',
      op: 'update',
      property: 'name',
      value: 'Renamed Org',
    });
    expect(realmName(renamed)).toBe('Renamed Org');
    const dict = reduceRealm(renamed, {
      id: 2,
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { mandatory_topics: true, icon_url: '/new.png' },
    });
    expect(dict.settings).toMatchObject({
      mandatory_topics: true,
      icon_url: '/new.png',
      name: 'Renamed Org',
    });
    expect(
      reduceRealm(dict, {
        id: 3,
        type: 'realm',
        op: 'update',
        property: 'name',
        value: 'Renamed Org',
      }),
    ).toBe(dict);
  });
});

describe('reduceSettings', () => {
  it('updates one property and ignores no-ops', () => {
    const initial = eg.registerResponse().user_settings;
    const next = reduceSettings(initial, {
      id: 1,
      type: 'user_settings',
      op: 'update',
      property: 'twenty_four_hour_time',
      value: true,
    });
    expect(next.twenty_four_hour_time).toBe(true);
    expect(
      reduceSettings(next, {
        id: 2,
        type: 'user_settings',
        op: 'update',
        property: 'twenty_four_hour_time',
        value: true,
      }),
    ).toBe(next);
  });
});

describe('reduceDrafts', () => {
  const first = eg.draft({ id: 1, timestamp: 100 });
  const initial = () => draftsFromSnapshot([first]);

  it('adds, updates and removes drafts', () => {
    const second = eg.draft({ id: 2, content: 'more', timestamp: 200 });
    const added = reduceDrafts(initial(), { id: 1, type: 'drafts', op: 'add', drafts: [second] });
    expect(sortedDrafts(added).map((d) => d.id)).toEqual([2, 1]);
    const updated = reduceDrafts(added, {
      id: 2,
      type: 'drafts',
      op: 'update',
      draft: { ...first, content: 'edited', timestamp: 300 },
    });
    expect(updated.byId[1].content).toBe('edited');
    const removed = reduceDrafts(updated, { id: 3, type: 'drafts', op: 'remove', draft_id: 2 });
    expect(Object.keys(removed.byId)).toEqual(['1']);
    expect(reduceDrafts(removed, { id: 4, type: 'drafts', op: 'remove', draft_id: 2 })).toBe(
      removed,
    );
  });
});
