/**
 * The emoji a person can pick or type: the Unicode set (a generated table, loaded on first use
 * so it stays out of the first page load) and the organization's custom emoji.
 */
import { useEffect, useState } from 'react';
import type { RealmEmoji } from '../../api/model';

export { emojiGlyph } from './emoji-glyph';

export type EmojiKind = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';

export interface Emoji {
  /** the canonical name, as `:name:` and reactions use it */
  name: string;
  /** further names it is found by */
  aliases: readonly string[];
  /** Zulip's code: hex code points joined by '-', or a custom emoji's id */
  code: string;
  kind: EmojiKind;
  category: string;
  /** the image of a custom emoji */
  imageUrl?: string;
}

export interface EmojiCategory {
  name: string;
  emoji: Emoji[];
}

export interface EmojiSet {
  categories: EmojiCategory[];
  byName: ReadonlyMap<string, Emoji>;
}

export const CUSTOM_CATEGORY = 'Custom';
export const RECENT_CATEGORY = 'Recently used';

/** Parses the generated table ("#Category" lines, then "code name alias…" lines). */
export function parseEmojiTable(table: string): EmojiCategory[] {
  const categories: EmojiCategory[] = [];
  let current: EmojiCategory | null = null;
  for (const line of table.split('\n')) {
    if (line.startsWith('#')) {
      current = { name: line.slice(1), emoji: [] };
      categories.push(current);
    } else if (current && line) {
      const [code, name, ...aliases] = line.split(' ');
      current.emoji.push({ name, aliases, code, kind: 'unicode_emoji', category: current.name });
    }
  }
  return categories;
}

let unicodeCategories: Promise<EmojiCategory[]> | null = null;

/** The Unicode emoji, fetched once as a separate chunk. */
export function loadUnicodeEmoji(): Promise<EmojiCategory[]> {
  unicodeCategories ??= import('./emoji-table.generated').then((m) =>
    parseEmojiTable(m.EMOJI_TABLE),
  );
  return unicodeCategories;
}

/** Active custom emoji as a category, by name. */
export function customEmoji(byId: Readonly<Record<string, RealmEmoji>>): Emoji[] {
  return Object.values(byId)
    .filter((e) => !e.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((e) => ({
      name: e.name,
      aliases: [],
      code: e.id,
      kind: 'realm_emoji' as const,
      category: CUSTOM_CATEGORY,
      imageUrl: e.source_url,
    }));
}

/** Unicode and custom emoji together; a custom emoji takes its name from a Unicode one, as the server does. */
export function buildEmojiSet(unicode: EmojiCategory[], custom: Emoji[]): EmojiSet {
  const byName = new Map<string, Emoji>();
  for (const category of unicode)
    for (const emoji of category.emoji)
      for (const name of [emoji.name, ...emoji.aliases])
        if (!byName.has(name)) byName.set(name, emoji);
  for (const emoji of custom) byName.set(emoji.name, emoji);
  const categories = custom.length
    ? [...unicode, { name: CUSTOM_CATEGORY, emoji: custom }]
    : unicode;
  return { categories, byName };
}

/**
 * Emoji whose name or an alias matches: the exact name first, then names starting with the
 * query, then names with a later word (after `_` or `-`) starting with it, then any containing
 * it; each in the set's order.
 */
export function searchEmoji(set: EmojiSet, query: string, limit = Infinity): Emoji[] {
  const needle = query.trim().toLowerCase().replace(/\s+/g, '_');
  const all = set.categories.flatMap((c) => c.emoji);
  if (!needle) return all.slice(0, limit);
  const tiers: Emoji[][] = [[], [], [], []];
  for (const emoji of all) {
    let best = 4;
    for (const name of [emoji.name, ...emoji.aliases]) {
      if (name === needle) best = 0;
      else if (best > 1 && name.startsWith(needle)) best = 1;
      else if (best > 2 && name.split(/[_-]/).some((w, i) => i > 0 && w.startsWith(needle)))
        best = 2;
      else if (best > 3 && name.includes(needle)) best = 3;
      if (best === 0) break;
    }
    if (best < 4) tiers[best].push(emoji);
  }
  return tiers.flat().slice(0, limit);
}

const RECENT_KEY = 'parley.recent-emoji';
const RECENT_LIMIT = 24;

/** Names of the emoji used last, newest first (kept in this browser). */
export function recentEmojiNames(): string[] {
  try {
    const stored = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(stored) ? stored.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberEmoji(name: string) {
  const names = [name, ...recentEmojiNames().filter((n) => n !== name)].slice(0, RECENT_LIMIT);
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(names));
  } catch {
    // Storage full or off: the list is a convenience.
  }
}

/** The Unicode emoji once loaded (null before); starts loading when `wanted` first becomes true. */
export function useUnicodeEmoji(wanted = true): EmojiCategory[] | null {
  const [categories, setCategories] = useState<EmojiCategory[] | null>(null);
  useEffect(() => {
    if (!wanted || categories) return;
    let live = true;
    void loadUnicodeEmoji().then((loaded) => {
      if (live) setCategories(loaded);
    });
    return () => {
      live = false;
    };
  }, [wanted, categories]);
  return categories;
}
