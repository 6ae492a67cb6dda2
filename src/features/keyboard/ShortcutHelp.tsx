import { Fragment, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../components/icons';
import { useShortcutHelp } from './help-store';
import { keyName, SHORTCUT_GROUPS } from './shortcut-list';

/**
 * The keyboard shortcut reference. A modal <dialog>: the browser keeps focus inside it and makes
 * the rest of the page inert; Escape closes it, and focus returns where it was.
 */
export function ShortcutHelp() {
  const { t } = useTranslation('navigation');
  const open = useShortcutHelp((state) => state.open);
  const hide = useShortcutHelp((state) => state.hide);
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<Element | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      returnFocus.current = document.activeElement;
      element.showModal?.();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  const onClose = () => {
    hide();
    const target = returnFocus.current;
    returnFocus.current = null;
    if (target instanceof HTMLElement && target.isConnected) target.focus();
  };

  return (
    <dialog
      ref={dialog}
      className="shortcut-help"
      aria-label={t('shortcuts.title')}
      onClose={onClose}
      onKeyDown={(event) => {
        // "?" toggles the help, as in the reference app.
        if (event.key === '?') dialog.current?.close();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (event.target === dialog.current) dialog.current?.close();
      }}
    >
      {open && (
        <div className="shortcut-help-body">
          <header className="shortcut-help-header">
            <h2>{t('shortcuts.title')}</h2>
            <button
              type="button"
              className="icon-button"
              aria-label={t('shortcuts.close')}
              onClick={() => dialog.current?.close()}
            >
              <CloseIcon />
            </button>
          </header>
          <div className="shortcut-help-groups">
            {SHORTCUT_GROUPS.map((group) => (
              <section key={group.title} aria-labelledby={`shortcuts-${group.title}`}>
                <h3 id={`shortcuts-${group.title}`}>{t(`shortcuts.groups.${group.title}`)}</h3>
                <dl>
                  {group.shortcuts.map((shortcut) => (
                    <div key={shortcut.description} className="shortcut-row">
                      <dt>{t(`shortcuts.${shortcut.description}`)}</dt>
                      <dd>
                        {shortcut.keys.map((combo, index) => (
                          <Fragment key={combo.join('+')}>
                            {index > 0 && <span className="shortcut-or">{t('shortcuts.or')}</span>}
                            {combo.map((key, at) => (
                              <Fragment key={key}>
                                {at > 0 && ' + '}
                                <kbd>{keyName(key)}</kbd>
                              </Fragment>
                            ))}
                          </Fragment>
                        ))}
                      </dd>
                    </div>
                  ))}
                </dl>
              </section>
            ))}
          </div>
        </div>
      )}
    </dialog>
  );
}
