import i18next from 'i18next';
import {
  LANGUAGES,
  supportedLanguage,
  translationFor,
  type LanguageCode,
} from '../../src/i18n/languages.js';
import de from '../../src/i18n/locales/de/signup.json' with { type: 'json' };
import en from '../../src/i18n/locales/en/signup.json' with { type: 'json' };
import es from '../../src/i18n/locales/es/signup.json' with { type: 'json' };
import fr from '../../src/i18n/locales/fr/signup.json' with { type: 'json' };
import ja from '../../src/i18n/locales/ja/signup.json' with { type: 'json' };
import ptBR from '../../src/i18n/locales/pt-BR/signup.json' with { type: 'json' };
import ru from '../../src/i18n/locales/ru/signup.json' with { type: 'json' };
import zhHans from '../../src/i18n/locales/zh-Hans/signup.json' with { type: 'json' };
import deMail from '../../src/i18n/locales/de/mail.json' with { type: 'json' };
import enMail from '../../src/i18n/locales/en/mail.json' with { type: 'json' };
import esMail from '../../src/i18n/locales/es/mail.json' with { type: 'json' };
import frMail from '../../src/i18n/locales/fr/mail.json' with { type: 'json' };
import jaMail from '../../src/i18n/locales/ja/mail.json' with { type: 'json' };
import ptBRMail from '../../src/i18n/locales/pt-BR/mail.json' with { type: 'json' };
import ruMail from '../../src/i18n/locales/ru/mail.json' with { type: 'json' };
import zhHansMail from '../../src/i18n/locales/zh-Hans/mail.json' with { type: 'json' };
import { escapeHtml } from '../markdown/links.js';

/**
 * The words of the pages the server renders itself (sign-up, email confirmation, password reset)
 * and of the mails it sends, in the client's languages: the `signup` and `mail` namespaces of its
 * catalogs, which the client leaves out of its own bundle. The catalogs are imported, not read from disk, so the built server carries them.
 */
const CATALOGS: Record<LanguageCode, Record<string, unknown>> = {
  en,
  de,
  es,
  fr,
  'pt-BR': ptBR,
  ru,
  ja,
  'zh-Hans': zhHans,
};

const MAIL_CATALOGS: Record<LanguageCode, Record<string, unknown>> = {
  en: enMail,
  de: deMail,
  es: esMail,
  fr: frMail,
  'pt-BR': ptBRMail,
  ru: ruMail,
  ja: jaMail,
  'zh-Hans': zhHansMail,
};

const strings = i18next.createInstance();
void strings.init({
  resources: Object.fromEntries(
    Object.entries(CATALOGS).map(([language, signup]) => [
      language,
      { signup, mail: MAIL_CATALOGS[language as LanguageCode] },
    ]),
  ),
  supportedLngs: LANGUAGES.map((l) => l.code),
  load: 'currentOnly',
  fallbackLng: 'en',
  ns: ['signup', 'mail'],
  defaultNS: 'signup',
  // Every string is HTML: a value put into one (a name, an address) is escaped as the rest of the
  // server's HTML is; the catalogs' own markup (<b>) stays.
  interpolation: { escapeValue: true, escape: escapeHtml },
  returnNull: false,
  initAsync: false,
});

/** A string of the catalog by key, as HTML, with its values escaped. */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

export function translator(language: LanguageCode): Translate {
  const t = strings.getFixedT(language, 'signup');
  return (key, values) => t(key, values ?? {});
}

/**
 * The strings of the mails, by key: `html` escapes the values put in (as the pages' strings do),
 * `text` leaves them as they are, for the plain-text part and the subject.
 */
export interface MailTranslate {
  html: Translate;
  text: Translate;
}

export function mailTranslator(language: LanguageCode): MailTranslate {
  const t = strings.getFixedT(language, 'mail');
  return {
    html: (key, values) => t(key, values ?? {}),
    text: (key, values) => t(key, { ...values, interpolation: { escapeValue: false } }),
  };
}

/** The language tags an Accept-Language header names, most wanted first (none with q=0). */
function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1 };
    })
    .filter(({ tag, q }) => tag && tag !== '*' && q > 0)
    .sort((a, b) => b.q - a.q)
    .map(({ tag }) => tag);
}

/**
 * The language of a page: the first of the browser's languages the pages are translated into,
 * else the organization's `default_language` (English when that has no translation). Someone
 * who reads German follows a link to an English-speaking organization in German.
 */
export function pageLanguage(
  acceptLanguage: string | undefined,
  defaultLanguage: string | undefined,
): LanguageCode {
  for (const tag of acceptedLanguages(acceptLanguage)) {
    const language = translationFor(tag);
    if (language) return language;
  }
  return supportedLanguage(defaultLanguage);
}
