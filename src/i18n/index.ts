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

/** The languages the interface is complete in, by code, with each one's own name for itself. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

/** `de-AT` and `de` both mean German here; anything without translations means English. */
export function supportedLanguage(code: string | undefined | null): LanguageCode {
  const base = (code ?? '').toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.find((l) => l.code === base)?.code ?? 'en';
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
