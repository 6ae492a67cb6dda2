import { afterEach, describe, expect, it } from 'vitest';
import EMOJI_NAMES from '../../../server/markdown/emoji-names.json';
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

/** The reference's names by code, which the server reads too. */
const namesByCode: Record<string, string[]> = EMOJI_NAMES;

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

  it("names every emoji as the server's table does (regenerate with scripts/emoji-table.mjs)", () => {
    const all = categories.flatMap((c) => c.emoji);
    expect(all.map((e) => e.code).sort()).toEqual(Object.keys(namesByCode).sort());
    for (const emoji of all)
      expect([emoji.name, ...emoji.aliases]).toEqual(namesByCode[emoji.code]);
    const byCode = new Map(all.map((e) => [e.code, e]));
    expect(byCode.get('1f642')).toMatchObject({ name: 'smile', aliases: [] });
    expect(byCode.get('1f604')).toMatchObject({ name: 'big_smile' });
    expect(byCode.get('1f44d')).toMatchObject({ name: '+1', aliases: ['thumbs_up', 'like'] });
    expect(byCode.get('263a')).toMatchObject({ name: 'smiling_face', aliases: ['relaxed'] });
  });

  it("leaves out what the reference does not name, and iamcal's names", () => {
    const names = new Set(
      categories.flatMap((c) => c.emoji.flatMap((e) => [e.name, ...e.aliases])),
    );
    for (const name of ['slight_smile', 'slightly_smiling_face', 'thumbsup', 'hankey', 'flag-us'])
      expect(names.has(name), name).toBe(false);
    const codes = new Set(categories.flatMap((c) => c.emoji.map((e) => e.code)));
    expect(codes.has('1f426-200d-1f525')).toBe(false); // phoenix, Unicode 15.1
    expect(codes.has('1f3fb')).toBe(false); // a skin tone modifier
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
    expect(searchEmoji(set, 'thumbs_up', 3).map((e) => e.name)).toEqual(['+1']);
    expect(searchEmoji(set, 'like', 1).map((e) => e.code)).toEqual(['1f44d']);
    expect(searchEmoji(set, 'thumbsup')).toEqual([]);
    expect(searchEmoji(set, 'parr', 3).map((e) => e.name)).toContain('party_parrot');
    expect(searchEmoji(set, 'party p', 3).map((e) => e.name)).toEqual(['party_parrot']);
    expect(searchEmoji(set, 'zzzqqq')).toEqual([]);
  });

  it("finds the reference's names: big_smile is 1f604, smile 1f642", () => {
    expect(searchEmoji(set, 'big_smile').map((e) => [e.name, e.code])).toEqual([
      ['big_smile', '1f604'],
    ]);
    expect(searchEmoji(set, 'big smile', 1)[0]).toMatchObject({ name: 'big_smile' });
    expect(searchEmoji(set, 'smile', 1)[0]).toMatchObject({ name: 'smile', code: '1f642' });
    expect(set.byName.get('smile')?.code).toBe('1f642');
    expect(set.byName.get('relaxed')?.code).toBe('263a');
    expect(set.byName.has('slight_smile')).toBe(false);
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
