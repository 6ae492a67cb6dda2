// npm run check:imports: the import structure DESIGN.md asks for (style rules 13, 14 and 18), checked
// on the graph dpdm builds with TypeScript's own parser and each file's nearest tsconfig, so every
// path is the file the compiler would load, not a guess from the import's text.
//
// - No import circles in server/ or src/. Type-only imports count: a circle of types still ties
//   the modules into one, and one edit turns `import type` into a value import. Dynamic import()s
//   count too: a lazy import hides a circle, it does not remove it.
// - No import breaks a rule of scripts/import-rules.mjs: the "never"s of DESIGN.md §2 and the
//   server's layers. A layer imports only the layers beneath it; on the server, top to bottom:
//
//     routes/, http/    the HTTP edge: parse, call, reply
//     register/         what POST /register returns, one function per snapshot section, and the
//                       queue it opens
//     actions/          state changes, and the events they announce after the commit
//     lib/              reads and access rules (who may read, send, administer...)
//     markdown/         the renderer
//     context.ts        the database handle, transactions, the bus and the queues
//     events/           plumbing: queues, long-polls, heartbeat and garbage collection, fan-out,
//                       the Redis bus; it knows no domain and not the context that holds it
//     domain/, db/      pure domain pieces, the schema and queries; everyone may use them
//                       (db/ knows no permission rule: it imports nothing from actions/ or lib/)
import fs from 'node:fs';
import path from 'node:path';
import { parseCircular, parseDependencyTree } from 'dpdm';
import { violations } from './import-rules.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SOURCES = ['server/**/*.ts', 'src/**/*.{ts,tsx}'];
const rel = (file) => path.relative(root, path.resolve(root, file));
const tree = await parseDependencyTree(SOURCES, { cwd: root, context: root });
const files = Object.keys(tree)
  .map(rel)
  .filter((f) => /^(server|src)\//.test(f));
const problems = [];

for (const circle of parseCircular(tree))
  problems.push(`import circle: ${[...circle, circle[0]].map(rel).join(' -> ')}`);

/** A bare import's package: `react` of `react/jsx-runtime`, `@tanstack/react-query` of itself. */
const packageOf = (request) =>
  request
    .split('/')
    .slice(0, request.startsWith('@') ? 2 : 1)
    .join('/');
const isBare = (request) => !request.startsWith('.') && !request.startsWith('/');

const edges = [];
for (const [issuer, deps] of Object.entries(tree)) {
  for (const dep of deps ?? []) {
    if (isBare(dep.request)) edges.push([rel(issuer), packageOf(dep.request)]);
    else if (dep.id) edges.push([rel(issuer), rel(dep.id)]);
  }
}
for (const { from, to, rule } of violations(edges))
  problems.push(`forbidden import: ${from} imports ${to} (${rule.name}: ${rule.why})`);

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
