/**
 * Every language is complete: it has every string English has (and no stale ones), none empty,
 * each with the same placeholders and markup tags, so that no screen falls back to English or
 * loses a name or a link in translation.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '.';

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
        it(`${namespace}: the same keys, none empty, the same placeholders`, () => {
          const translated = byLanguage.get(language)?.get(namespace) ?? new Map();
          expect([...translated.keys()].sort()).toEqual([...strings.keys()].sort());
          for (const [key, value] of strings) {
            const other = translated.get(key);
            expect(typeof other, `${namespace}:${key}`).toBe('string');
            expect((other as string).trim(), `${namespace}:${key}`).not.toBe('');
            expect(tokens(other as string), `${namespace}:${key}`).toEqual(tokens(value as string));
          }
        });
      }
    });
  }
});
