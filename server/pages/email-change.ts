import { escapeHtml } from './page.js';

/**
 * What the link that confirms a new email address opens: the address now in use, or why the
 * link did nothing (`confirmEmailChange`'s answer: the address, null, or 'deactivated').
 */
export function emailChangePage(email: string | null): { status: number; html: string } {
  if (email === 'deactivated')
    return {
      status: 401,
      html: '<!doctype html><title>Parley</title><p>This account is deactivated.</p>',
    };
  if (!email)
    return {
      status: 404,
      html: '<!doctype html><title>Parley</title><p>This confirmation link is invalid or has expired.</p>',
    };
  return {
    status: 200,
    html: `<!doctype html><title>Parley</title><p>Your email address is now <b>${escapeHtml(email)}</b>. <a href="/">Back to Parley</a></p>`,
  };
}
