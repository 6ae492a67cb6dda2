import { useTranslation } from 'react-i18next';
import { useShortcutHelp } from './help-store';

/** The top bar's way into the keyboard shortcut help, for those who do not know "?" yet. */
export function ShortcutsButton() {
  const { t } = useTranslation('navigation');
  const show = useShortcutHelp((state) => state.show);
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={t('shortcuts.title')}
      title={t('shortcuts.buttonTitle')}
      onClick={show}
    >
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <rect x="2.5" y="6" width="19" height="12" rx="2" />
        <path d="M6 10h.01M9.5 10h.01M13 10h.01M16.5 10h.01M8 14h8" />
      </svg>
    </button>
  );
}
