import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { acceptInvitation, invitationDetails, MIN_PASSWORD_LENGTH } from '../actions/invite-signup.js';

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

const GONE = '<p>This invitation link is invalid or has expired. Ask whoever invited you for a new one.</p>';

/** The page an invitation link opens: a sign-up form that creates the invited account. */
export function joinPages(app: FastifyInstance, ctx: AppContext) {
  const form = async (key: string, reply: FastifyReply, error = '', values: Record<string, string> = {}) => {
    const details = await invitationDetails(ctx, key);
    if (!details) return page(reply, 404, 'Invitation not found', GONE);
    const email = details.email
      ? `<p>You were invited as <b>${escape(details.email)}</b>.</p>`
      : `<label>Email <input name="email" type="email" required autocomplete="email" value="${escape(values.email ?? '')}"></label>`;
    return page(
      reply,
      error ? 400 : 200,
      `Join ${details.realmName}`,
      (error ? `<p class="error" role="alert">${escape(error)}</p>` : '') +
        `<form method="post">${email}` +
        `<label>Full name <input name="full_name" required autocomplete="name" value="${escape(values.full_name ?? '')}"></label>` +
        `<label>Password <input name="password" type="password" required minlength="${MIN_PASSWORD_LENGTH}" autocomplete="new-password"></label>` +
        `<button type="submit">Create account</button></form>`,
    );
  };

  for (const url of ['/join/:key', '/join/:key/']) {
    app.get(url, async (request, reply) => form((request.params as { key: string }).key, reply));
    app.post(url, async (request, reply) => {
      const key = (request.params as { key: string }).key;
      const body = (request.body ?? {}) as Record<string, string>;
      try {
        const { email, realm_name } = await acceptInvitation(ctx, key, {
          email: body.email, full_name: body.full_name ?? '', password: body.password ?? '',
        });
        return page(reply, 200, `Welcome to ${realm_name}`,
          `<p>Your account <b>${escape(email)}</b> is ready.</p><p><a href="/">Log in to Parley</a></p>`);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return form(key, reply, err.message, body);
      }
    });
  }
}
