// The types of emoji-names.mjs, for the TypeScript test of its reader.

/** Where the table is written: server/markdown/emoji-names.json. */
export const EMOJI_NAMES_PATH: string;

/** The source's entries, as [code, canonical name, ...aliases] in its order. */
export function parseUnicodeEmojis(text: string): string[][];

/** The table's JSON text, in prettier's layout. */
export function emojiNamesJson(entries: string[][]): string;
