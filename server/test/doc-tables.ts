import Fastify from 'fastify';
import type { AppContext } from '../context.js';
import { registerRoutes } from '../routes/index.js';

/**
 * What the tests that keep a document true share: reading a Markdown table's rows, and the list
 * of routes the app registers to check the document's endpoints against.
 */

/** The cells of a Markdown table line (pipes inside backticks or escaped as \| do not split). */
export function splitRow(line: string): string[] | null {
  const t = line.trim();
  if (!t.startsWith('|') || !t.endsWith('|')) return null;
  const cells: string[] = [];
  let cell = '';
  let code = false;
  for (let i = 1; i < t.length - 1; i++) {
    const ch = t[i];
    if (ch === '\\' && t[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (ch === '`') {
      code = !code;
      cell += ch;
    } else if (ch === '|' && !code) {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

/** Every route the app registers, as fastify sees them (without the HEAD twins of GET routes). */
export async function registeredRoutes(): Promise<{ method: string; url: string }[]> {
  const app = Fastify();
  const seen: { method: string; url: string }[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat())
      if (method !== 'HEAD') seen.push({ method, url: r.url });
  });
  // Registration only builds handlers; none of them runs here, so no context is needed.
  registerRoutes(app, {} as AppContext);
  await app.ready();
  await app.close();
  return seen;
}
