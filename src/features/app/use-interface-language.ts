import { useEffect } from 'react';
import { switchLanguage } from '../../i18n';

/**
 * Keeps the interface in the account's language (`default_language`), including when another
 * device changes it (a user_settings event updates the store, and so this).
 */
export function useInterfaceLanguage(language: string | undefined): void {
  useEffect(() => {
    if (language) void switchLanguage(language);
  }, [language]);
}
