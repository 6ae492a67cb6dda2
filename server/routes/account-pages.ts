import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import {
  completePasswordReset,
  passwordResetDetails,
  requestPasswordReset,
} from '../actions/password-reset.js';
import { realmForRequest } from '../http/auth.js';
import { checkRateLimit } from '../http/rate-limit.js';
import { realmSettings } from '../lib/realm.js';
import { pageHtml, type Page, type PageFrame } from '../pages/page.js';
import { pageLanguage, translator } from '../pages/strings.js';
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
import {
  newPasswordForm,
  passwordResetDone,
  passwordResetForm,
  passwordResetGone,
  passwordResetSent,
  passwordResetTooMany,
} from '../pages/password-reset.js';

/** The organization a page is drawn for, as the sign-up actions describe it. */
interface PageRealm {
  realmId: number;
  realmName: string;
  defaultLanguage: string;
}

/**
 * The frame of a page about `realm`, or, when the link names none (a dead one, an email change),
 * about the organization the request addresses, as the login screen there shows it.
 */
async function pageFrame(
  ctx: AppContext,
  request: FastifyRequest,
  realm: PageRealm | null,
): Promise<PageFrame> {
  let shown = realm;
  if (!shown) {
    const addressed = await realmForRequest(ctx, request).catch(() => null);
    shown = addressed && {
      realmId: addressed.id,
      realmName: addressed.name,
      defaultLanguage: realmSettings(addressed).default_language,
    };
  }
  const language = pageLanguage(request.headers['accept-language'], shown?.defaultLanguage);
  return {
    language,
    t: translator(language),
    realm: shown && { id: shown.realmId, name: shown.realmName },
  };
}

function sendPage(reply: FastifyReply, page: Page, frame: PageFrame) {
  // The language follows Accept-Language: a cache must not give one reader's page to another.
  reply.code(page.status).type('text/html; charset=utf-8').header('Vary', 'Accept-Language');
  return reply.send(pageHtml(page, frame));
}

/** A page and the frame it is drawn in. */
interface Framed {
  page: Page;
  frame: PageFrame;
}

/** A form page shown for a link's secret: again with the reason and the values, after a refusal. */
type ShowForm = (
  request: FastifyRequest,
  secret: string,
  error?: string,
  values?: FormValues,
) => Promise<Framed>;
/** A form's submission: the page that follows it. */
type SubmitForm = (request: FastifyRequest, secret: string, values: FormValues) => Promise<Framed>;

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
    app.get(url, async (request, reply) => {
      const { page, frame } = await show(request, (request.params as { secret: string }).secret);
      return sendPage(reply, page, frame);
    });
    app.post(url, async (request, reply) => {
      const secret = (request.params as { secret: string }).secret;
      const values = formValues(request.body);
      let shown: Framed;
      try {
        shown = await submit(request, secret, values);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        shown = await show(request, secret, err.message, values);
      }
      return sendPage(reply, shown.page, shown.frame);
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
  const showInvitation: ShowForm = async (request, key, error, values) => {
    const details = await invitationDetails(ctx, key);
    const frame = await pageFrame(ctx, request, details);
    return {
      frame,
      page: details ? invitationForm(frame.t, details, error, values) : invitationNotFound(frame.t),
    };
  };
  const submitInvitation: SubmitForm = async (request, key, body) => {
    const details = await invitationDetails(ctx, key);
    const frame = await pageFrame(ctx, request, details);
    if (!details) return { frame, page: invitationNotFound(frame.t) };
    if (details.email) {
      const { email, realm_name } = await acceptInvitation(ctx, key, {
        full_name: body.full_name ?? '',
        password: body.password ?? '',
      });
      return { frame, page: welcomePage(frame.t, email, realm_name) };
    }
    // The same page whether or not the address has an account: only its mailbox learns which.
    const { email, realmName } = await requestSignupConfirmation(ctx, key, body.email ?? '');
    return { frame, page: checkEmailPage(frame.t, email, realmName, CONFIRMATION_SECONDS / 3600) };
  };
  const showConfirmation: ShowForm = async (request, token, error, values) => {
    const details = await confirmationDetails(ctx, token);
    const frame = await pageFrame(ctx, request, details);
    return {
      frame,
      page: details
        ? confirmationForm(frame.t, details, error, values)
        : confirmationNotFound(frame.t),
    };
  };
  const submitConfirmation: SubmitForm = async (request, token, body) => {
    // Read first for the frame: once the account exists, the link names nothing any more.
    const details = await confirmationDetails(ctx, token);
    const frame = await pageFrame(ctx, request, details);
    if (!details) return { frame, page: confirmationNotFound(frame.t) };
    const { email, realm_name } = await completeSignup(ctx, token, {
      full_name: body.full_name ?? '',
      password: body.password ?? '',
    });
    return { frame, page: welcomePage(frame.t, email, realm_name) };
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
 * Requests for reset links a minute: for one account, and from one client address (a twentieth
 * of PARLEY_RATE_LIMIT, 10 by default).
 */
const RESETS_PER_ADDRESS = 3;
const resetsPerIp = (ctx: AppContext) => Math.max(1, Math.ceil(ctx.config.rateLimitPerMinute / 20));

/**
 * Password reset (upstream's /accounts/password/reset/): the form takes an address and answers
 * the same page whether or not it has an account; the mailed link's page sets a new password.
 */
function passwordResetPages(app: FastifyInstance, ctx: AppContext) {
  for (const url of ['/accounts/password/reset', '/accounts/password/reset/']) {
    app.get(url, async (request, reply) => {
      const frame = await pageFrame(ctx, request, null);
      return sendPage(reply, passwordResetForm(frame.t), frame);
    });
    app.post(url, async (request, reply) => {
      const frame = await pageFrame(ctx, request, null);
      const realm = await realmForRequest(ctx, request);
      const email = (formValues(request.body).email ?? '').trim().toLowerCase().slice(0, 254);
      try {
        await checkRateLimit(ctx, reply, `password-reset-ip:${request.ip}`, resetsPerIp(ctx));
        await checkRateLimit(
          ctx,
          reply,
          `password-reset-address:${realm.id}:${email}`,
          RESETS_PER_ADDRESS,
        );
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        return sendPage(reply, passwordResetTooMany(frame.t), frame);
      }
      if (email) await requestPasswordReset(ctx, realm, email);
      return sendPage(reply, passwordResetSent(frame.t, email), frame);
    });
  }
  const frameFor = (
    request: FastifyRequest,
    details: Awaited<ReturnType<typeof passwordResetDetails>>,
  ) =>
    pageFrame(
      ctx,
      request,
      details && {
        realmId: details.realmId,
        realmName: details.realmName,
        defaultLanguage: details.defaultLanguage,
      },
    );
  const show: ShowForm = async (request, token, error) => {
    const details = await passwordResetDetails(ctx, token);
    const frame = await frameFor(request, details);
    return {
      frame,
      page: details ? newPasswordForm(frame.t, details.email, error) : passwordResetGone(frame.t),
    };
  };
  const submit: SubmitForm = async (request, token, body) => {
    const details = await passwordResetDetails(ctx, token);
    const frame = await frameFor(request, details);
    if (!details) return { frame, page: passwordResetGone(frame.t) };
    await completePasswordReset(ctx, token, body.password ?? '');
    return { frame, page: passwordResetDone(frame.t) };
  };
  formPages(
    app,
    ['/accounts/password/reset/:secret', '/accounts/password/reset/:secret/'],
    show,
    submit,
  );
}

/**
 * Pages the server renders itself for links people get by email: joining by invitation,
 * confirming a new email address, resetting a password.
 */
export async function accountPages(app: FastifyInstance, { ctx }: RoutesOptions) {
  joinPages(app, ctx);
  passwordResetPages(app, ctx);
  app.get('/accounts/confirm_new_email/:token', async (request, reply) => {
    const email = await confirmEmailChange(ctx, (request.params as { token: string }).token);
    const frame = await pageFrame(ctx, request, null);
    return sendPage(reply, emailChangePage(frame.t, email), frame);
  });
}
