// npm run check:imports: the import structure DESIGN.md asks for (style rules 13 and 14), checked
// on the graph dpdm builds with TypeScript's own parser and each file's nearest tsconfig, so every
// path is the file the compiler would load, not a guess from the import's text.
//
// - No import circles in server/ or src/. Type-only imports count: a circle of types still ties
//   the modules into one, and one edit turns `import type` into a value import. Dynamic import()s
//   count too: a lazy import hides a circle, it does not remove it.
// - The layers that make up the domain import nothing from server/http.
import fs from 'node:fs';
import path from 'node:path';
import { parseCircular, parseDependencyTree } from 'dpdm';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SOURCES = ['server/**/*.ts', 'src/**/*.{ts,tsx}'];
const DOMAIN_LAYERS = [
  'server/actions/',
  'server/domain/',
  'server/events/',
  'server/db/',
  'server/markdown/',
];
const FORBIDDEN = DOMAIN_LAYERS.map((from) => ({
  from,
  to: 'server/http/',
  why: 'the domain speaks no HTTP; its errors are in server/domain/errors.ts',
}));

const rel = (file) => path.relative(root, path.resolve(root, file));
const tree = await parseDependencyTree(SOURCES, { cwd: root, context: root });
const files = Object.keys(tree)
  .map(rel)
  .filter((f) => /^(server|src)\//.test(f));
const problems = [];

for (const circle of parseCircular(tree))
  problems.push(`import circle: ${[...circle, circle[0]].map(rel).join(' -> ')}`);

for (const [issuer, deps] of Object.entries(tree)) {
  for (const dep of deps ?? []) {
    if (!dep.id) continue;
    const [from, to] = [rel(issuer), rel(dep.id)];
    const rule = FORBIDDEN.find((r) => from.startsWith(r.from) && to.startsWith(r.to));
    if (rule) problems.push(`forbidden import: ${from} imports ${to} (${rule.why})`);
  }
}

// dpdm skips any import preceded by this comment; here nothing may opt out.
for (const file of files) {
  if (fs.readFileSync(path.join(root, file), 'utf8').includes('@dpdm-ignore'))
    problems.push(`${file}: @dpdm-ignore hides an import from this check`);
}

for (const problem of problems) console.error(problem);
console.log(
  `import check: ${files.length} files, ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
);
process.exit(problems.length ? 1 : 0);
