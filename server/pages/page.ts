import { escapeHtml } from '../markdown/links.js';
import { PAGE_STYLE } from './page-style.js';
import type { Translate } from './strings.js';

/** The pages escape text as messages do: one escaper for all the server's HTML. */
export { escapeHtml };

/**
 * A page the server renders itself: its status, its title and its body, both HTML (the
 * catalog's strings, their values escaped). `namesRealm`: the title names the organization
 * already, so the card does not repeat it under the title.
 */
export interface Page {
  status: number;
  title: string;
  body: string;
  namesRealm?: boolean;
}

/** Whom a page speaks to: in which language, and under which organization (none: Parley's). */
export interface PageFrame {
  language: string;
  t: Translate;
  realm: { id: number; name: string } | null;
}

/** Parley's mark (public/favicon.svg), for a page that belongs to no organization. */
const PARLEY_ICON =
  '<svg class="signup-icon" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="56" height="56" aria-hidden="true"><rect width="64" height="64" rx="14" fill="#3b6fd4"/><path d="M16 20a6 6 0 0 1 6-6h20a6 6 0 0 1 6 6v14a6 6 0 0 1-6 6H30l-9 8v-8h0a6 6 0 0 1-5-6z" fill="#fff"/></svg>';

function header(page: Page, { realm }: PageFrame): string {
  const icon = realm
    ? `<img class="signup-icon" src="/realm-icon/${realm.id}.svg" alt="" width="56" height="56">`
    : PARLEY_ICON;
  const realmName =
    realm && !page.namesRealm ? `<p class="signup-realm">${escapeHtml(realm.name)}</p>` : '';
  return `<header class="signup-header">${icon}<h1>${page.title}</h1>${realmName}</header>`;
}

/** The whole document of a page: the card of the client's login screen, in the frame's language. */
export function pageHtml(page: Page, frame: PageFrame): string {
  return (
    `<!doctype html><html lang="${escapeHtml(frame.language)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light dark">` +
    `<title>${page.title} · Parley</title><style>${PAGE_STYLE}</style></head>` +
    `<body><main class="signup-page"><div class="signup-card">${header(page, frame)}${page.body}</div></main></body></html>`
  );
}
