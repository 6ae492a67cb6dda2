import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../domain/password.js';
import { escapeHtml as escape, type Page } from './page.js';

/** What a person typed into a form, shown again with the reason it was refused. */
export type FormValues = Record<string, string | undefined>;

/** Whom an invitation is for (no email: a reusable link) and where it leads. */
export interface InvitationDetails {
  email: string | null;
  realmName: string;
}

const GONE =
  '<p>This invitation link is invalid or has expired. Ask whoever invited you for a new one.</p>';
const CONFIRMATION_GONE =
  '<p>This confirmation link is invalid, has expired or has been used. Open the invitation link again to get a new one.</p>';

const alert = (error: string) =>
  error ? `<p class="error" role="alert">${escape(error)}</p>` : '';

const accountFields = (values: FormValues) =>
  `<label>Full name <input name="full_name" required autocomplete="name" value="${escape(values.full_name ?? '')}"></label>` +
  `<label>Password <input name="password" type="password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" autocomplete="new-password"></label>` +
  `<button type="submit">Create account</button>`;

export const invitationNotFound = (): Page => ({
  status: 404,
  title: 'Invitation not found',
  body: GONE,
});

export const confirmationNotFound = (): Page => ({
  status: 404,
  title: 'Link not found',
  body: CONFIRMATION_GONE,
});

/**
 * An email invitation's form creates the account; a reusable link's asks only for an address,
 * to mail it a confirmation link.
 */
export function invitationForm(
  details: InvitationDetails,
  error = '',
  values: FormValues = {},
): Page {
  const fields = details.email
    ? `<p>You were invited as <b>${escape(details.email)}</b>.</p>${accountFields(values)}`
    : `<p>Enter your email address: we will send you a link to finish creating your account.</p>` +
      `<label>Email <input name="email" type="email" required autocomplete="email" value="${escape(values.email ?? '')}"></label>` +
      `<button type="submit">Continue</button>`;
  return {
    status: error ? 400 : 200,
    title: `Join ${details.realmName}`,
    body: `${alert(error)}<form method="post">${fields}</form>`,
  };
}

/** The form a confirmed address opens to choose a name and password. */
export function confirmationForm(
  details: { email: string; realmName: string },
  error = '',
  values: FormValues = {},
): Page {
  return {
    status: error ? 400 : 200,
    title: `Join ${details.realmName}`,
    body:
      `${alert(error)}<p>Your address <b>${escape(details.email)}</b> is confirmed. Choose your name and password.</p>` +
      `<form method="post">${accountFields(values)}</form>`,
  };
}

export const welcomePage = (email: string, realmName: string): Page => ({
  status: 200,
  title: `Welcome to ${realmName}`,
  body: `<p>Your account <b>${escape(email)}</b> is ready.</p><p><a href="/">Log in to Parley</a></p>`,
});

export const checkEmailPage = (email: string, realmName: string, linkHours: number): Page => ({
  status: 200,
  title: 'Check your email',
  body:
    `<p>We have sent a message to <b>${escape(email)}</b>. Follow the link in it to finish joining ${escape(realmName)}.</p>` +
    `<p>The link works for ${linkHours} hours.</p>`,
});
