import { useSyncExternalStore } from 'react';
import type { Namespace, TFunction } from 'i18next';
import { i18n } from './index';

/**
 * The interface's words of one namespace, for components drawn many times at once (each row of a
 * conversation and its parts). react-i18next's `useTranslation` copies the i18next instance for
 * every component that calls it, which took a twentieth of a conversation's first render; here
 * every caller shares one function per language, and is drawn again when the language changes.
 */
const fixed = new Map<string, TFunction>();

function subscribe(onChange: () => void) {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

const language = () => i18n.language;

export function useFixedT<N extends Namespace>(namespace: N): TFunction<N> {
  const lang = useSyncExternalStore(subscribe, language);
  const key = `${lang}|${String(namespace)}`;
  let t = fixed.get(key);
  if (!t) fixed.set(key, (t = i18n.getFixedT(lang, namespace) as TFunction));
  return t as TFunction<N>;
}
