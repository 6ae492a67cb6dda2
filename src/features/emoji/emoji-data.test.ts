import { afterEach, describe, expect, it } from 'vitest';
import data from 'emoji-datasource/emoji.json';
import {
  buildEmojiSet,
  customEmoji,
  emojiGlyph,
  loadUnicodeEmoji,
  parseEmojiTable,
  recentEmojiNames,
  rememberEmoji,
  searchEmoji,
} from './emoji-data';
import { EMOJI_TABLE } from './emoji-table.generated';

const ZULIP_NAMES = new Set(['thumbs_up', 'thumbs_down', 'working_on_it', 'slight_smile']);
const zulipCode = (unified: string) =>
  unified
    .toLowerCase()
    .split('-')
    .filter((cp) => cp !== 'fe0f')
    .join('-');

describe('the emoji table', () => {
  const categories = parseEmojiTable(EMOJI_TABLE);

  it('has the categories of the reference picker, in its order', () => {
    expect(categories.map((c) => c.name)).toEqual([
      'Smileys & Emotion',
      'People & Body',
      'Animals & Nature',
      'Food & Drink',
      'Activities',
      'Travel & Places',
      'Objects',
      'Symbols',
      'Flags',
    ]);
    expect(categories[0].emoji[0]).toMatchObject({ name: 'grinning', code: '1f600' });
  });

  it('matches emoji-datasource (regenerate with scripts/emoji-table.mjs when it changes)', () => {
    const codeByName = new Map<string, string>();
    for (const entry of data)
      for (const name of entry.short_names)
        if (!codeByName.has(name)) codeByName.set(name, zulipCode(entry.unified));
    const all = categories.flatMap((c) => c.emoji);
    expect(all.length).toBe(data.filter((e) => e.category !== 'Component').length);
    for (const emoji of all)
      for (const name of [emoji.name, ...emoji.aliases])
        if (!ZULIP_NAMES.has(name)) expect(codeByName.get(name), name).toBe(emoji.code);
    const thumbsUp = all.find((e) => e.code === '1f44d');
    expect(thumbsUp?.name).toBe('thumbs_up');
    expect(thumbsUp?.aliases).toContain('+1');
  });

  it('loads lazily, once', async () => {
    const first = await loadUnicodeEmoji();
    expect(await loadUnicodeEmoji()).toBe(first);
    expect(first.flatMap((c) => c.emoji).length).toBeGreaterThan(1800);
  });
});

describe('finding emoji', () => {
  const unicode = parseEmojiTable(EMOJI_TABLE);
  const parrot = {
    id: '3',
    name: 'party_parrot',
    source_url: '/user_avatars/1/emoji/images/3.gif',
    deactivated: false,
  };
  const old = { ...parrot, id: '4', name: 'old_logo', deactivated: true };
  const set = buildEmojiSet(unicode, customEmoji({ 3: parrot, 4: old }));

  it('adds the active custom emoji as their own category', () => {
    const custom = set.categories[set.categories.length - 1];
    expect(custom.name).toBe('Custom');
    expect(custom.emoji).toEqual([
      expect.objectContaining({ name: 'party_parrot', code: '3', kind: 'realm_emoji' }),
    ]);
    expect(set.byName.get('party_parrot')?.imageUrl).toBe(parrot.source_url);
    expect(set.byName.has('old_logo')).toBe(false);
  });

  it('ranks name prefixes, then word prefixes, then substrings; aliases count', () => {
    const names = searchEmoji(set, 'heart', 50).map((e) => e.name);
    expect(names[0]).toBe('heart');
    expect(names.indexOf('heart_eyes')).toBeLessThan(names.indexOf('broken_heart'));
    expect(searchEmoji(set, 'thumbsup', 3).map((e) => e.name)).toEqual(['thumbs_up']);
    expect(searchEmoji(set, 'parr', 3).map((e) => e.name)).toContain('party_parrot');
    expect(searchEmoji(set, 'party p', 3).map((e) => e.name)).toEqual(['party_parrot']);
    expect(searchEmoji(set, 'zzzqqq')).toEqual([]);
  });

  it('shows glyphs with the emoji presentation where text is the default', () => {
    expect(emojiGlyph('1f389')).toBe('🎉');
    expect(emojiGlyph('2764')).toBe('\u2764\uFE0F');
    expect(emojiGlyph('1f1fa-1f1f8')).toBe('🇺🇸');
    expect(emojiGlyph('zzz')).toBe('');
  });
});

describe('recently used emoji', () => {
  afterEach(() => localStorage.clear());

  it('keeps the latest first, once each, and survives bad storage', () => {
    rememberEmoji('tada');
    rememberEmoji('heart');
    rememberEmoji('tada');
    expect(recentEmojiNames()).toEqual(['tada', 'heart']);
    localStorage.setItem('parley.recent-emoji', '{not json');
    expect(recentEmojiNames()).toEqual([]);
  });
});
