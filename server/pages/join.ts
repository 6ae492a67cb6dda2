import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../domain/password.js';
import { escapeHtml as escape, type Page } from './page.js';
import type { Translate } from './strings.js';

/** What a person typed into a form, shown again with the reason it was refused. */
export type FormValues = Record<string, string | undefined>;

/** Whom an invitation is for (no email: a reusable link) and where it leads. */
export interface InvitationDetails {
  email: string | null;
  realmName: string;
}

/**
 * The reasons the sign-up actions give for refusing a form, by their (English) words, as the
 * catalog's keys: the API answers with the same words, so the actions keep them and the page
 * translates. A reason not listed here is shown as the action gave it.
 */
const REASONS: [RegExp, (t: Translate) => string][] = [
  [/^The password is too short/, (t) => t('errors.passwordShort', { count: PASSWORD_MIN_LENGTH })],
  [/^The password is too long/, (t) => t('errors.passwordLong', { count: PASSWORD_MAX_LENGTH })],
  [/^Invalid email /, (t) => t('errors.invalidEmail')],
  [/^Email '.*' already in use$/, (t) => t('errors.emailInUse')],
  [/^Name too short!$/, (t) => t('errors.nameEmpty')],
  [/^Name too long!$/, (t) => t('errors.nameLong')],
  [/^Invalid characters in name!$/, (t) => t('errors.nameInvalid')],
  [/^This invitation link is invalid or has expired\.$/, (t) => t('errors.invitationGone')],
  [/^This invitation needs your address confirmed first\.$/, (t) => t('errors.needsConfirmation')],
  [/^This confirmation link is invalid or has expired\.$/, (t) => t('errors.confirmationGone')],
  [/^This confirmation link has already been used\.$/, (t) => t('errors.confirmationUsed')],
];

/** A refusal's reason in the page's language, as HTML. */
export function reasonText(t: Translate, reason: string): string {
  const known = REASONS.find(([words]) => words.test(reason));
  return known ? known[1](t) : escape(reason);
}

const alert = (t: Translate, error: string) =>
  error ? `<p class="signup-error" role="alert">${reasonText(t, error)}</p>` : '';

const text = (html: string) => `<p class="signup-text">${html}</p>`;

const button = (label: string) => `<button type="submit" class="signup-button">${label}</button>`;

const accountFields = (t: Translate, values: FormValues) =>
  `<label for="full_name">${t('fields.fullName')}</label>` +
  `<input id="full_name" name="full_name" required autocomplete="name" autofocus value="${escape(values.full_name ?? '')}">` +
  `<label for="password">${t('fields.password')}</label>` +
  `<input id="password" name="password" type="password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" autocomplete="new-password" aria-describedby="password-hint">` +
  `<p class="signup-hint" id="password-hint">${t('fields.passwordHint', { count: PASSWORD_MIN_LENGTH })}</p>` +
  button(t('fields.createAccount'));

// A link that no longer works has often done its work already: its account may exist.
const logInLink = (t: Translate) =>
  `<p class="signup-footer"><a href="/">${t('welcome.logIn')}</a></p>`;

export const invitationNotFound = (t: Translate): Page => ({
  status: 404,
  title: t('invitationGone.title'),
  body: text(t('invitationGone.body')) + logInLink(t),
});

export const confirmationNotFound = (t: Translate): Page => ({
  status: 404,
  title: t('confirmationGone.title'),
  body: text(t('confirmationGone.body')) + logInLink(t),
});

/**
 * An email invitation's form creates the account; a reusable link's asks only for an address,
 * to mail it a confirmation link.
 */
export function invitationForm(
  t: Translate,
  details: InvitationDetails,
  error = '',
  values: FormValues = {},
): Page {
  const [intro, fields] = details.email
    ? [t('join.invitedAs', { email: details.email }), accountFields(t, values)]
    : [
        t('join.enterEmail'),
        `<label for="email">${t('fields.email')}</label>` +
          `<input id="email" name="email" type="email" required autocomplete="email" autofocus value="${escape(values.email ?? '')}">` +
          button(t('join.continue')),
      ];
  return {
    status: error ? 400 : 200,
    title: t('join.title', { realm: details.realmName }),
    namesRealm: true,
    body: `${text(intro)}${alert(t, error)}<form method="post">${fields}</form>`,
  };
}

/** The form a confirmed address opens to choose a name and password. */
export function confirmationForm(
  t: Translate,
  details: { email: string; realmName: string },
  error = '',
  values: FormValues = {},
): Page {
  return {
    status: error ? 400 : 200,
    title: t('join.title', { realm: details.realmName }),
    namesRealm: true,
    body:
      text(t('confirmed', { email: details.email })) +
      `${alert(t, error)}<form method="post">${accountFields(t, values)}</form>`,
  };
}

export const welcomePage = (t: Translate, email: string, realmName: string): Page => ({
  status: 200,
  title: t('welcome.title', { realm: realmName }),
  namesRealm: true,
  body:
    text(t('welcome.ready', { email })) +
    `<a class="signup-button" href="/">${t('welcome.logIn')}</a>`,
});

export const checkEmailPage = (
  t: Translate,
  email: string,
  realmName: string,
  linkHours: number,
): Page => ({
  status: 200,
  title: t('checkEmail.title'),
  body:
    text(t('checkEmail.sent', { email, realm: realmName })) +
    text(t('checkEmail.expires', { count: linkHours })),
});
