/**
 * The user's `color_scheme` setting applied to the page: 1 follows the system, 2 is dark, 3 is
 * light (the values of the API). The stylesheet switches its tokens on `data-theme`.
 */
import { useEffect } from 'react';

export const COLOR_SCHEME = { AUTOMATIC: 1, DARK: 2, LIGHT: 3 } as const;

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function effectiveTheme(setting: number | undefined, systemDark: boolean): 'dark' | 'light' {
  if (setting === COLOR_SCHEME.DARK) return 'dark';
  if (setting === COLOR_SCHEME.LIGHT) return 'light';
  return systemDark ? 'dark' : 'light';
}

const systemPrefersDark = () => window.matchMedia?.(DARK_QUERY).matches ?? false;

/** Sets the page theme now (before any account is loaded, the system decides). */
export function applyColorScheme(setting?: number) {
  document.documentElement.dataset.theme = effectiveTheme(setting, systemPrefersDark());
}

/** Keeps the page theme in step with the setting and, on automatic, with the system. */
export function useColorScheme(setting: number | undefined) {
  useEffect(() => {
    applyColorScheme(setting);
    const query = window.matchMedia?.(DARK_QUERY);
    if (!query) return;
    const onChange = () => applyColorScheme(setting);
    query.addEventListener('change', onChange);
    return () => {
      query.removeEventListener('change', onChange);
      applyColorScheme();
    };
  }, [setting]);
}
