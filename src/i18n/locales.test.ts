/**
 * Every language is complete: it has every string English has (and no stale ones), none empty,
 * each with the same placeholders and markup tags, so that no screen falls back to English or
 * loses a name or a link in translation.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES, NAMESPACES } from '.';

const files = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', {
  eager: true,
  import: 'default',
});

function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()) {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value))
      flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

/** `{{name}}` placeholders, `$t(...)` nestings and `<tag>` markup: what must survive translation. */
function tokens(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}|\$t\([^)]*\)|<\/?(\w+)\s*\/?>/g)]
    .map((m) => m[0].replace(/\s+/g, ''))
    .sort();
}

const byLanguage = new Map<string, Map<string, Map<string, unknown>>>();
for (const [path, strings] of Object.entries(files)) {
  const [, language, namespace] = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path)!;
  if (!byLanguage.has(language)) byLanguage.set(language, new Map());
  byLanguage.get(language)!.set(namespace, flatten(strings));
}
const english = byLanguage.get('en')!;

describe('translations', () => {
  it('has a folder for exactly the languages offered', () => {
    expect([...byLanguage.keys()].sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
  });

  it('English has strings in every namespace, all non-empty text', () => {
    expect(english.size).toBeGreaterThan(0);
    for (const [namespace, strings] of english) {
      for (const [key, value] of strings) {
        expect(typeof value, `${namespace}:${key}`).toBe('string');
        expect((value as string).trim(), `${namespace}:${key}`).not.toBe('');
      }
    }
  });

  for (const language of LANGUAGES.map((l) => l.code).filter((code) => code !== 'en')) {
    describe(language, () => {
      it('has every namespace of English and no other', () => {
        expect([...(byLanguage.get(language)?.keys() ?? [])].sort()).toEqual(
          [...english.keys()].sort(),
        );
      });

      for (const [namespace, strings] of english) {
        it(`${namespace}: the same keys (plurals in its own forms), none empty, the same placeholders`, () => {
          const translated = byLanguage.get(language)?.get(namespace) ?? new Map();
          const expected = expectedKeys(strings, language);
          expect([...translated.keys()].sort()).toEqual([...expected.keys()].sort());
          for (const [key, source] of expected) {
            const other = translated.get(key);
            expect(typeof other, `${namespace}:${key}`).toBe('string');
            expect((other as string).trim(), `${namespace}:${key}`).not.toBe('');
            const { text, plural } = source;
            // A plural form may leave the number out ("un membre"), as English's "_one" may.
            const strip = (list: string[]) =>
              plural ? list.filter((t) => !t.startsWith('{{count')) : list;
            expect(strip(tokens(other as string)), `${namespace}:${key}`).toEqual(
              strip(tokens(text)),
            );
          }
        });
      }
    });
  }

  it("leaves the server's sign-up pages' and mails' strings out of the client's namespaces", () => {
    expect(english.has('signup')).toBe(true);
    expect(english.has('mail')).toBe(true);
    expect(NAMESPACES).not.toContain('signup');
    expect(NAMESPACES).not.toContain('mail');
    expect(NAMESPACES.length).toBe(english.size - 2);
  });

  it("gives each language its own plural forms: Russian's four, Japanese's one", () => {
    const ru = byLanguage.get('ru')!.get('groups')!;
    expect(
      ['one', 'few', 'many', 'other'].map((form) => ru.has(`list.memberCount_${form}`)),
    ).toEqual([true, true, true, true]);
    const ja = byLanguage.get('ja')!.get('groups')!;
    expect(ja.has('list.memberCount_other')).toBe(true);
    expect(ja.has('list.memberCount_one')).toBe(false);
  });
});

/**
 * The keys a language must have for English's: a plural (English has `x_one` and `x_other`) in
 * the forms the language's plural rules name (Intl.PluralRules, as i18next picks them), each to
 * carry the placeholders of English's `x_other`; every other key as it is.
 */
function expectedKeys(strings: Map<string, unknown>, language: string) {
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const out = new Map<string, { text: string; plural: boolean }>();
  for (const [key, value] of strings) {
    const plural = /^(.*)_(one|other)$/.exec(key);
    const base = plural?.[1];
    if (base !== undefined && strings.has(`${base}_one`) && strings.has(`${base}_other`)) {
      const text = strings.get(`${base}_other`) as string;
      for (const form of forms) out.set(`${base}_${form}`, { text, plural: true });
    } else {
      out.set(key, { text: value as string, plural: false });
    }
  }
  return out;
}
