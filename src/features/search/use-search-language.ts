/**
 * Loads the search language (search-language.ts) once, as its own chunk: when the search box is
 * focused or shows a narrow, or ahead of that once the person first uses the page.
 */
import { useEffect, useState } from 'react';
import type * as SearchLanguageModule from './search-language';

export type SearchLanguage = typeof SearchLanguageModule;

let loaded: SearchLanguage | null = null;
let loading: Promise<SearchLanguage> | null = null;

export function loadSearchLanguage(): Promise<SearchLanguage> {
  loading ??= import('./search-language').then(
    (language) => (loaded = language),
    (error: unknown) => {
      // Offline, say: the next use tries again.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The language once loaded, and null until then; `wanted` starts the loading. */
export function useSearchLanguage(wanted: boolean): SearchLanguage | null {
  const [language, setLanguage] = useState(loaded);
  useEffect(() => {
    if (!wanted || language) return;
    let live = true;
    loadSearchLanguage().then(
      (loadedLanguage) => {
        if (live) setLanguage(loadedLanguage);
      },
      () => {
        // the box works as plain text until a later use loads it
      },
    );
    return () => {
      live = false;
    };
  }, [wanted, language]);
  return language ?? loaded;
}
