import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import type { RoutesOptions } from '../http/route.js';
import { DomainError } from '../domain/errors.js';
import {
  acceptInvitation,
  completeSignup,
  confirmationDetails,
  CONFIRMATION_SECONDS,
  invitationDetails,
  requestSignupConfirmation,
} from '../actions/invite-signup.js';
import { confirmEmailChange } from '../actions/settings.js';
import { pageHtml, type Page } from '../pages/page.js';
import {
  checkEmailPage,
  confirmationForm,
  confirmationNotFound,
  invitationForm,
  invitationNotFound,
  welcomePage,
  type FormValues,
} from '../pages/join.js';
import { emailChangePage } from '../pages/email-change.js';

function sendPage(reply: FastifyReply, page: Page) {
  reply.code(page.status).type('text/html; charset=utf-8');
  return reply.send(pageHtml(page));
}

/** A form page shown for a link's secret: again with the reason and the values, after a refusal. */
type ShowForm = (secret: string, error?: string, values?: FormValues) => Promise<Page>;
/** A form's submission: the page that follows it. */
type SubmitForm = (secret: string, values: FormValues) => Promise<Page>;

/** The text fields of a submitted form; anything else in the body is dropped. */
function formValues(body: unknown): FormValues {
  const fields = (typeof body === 'object' && body ? body : {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : undefined]),
  );
}

/** GET shows the form; POST submits it, and a refusal shows the form again with the reason. */
function formPages(app: FastifyInstance, urls: string[], show: ShowForm, submit: SubmitForm) {
  for (const url of urls) {
    app.get(url, async (request, reply) =>
      sendPage(reply, await show((request.params as { secret: string }).secret)),
    );
    app.post(url, async (request, reply) => {
      const secret = (request.params as { secret: string }).secret;
      const values = formValues(request.body);
      try {
        return sendPage(reply, await submit(secret, values));
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        return sendPage(reply, await show(secret, err.message, values));
      }
    });
  }
}

/**
 * The pages invitation links open. An email invitation's link went to the invitee's mailbox, so
 * its form creates the account. A reusable link's form asks only for an address and mails it a
 * confirmation link, whose form creates the account: nobody signs up as an address they cannot
 * read mail at.
 */
function joinPages(app: FastifyInstance, ctx: AppContext) {
  const showInvitation: ShowForm = async (key, error, values) => {
    const details = await invitationDetails(ctx, key);
    return details ? invitationForm(details, error, values) : invitationNotFound();
  };
  const submitInvitation: SubmitForm = async (key, body) => {
    const details = await invitationDetails(ctx, key);
    if (!details) return invitationNotFound();
    if (details.email) {
      const { email, realm_name } = await acceptInvitation(ctx, key, {
        full_name: body.full_name ?? '',
        password: body.password ?? '',
      });
      return welcomePage(email, realm_name);
    }
    // The same page whether or not the address has an account: only its mailbox learns which.
    const { email, realmName } = await requestSignupConfirmation(ctx, key, body.email ?? '');
    return checkEmailPage(email, realmName, CONFIRMATION_SECONDS / 3600);
  };
  const showConfirmation: ShowForm = async (token, error, values) => {
    const details = await confirmationDetails(ctx, token);
    return details ? confirmationForm(details, error, values) : confirmationNotFound();
  };
  const submitConfirmation: SubmitForm = async (token, body) => {
    const { email, realm_name } = await completeSignup(ctx, token, {
      full_name: body.full_name ?? '',
      password: body.password ?? '',
    });
    return welcomePage(email, realm_name);
  };

  formPages(app, ['/join/:secret', '/join/:secret/'], showInvitation, submitInvitation);
  formPages(
    app,
    ['/accounts/do_confirm/:secret', '/accounts/do_confirm/:secret/'],
    showConfirmation,
    submitConfirmation,
  );
}

/**
 * Pages the server renders itself for links people get by email: joining by invitation, and
 * confirming a new email address.
 */
export async function accountPages(app: FastifyInstance, { ctx }: RoutesOptions) {
  joinPages(app, ctx);
  app.get('/accounts/confirm_new_email/:token', async (request, reply) => {
    const email = await confirmEmailChange(ctx, (request.params as { token: string }).token);
    const page = emailChangePage(email);
    return reply.code(page.status).type('text/html; charset=utf-8').send(page.html);
  });
}
