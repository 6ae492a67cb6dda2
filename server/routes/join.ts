import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { DomainError } from '../domain/errors.js';
import {
  acceptInvitation,
  completeSignup,
  confirmationDetails,
  CONFIRMATION_SECONDS,
  invitationDetails,
  requestSignupConfirmation,
} from '../actions/invite-signup.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../domain/password.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(reply: FastifyReply, status: number, title: string, body: string) {
  reply.code(status).type('text/html; charset=utf-8');
  return reply.send(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escape(title)} · Parley</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem}` +
      `label{display:block;margin:.75rem 0}input{display:block;width:100%;padding:.4rem;font:inherit;box-sizing:border-box}` +
      `button{margin-top:1rem;padding:.5rem 1rem;font:inherit}.error{color:#b00020}</style></head>` +
      `<body><h1>${escape(title)}</h1>${body}</body></html>`,
  );
}

const GONE =
  '<p>This invitation link is invalid or has expired. Ask whoever invited you for a new one.</p>';
const CONFIRMATION_GONE =
  '<p>This confirmation link is invalid, has expired or has been used. Open the invitation link again to get a new one.</p>';

type Values = Record<string, string | undefined>;

const alert = (error: string) =>
  error ? `<p class="error" role="alert">${escape(error)}</p>` : '';

const accountFields = (values: Values) =>
  `<label>Full name <input name="full_name" required autocomplete="name" value="${escape(values.full_name ?? '')}"></label>` +
  `<label>Password <input name="password" type="password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" autocomplete="new-password"></label>` +
  `<button type="submit">Create account</button>`;

const welcome = (reply: FastifyReply, email: string, realmName: string) =>
  page(
    reply,
    200,
    `Welcome to ${realmName}`,
    `<p>Your account <b>${escape(email)}</b> is ready.</p><p><a href="/">Log in to Parley</a></p>`,
  );

/**
 * The pages invitation links open. An email invitation's link went to the invitee's mailbox, so
 * its form creates the account. A reusable link's form asks only for an address and mails it a
 * confirmation link, whose form creates the account: nobody signs up as an address they cannot
 * read mail at.
 */
export function joinPages(app: FastifyInstance, ctx: AppContext) {
  const invitationForm = async (
    key: string,
    reply: FastifyReply,
    error = '',
    values: Values = {},
  ) => {
    const details = await invitationDetails(ctx, key);
    if (!details) return page(reply, 404, 'Invitation not found', GONE);
    const fields = details.email
      ? `<p>You were invited as <b>${escape(details.email)}</b>.</p>${accountFields(values)}`
      : `<p>Enter your email address: we will send you a link to finish creating your account.</p>` +
        `<label>Email <input name="email" type="email" required autocomplete="email" value="${escape(values.email ?? '')}"></label>` +
        `<button type="submit">Continue</button>`;
    return page(
      reply,
      error ? 400 : 200,
      `Join ${details.realmName}`,
      `${alert(error)}<form method="post">${fields}</form>`,
    );
  };

  const confirmationForm = async (
    token: string,
    reply: FastifyReply,
    error = '',
    values: Values = {},
  ) => {
    const details = await confirmationDetails(ctx, token);
    if (!details) return page(reply, 404, 'Link not found', CONFIRMATION_GONE);
    return page(
      reply,
      error ? 400 : 200,
      `Join ${details.realmName}`,
      `${alert(error)}<p>Your address <b>${escape(details.email)}</b> is confirmed. Choose your name and password.</p>` +
        `<form method="post">${accountFields(values)}</form>`,
    );
  };

  const submitInvitation = async (key: string, body: Values, reply: FastifyReply) => {
    const details = await invitationDetails(ctx, key);
    if (!details) return page(reply, 404, 'Invitation not found', GONE);
    if (details.email) {
      const { email, realm_name } = await acceptInvitation(ctx, key, {
        full_name: body.full_name ?? '',
        password: body.password ?? '',
      });
      return welcome(reply, email, realm_name);
    }
    // The same page whether or not the address has an account: only its mailbox learns which.
    const { email, realmName } = await requestSignupConfirmation(ctx, key, body.email ?? '');
    return page(
      reply,
      200,
      'Check your email',
      `<p>We have sent a message to <b>${escape(email)}</b>. Follow the link in it to finish joining ${escape(realmName)}.</p>` +
        `<p>The link works for ${CONFIRMATION_SECONDS / 3600} hours.</p>`,
    );
  };

  const submitConfirmation = async (token: string, body: Values, reply: FastifyReply) => {
    const { email, realm_name } = await completeSignup(ctx, token, {
      full_name: body.full_name ?? '',
      password: body.password ?? '',
    });
    return welcome(reply, email, realm_name);
  };

  /** GET shows the form; POST submits it, and a refusal shows the form again with the reason. */
  const formPages = (
    urls: string[],
    show: (
      secret: string,
      reply: FastifyReply,
      error?: string,
      values?: Values,
    ) => Promise<unknown>,
    submit: (secret: string, body: Values, reply: FastifyReply) => Promise<unknown>,
  ) => {
    for (const url of urls) {
      app.get(url, async (request, reply) =>
        show((request.params as { secret: string }).secret, reply),
      );
      app.post(url, async (request, reply) => {
        const secret = (request.params as { secret: string }).secret;
        const body = (
          typeof request.body === 'object' && request.body ? request.body : {}
        ) as Values;
        const values = Object.fromEntries(
          Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : undefined]),
        );
        try {
          return await submit(secret, values, reply);
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          return show(secret, reply, err.message, values);
        }
      });
    }
  };

  formPages(['/join/:secret', '/join/:secret/'], invitationForm, submitInvitation);
  formPages(
    ['/accounts/do_confirm/:secret', '/accounts/do_confirm/:secret/'],
    confirmationForm,
    submitConfirmation,
  );
}
