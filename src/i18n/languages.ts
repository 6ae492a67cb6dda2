/**
 * The languages the interface is translated into, and how a language code reaches one. Plain
 * data and functions with no imports: the server reads them too, to choose the language of the
 * pages it renders itself (server/pages/strings.ts).
 */

/**
 * The languages the interface is complete in, by i18next code, with each one's own name for
 * itself: English, German, and the six most used in the reference's community.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'es', name: 'Español' },
  { code: 'fr', name: 'Français' },
  { code: 'pt-BR', name: 'Português (Brasil)' },
  { code: 'ru', name: 'Русский' },
  { code: 'ja', name: '日本語' },
  { code: 'zh-Hans', name: '简体中文' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

/** Spellings of the same translated language: the server's, browsers', and close variants. */
const ALIASES: Record<string, LanguageCode> = {
  'en-gb': 'en',
  pt: 'pt-BR',
  'pt-pt': 'pt-BR',
  zh: 'zh-Hans',
  'zh-cn': 'zh-Hans',
  'zh-sg': 'zh-Hans',
};

/**
 * The translation a language code is shown in: `pt_BR`, `pt-br` and `pt` all mean Brazilian
 * Portuguese, `de-AT` German, `zh-hans` and `zh-CN` Simplified Chinese; null for a language the
 * interface is not translated into (Traditional Chinese, Italian, …).
 */
export function translationFor(code: string | undefined | null): LanguageCode | null {
  const tag = (code ?? '').toLowerCase().replace(/_/g, '-');
  if (!tag) return null;
  const exact = LANGUAGES.find((l) => l.code.toLowerCase() === tag);
  if (exact) return exact.code;
  if (ALIASES[tag]) return ALIASES[tag]!;
  if (tag.startsWith('zh-')) return null; // Traditional Chinese is its own language here
  const base = tag.split('-')[0]!;
  return LANGUAGES.find((l) => l.code === base)?.code ?? ALIASES[base] ?? null;
}

/** `de-AT` and `de` both mean German here; anything without translations means English. */
export function supportedLanguage(code: string | undefined | null): LanguageCode {
  return translationFor(code) ?? 'en';
}
