import type { Page } from './page.js';
import type { Translate } from './strings.js';

const backLink = (t: Translate) =>
  `<p class="signup-footer"><a href="/">${t('emailChange.back')}</a></p>`;

/**
 * What the link that confirms a new email address opens: the address now in use, or why the
 * link did nothing (`confirmEmailChange`'s answer: the address, null, or 'deactivated').
 */
export function emailChangePage(t: Translate, email: string | null): Page {
  if (email === 'deactivated')
    return {
      status: 401,
      title: t('emailChange.deactivatedTitle'),
      body: `<p class="signup-text">${t('emailChange.deactivated')}</p>${backLink(t)}`,
    };
  if (!email)
    return {
      status: 404,
      title: t('emailChange.goneTitle'),
      body: `<p class="signup-text">${t('emailChange.gone')}</p>${backLink(t)}`,
    };
  return {
    status: 200,
    title: t('emailChange.doneTitle'),
    body:
      `<p class="signup-text">${t('emailChange.done', { email })}</p>` +
      `<a class="signup-button" href="/">${t('emailChange.back')}</a>`,
  };
}
