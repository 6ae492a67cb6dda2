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
import { LANGUAGES, supportedLanguage } from './languages';

export { LANGUAGES, supportedLanguage, translationFor, type LanguageCode } from './languages';

type Strings = Record<string, unknown>;

// signup.json holds the strings of the server's own sign-up pages and mail.json those of its mails
// (server/pages/strings.ts): no screen of the client shows them, so the client neither bundles nor
// fetches them.
const englishFiles = import.meta.glob<Strings>(
  ['./locales/en/*.json', '!./locales/en/signup.json', '!./locales/en/mail.json'],
  { eager: true, import: 'default' },
);
const otherFiles = import.meta.glob<Strings>(
  [
    './locales/*/*.json',
    '!./locales/en/*.json',
    '!./locales/*/signup.json',
    '!./locales/*/mail.json',
  ],
  { import: 'default' },
);

function namespaceOf(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1, -'.json'.length);
}

export const NAMESPACES = Object.keys(englishFiles).map(namespaceOf);

/** The codes the reference server accepts as `default_language` (its spelling: `pt_BR`, `zh-hans`). */
export const REFERENCE_LANGUAGE_CODES = [
  'ar', 'be', 'bg', 'bn', 'ca', 'cs', 'cy', 'da', 'de', 'el', 'en', 'en_GB', 'eo', 'es', 'fa',
  'fi', 'fr', 'gl', 'gu', 'hi', 'hu', 'id', 'it', 'ja', 'ko', 'lt', 'lv', 'ml', 'mn', 'nl', 'no',
  'pl', 'pt', 'pt_BR', 'pt_PT', 'ro', 'ru', 'si', 'sk', 'sr', 'sv', 'ta', 'te', 'tl', 'tr', 'uk',
  'uz', 'vi', 'zh-hans', 'zh-hant',
] as const; // prettier-ignore

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

let switching: Promise<void> = Promise.resolve();

/**
 * Switches the interface (and `<html lang>`) to a language, loading its strings first. Switches
 * happen one after another, so that the last asked for wins: a language still loading (the one
 * of the state kept from the last visit, say) never lands after the one asked for since.
 */
export function switchLanguage(code: string | undefined | null): Promise<void> {
  const language = supportedLanguage(code);
  const done = switching.then(async () => {
    document.documentElement.lang = language;
    if (i18n.language !== language) await i18n.changeLanguage(language);
  });
  switching = done.catch(() => {});
  return done;
}

/** The current interface language, for Intl formatters. */
export function currentLocale(): string {
  return i18n.language || 'en';
}
