import { escapeHtml } from '../markdown/links.js';

/** The pages escape text as messages do: one escaper for all the server's HTML. */
export { escapeHtml };

/** A page the server renders itself: its status, its title (text) and its body (HTML). */
export interface Page {
  status: number;
  title: string;
  body: string;
}

/** The whole document of a page, in the small style every server-rendered form shares. */
export function pageHtml({ title, body }: Page): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)} · Parley</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem}` +
    `label{display:block;margin:.75rem 0}input{display:block;width:100%;padding:.4rem;font:inherit;box-sizing:border-box}` +
    `button{margin-top:1rem;padding:.5rem 1rem;font:inherit}.error{color:#b00020}</style></head>` +
    `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`
  );
}
