// The "never" imports of DESIGN.md §2 and the server's layers, as data, and the one function that
// checks an import graph against them (scripts/check-imports.mjs feeds it the real graph,
// server/test/import-rules.test.ts synthetic ones).
//
// An edge is [from, to]: `from` a file relative to the repository root, `to` either such a file or
// the name of a package (`react`, `zustand/vanilla`, `@tanstack/react-query`). The rules bind the
// product, not its tests: a test may reach across layers (the server's central test applies the
// client's reducers to the events it records), so imports from tests and test helpers are free.

/** Every server folder that holds domain code, as opposed to the HTTP edge (routes/, http/). */
const DOMAIN_LAYERS = [
  'server/register/',
  'server/actions/',
  'server/lib/',
  'server/markdown/',
  'server/events/',
  'server/domain/',
  'server/db/',
];

/**
 * Each rule forbids imports from files under any `from` prefix of files under any `to` prefix
 * (or of the `packages` named), except those under an `unless` prefix.
 */
export const RULES = [
  {
    name: 'events-plumbing',
    from: ['server/events/'],
    to: [
      'server/actions/',
      'server/lib/',
      'server/register/',
      'server/routes/',
      'server/http/',
      'server/context.ts',
    ],
    why: 'queues, long-polls and the bus know no domain: they sit beneath actions/, lib/ and register/, and beneath the context that holds them',
  },
  {
    name: 'lib-below-actions',
    from: ['server/lib/'],
    to: ['server/actions/', 'server/register/', 'server/routes/'],
    why: 'reads and access rules sit beneath the state changes that use them',
  },
  {
    name: 'actions-below-register',
    from: ['server/actions/'],
    to: ['server/register/', 'server/routes/'],
    why: 'the state changes sit beneath the /register snapshot and the routes',
  },
  {
    name: 'api-knows-no-store',
    from: ['src/api/'],
    to: ['src/model/', 'src/queries/', 'src/features/'],
    packages: ['react', 'zustand'],
    why: 'the wire knows no store and no React',
  },
  {
    name: 'model-knows-no-screen',
    from: ['src/model/'],
    to: ['src/features/'],
    why: 'the live model knows no screen',
  },
  {
    name: 'server-uses-only-wire-model',
    from: ['server/'],
    to: ['src/'],
    // The server's own pages speak the client's languages: the same codes, the same catalogs.
    unless: ['src/api/model/', 'src/i18n/languages.ts', 'src/i18n/locales/'],
    why: 'the server imports nothing from src/ but src/api/model and the languages (src/i18n/languages.ts, src/i18n/locales/)',
  },
  {
    name: 'routes-reach-db-through-actions',
    from: ['server/routes/'],
    to: ['server/db/'],
    why: 'routes reach the database only through actions',
  },
  {
    name: 'domain-speaks-no-http',
    from: DOMAIN_LAYERS,
    to: ['server/http/'],
    why: 'the domain speaks no HTTP; its errors are in server/domain/errors.ts',
  },
  {
    name: 'db-knows-no-permissions',
    from: ['server/db/'],
    to: ['server/actions/', 'server/lib/'],
    why: 'db/ knows no permission rules',
  },
];

const under = (file, prefixes = []) => prefixes.some((prefix) => file.startsWith(prefix));
const isPackage = (to) => !/^(server|src)\//.test(to);
const namesPackage = (to, names = []) =>
  names.some((name) => to === name || to.startsWith(`${name}/`));

const isTest = (file) =>
  /\.test\.tsx?$/.test(file) || under(file, ['server/test/', 'src/test/', 'e2e/']);

function breaks(rule, [from, to]) {
  if (isTest(from) || !under(from, rule.from)) return false;
  if (isPackage(to)) return namesPackage(to, rule.packages);
  return under(to, rule.to) && !under(to, rule.unless);
}

/** The edges that break a rule, each with the rule it breaks. */
export function violations(edges, rules = RULES) {
  const found = [];
  for (const edge of edges)
    for (const rule of rules)
      if (breaks(rule, edge)) found.push({ from: edge[0], to: edge[1], rule });
  return found;
}
