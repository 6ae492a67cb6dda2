import { createRequire } from 'node:module';

interface EmojiEntry {
  unified: string;
  short_name: string;
  short_names: string[];
}

const require = createRequire(import.meta.url);
const data = require('emoji-datasource/emoji.json') as EmojiEntry[];

const codeByName = new Map<string, string>();
const nameByCode = new Map<string, string>();
for (const e of data) {
  const code = e.unified.toLowerCase();
  nameByCode.set(code, e.short_name);
  for (const n of e.short_names) if (!codeByName.has(n)) codeByName.set(n, code);
}
// Zulip's names for a few common emoji differ from the data set's.
const ALIASES: Record<string, string> = { thumbs_up: '+1', thumbs_down: '-1', working_on_it: 'hammer_and_wrench', slight_smile: 'slightly_smiling_face' };
for (const [alias, name] of Object.entries(ALIASES)) {
  const code = codeByName.get(name);
  if (code && !codeByName.has(alias)) codeByName.set(alias, code);
  if (code) nameByCode.set(code, alias);
}

/** 'smile' -> '1f604'; multi-codepoint emoji join their code points with '-'. */
export function emojiCodeForName(name: string): string | undefined {
  return codeByName.get(name);
}

export function emojiNameForCode(code: string): string | undefined {
  return nameByCode.get(code.toLowerCase());
}

export function emojiSpan(name: string, code: string): string {
  return `<span aria-label="${name}" class="emoji emoji-${code}" role="img" title="${name}">:${name}:</span>`;
}
