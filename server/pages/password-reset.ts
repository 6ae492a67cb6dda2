import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../domain/password.js';
import { reasonText } from './join.js';
import { escapeHtml as escape, type Page } from './page.js';
import type { Translate } from './strings.js';

/** The address of the form that asks for a reset link; the link's page is under it. */
export const PASSWORD_RESET_PATH = '/accounts/password/reset/';

const text = (html: string) => `<p class="signup-text">${html}</p>`;
const button = (label: string) => `<button type="submit" class="signup-button">${label}</button>`;
const alert = (t: Translate, error: string) =>
  error ? `<p class="signup-error" role="alert">${reasonText(t, error)}</p>` : '';
const logInLink = (t: Translate) =>
  `<p class="signup-footer"><a href="/">${t('welcome.logIn')}</a></p>`;

/** The form that asks for an address. */
export const passwordResetForm = (t: Translate): Page => ({
  status: 200,
  title: t('passwordReset.title'),
  body:
    text(t('passwordReset.intro')) +
    `<form method="post" action="${PASSWORD_RESET_PATH}">` +
    `<label for="email">${t('fields.email')}</label>` +
    `<input id="email" name="email" type="email" required autocomplete="email" autofocus>` +
    button(t('passwordReset.send')) +
    `</form>` +
    logInLink(t),
});

/** The one answer to the form, whether or not the address has an account. */
export const passwordResetSent = (t: Translate, email: string): Page => ({
  status: 200,
  title: t('passwordReset.sentTitle'),
  body: text(t('passwordReset.sent', { email })) + logInLink(t),
});

export const passwordResetTooMany = (t: Translate): Page => ({
  status: 429,
  title: t('passwordReset.tooManyTitle'),
  body: text(t('passwordReset.tooMany')) + logInLink(t),
});

/** The link's form: the new password, with the sign-up's rules. */
export const newPasswordForm = (t: Translate, email: string, error = ''): Page => ({
  status: error ? 400 : 200,
  title: t('passwordReset.newTitle'),
  body:
    text(t('passwordReset.newIntro', { email })) +
    alert(t, error) +
    `<form method="post">` +
    // For password managers: the account whose password this is.
    `<input type="hidden" name="username" autocomplete="username" value="${escape(email)}">` +
    `<label for="password">${t('passwordReset.newPassword')}</label>` +
    `<input id="password" name="password" type="password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" autocomplete="new-password" autofocus aria-describedby="password-hint">` +
    `<p class="signup-hint" id="password-hint">${t('fields.passwordHint', { count: PASSWORD_MIN_LENGTH })}</p>` +
    button(t('passwordReset.save')) +
    `</form>`,
});

export const passwordResetDone = (t: Translate): Page => ({
  status: 200,
  title: t('passwordReset.doneTitle'),
  body:
    text(t('passwordReset.done')) + `<a class="signup-button" href="/">${t('welcome.logIn')}</a>`,
});

/** A link used already, expired, or never given out. */
export const passwordResetGone = (t: Translate): Page => ({
  status: 404,
  title: t('passwordReset.goneTitle'),
  body:
    text(t('passwordReset.gone')) +
    `<p class="signup-footer"><a href="${PASSWORD_RESET_PATH}">${t('passwordReset.again')}</a></p>`,
});
