import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_UPLOAD_MIB } from '../actions/uploads.js';
import { MAX_BODY_BYTES } from '../http/body.js';

/**
 * Keeps the README and the pages under docs/ findable and their links whole: a page nobody links
 * to is a page nobody reads, and a link to a moved file or heading sends the reader nowhere.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const README = 'README.md';
const FRONT_PAGE_MAX_LINES = 120;

const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

const docsPages = fs
  .readdirSync(path.join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

const markdownFiles = [README, 'SECURITY.md', ...docsPages];

/** Code shows commands and paths, not links: `[a](b)` inside it is not followed. */
function withoutCode(markdown: string): string {
  return markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
}

/** Every link and image target of a Markdown file, as written: `[text](target)` and `src="…"`. */
function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const inline = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
  const html = [...text.matchAll(/\bsrc="([^"]+)"/g)].map((m) => m[1]);
  return [...inline, ...html];
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const headings = withoutCode(read(file)).matchAll(/^#{1,6}\s+(.+)$/gm);
  return new Set([...headings].map((m) => anchorOf(m[1].replace(/[*_]/g, ''))));
}

/** Each relative link of `file`, resolved against the repository root. */
function relativeLinks(file: string) {
  return linkTargets(read(file))
    .filter((target) => !isExternal(target))
    .map((target) => {
      const [pathPart, anchor] = target.split('#', 2);
      const resolved = pathPart
        ? path.relative(root, path.resolve(path.dirname(path.join(root, file)), pathPart))
        : file;
      return { target, resolved, anchor };
    });
}

describe('the README and docs/', () => {
  it('has pages under docs/ to check', () => {
    expect(docsPages.length).toBeGreaterThan(0);
  });

  it('links every docs/ page from the README', () => {
    const linked = new Set(relativeLinks(README).map((link) => link.resolved));
    expect(docsPages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it.each(markdownFiles)(
    '%s: every relative link leads to a file and heading that exist',
    (file) => {
      const broken = relativeLinks(file)
        .filter(({ resolved, anchor }) => {
          if (!fs.existsSync(path.join(root, resolved))) return true;
          if (!anchor || !resolved.endsWith('.md')) return false;
          return !anchorsOf(resolved).has(anchor);
        })
        .map((link) => link.target);
      expect(broken).toEqual([]);
    },
  );

  it(`keeps the README's front page within ${FRONT_PAGE_MAX_LINES} lines`, () => {
    const lines = read(README).trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(FRONT_PAGE_MAX_LINES);
  });

  it('lists every variable the server reads in the configuration table', () => {
    const schemaKeys = [...read('server/config.ts').matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map(
      (m) => m[1],
    );
    expect(schemaKeys).toContain('PORT');
    const documented = new Set(
      [...read('docs/configuration.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]),
    );
    expect(schemaKeys.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("states the server's size limits in SECURITY.md", () => {
    const security = read('SECURITY.md').replace(/\s+/g, ' ');
    expect(security).toContain(`request bodies up to ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
    expect(security).toContain(`each uploaded file up to ${MAX_FILE_UPLOAD_MIB} MiB`);
  });
});
