/**
 * The interface's language. Every string a person reads goes through i18next: English is bundled
 * (it is also the fallback for a key another language lacks), other languages are fetched as
 * separate chunks the first time they are chosen. Each feature keeps its strings in its own
 * namespace file, `locales/<language>/<namespace>.json`, so features grow without touching one
 * shared file; `locales.test.ts` checks that every language has every key of English.
 */
import i18next, { type i18n as I18n } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { setFailureWords } from '../api/errors';

type Strings = Record<string, unknown>;

const englishFiles = import.meta.glob<Strings>('./locales/en/*.json', {
  eager: true,
  import: 'default',
});
const otherFiles = import.meta.glob<Strings>(['./locales/*/*.json', '!./locales/en/*.json'], {
  import: 'default',
});

function namespaceOf(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1, -'.json'.length);
}

export const NAMESPACES = Object.keys(englishFiles).map(namespaceOf);

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

/** The codes the reference server accepts as `default_language` (its spelling: `pt_BR`, `zh-hans`). */
export const REFERENCE_LANGUAGE_CODES = [
  'ar', 'be', 'bg', 'bn', 'ca', 'cs', 'cy', 'da', 'de', 'el', 'en', 'en_GB', 'eo', 'es', 'fa',
  'fi', 'fr', 'gl', 'gu', 'hi', 'hu', 'id', 'it', 'ja', 'ko', 'lt', 'lv', 'ml', 'mn', 'nl', 'no',
  'pl', 'pt', 'pt_BR', 'pt_PT', 'ro', 'ru', 'si', 'sk', 'sr', 'sv', 'ta', 'te', 'tl', 'tr', 'uk',
  'uz', 'vi', 'zh-hans', 'zh-hant',
] as const; // prettier-ignore

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

/** A language's own name for itself ("Français", "Italiano"), from the browser's Intl data. */
export function languageSelfName(code: string): string {
  const tag = code.replace(/_/g, '-');
  const known = LANGUAGES.find((l) => l.code.toLowerCase() === tag.toLowerCase());
  if (known) return known.name;
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? code;
    return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return code;
  }
}

/**
 * The choices of `default_language`: every language the reference offers, each by its own name,
 * sorted by those names; the ones not translated are shown in English, as the setting says.
 */
export function languageChoices(): (readonly [string, string])[] {
  return REFERENCE_LANGUAGE_CODES.map((code) => [code, languageSelfName(code)] as const).sort(
    (a, b) => a[1].localeCompare(b[1]),
  );
}

/** `de-AT` and `de` both mean German here; anything without translations means English. */
export function supportedLanguage(code: string | undefined | null): LanguageCode {
  return translationFor(code) ?? 'en';
}

export const i18n: I18n = i18next.createInstance();

void i18n
  .use(initReactI18next)
  .use(
    resourcesToBackend((language: string, namespace: string) => {
      const load = otherFiles[`./locales/${language}/${namespace}.json`];
      return load ? load() : Promise.resolve({});
    }),
  )
  .init({
    lng: supportedLanguage(typeof navigator === 'undefined' ? 'en' : navigator.language),
    fallbackLng: 'en',
    supportedLngs: LANGUAGES.map((l) => l.code),
    load: 'currentOnly', // pt-BR alone, not also pt
    ns: NAMESPACES,
    defaultNS: 'common',
    partialBundledLanguages: true,
    resources: {
      en: Object.fromEntries(
        Object.entries(englishFiles).map(([file, strings]) => [namespaceOf(file), strings]),
      ),
    },
    interpolation: { escapeValue: false }, // React escapes; no string is ever used as HTML
    returnNull: false,
    react: { useSuspense: false },
    initAsync: false, // English is bundled: the first render already has its strings
  });

// Failed requests are described in the interface language, at the moment they are shown.
setFailureWords({
  network: (detail) => i18n.t('components:errors.network', { detail }),
  server: (status) => i18n.t('components:errors.server', { status }),
  malformed: (status) => i18n.t('components:errors.malformed', { status }),
  fallback: () => i18n.t('components:errors.fallback'),
});

/** Switches the interface (and `<html lang>`) to a language, loading its strings first. */
export async function switchLanguage(code: string | undefined | null): Promise<void> {
  const language = supportedLanguage(code);
  document.documentElement.lang = language;
  if (i18n.language !== language) await i18n.changeLanguage(language);
}

/** The current interface language, for Intl formatters. */
export function currentLocale(): string {
  return i18n.language || 'en';
}
