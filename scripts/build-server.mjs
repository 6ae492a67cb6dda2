// npm run build:server: compile the server, its management commands and the packages they use into
// dist-server/ with esbuild, so that `npm start` and `npm run manage` run plain JavaScript: no
// TypeScript compiler at start, and one bundle to load instead of hundreds of small module files.
// Development (`npm run dev`) and most tests run the TypeScript sources through tsx; the tests of
// processes run the bundle (server/test/global-setup.ts builds it when it is out of date).
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const serverOutDir = path.join(root, 'dist-server');

/**
 * Left to Node to load from node_modules at run time: better-sqlite3 finds its compiled addon
 * relative to its own files, and pg-native is an optional add-on of pg that is not installed.
 */
const EXTERNAL = ['better-sqlite3', 'pg-native'];

/**
 * Builds into a fresh directory beside `outDir`, then puts it in place: a process already running
 * the old bundle, or starting meanwhile, never sees a half-written one.
 */
export async function buildServer({ quiet = false, outDir = serverOutDir } = {}) {
  const started = performance.now();
  const building = `${outDir}.${process.pid}.building`;
  fs.rmSync(building, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'server/main.ts', manage: 'server/manage.ts' },
    outdir: building,
    bundle: true,
    // Code reached only through import() (the PostgreSQL driver, the Redis client) goes to chunks
    // of its own that a server without them never reads.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // Packages written as CommonJS call require(); an ES module has none, so each file gets one.
    banner: {
      js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);",
    },
    // Smaller files parse faster; identifiers are left as written, so stack traces stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    // Stack traces need only the mappings: without the sources' text the map is a fraction of its
    // size, and Node reads it at every start.
    sourcesContent: false,
    legalComments: 'linked',
    logLevel: quiet ? 'error' : 'warning',
  });
  fs.writeFileSync(
    path.join(building, 'package.json'),
    JSON.stringify({ type: 'module', private: true }) + '\n',
  );
  const old = `${outDir}.${process.pid}.old`;
  if (fs.existsSync(outDir)) fs.renameSync(outDir, old);
  fs.renameSync(building, outDir);
  fs.rmSync(old, { recursive: true, force: true });
  if (!quiet)
    console.log(
      `Built the server into ${path.relative(root, outDir)}/ in ${Math.round(performance.now() - started)} ms`,
    );
}

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(p, { withFileTypes: true }))
    newest = Math.max(newest, newestMtime(path.join(p, entry.name)));
  return newest;
}

/** What the bundle is made from: the packages it holds too, so a changed lock file rebuilds it. */
const SERVER_SOURCES = [
  'server',
  'src', // the server shares the API model and event parsing with the client
  'package.json',
  'package-lock.json',
  'scripts/build-server.mjs',
];

/** The modification time of the newest file among `paths` (relative to the root). */
export const newestOf = (paths) =>
  Math.max(0, ...paths.map((p) => newestMtime(path.join(root, p))));

/** Builds dist-server/ when it is missing or older than its sources (`onBuild` says so first). */
export async function ensureServerBuilt({ onBuild = () => {} } = {}) {
  const main = path.join(serverOutDir, 'main.js');
  const manage = path.join(serverOutDir, 'manage.js');
  const builtAt = Math.min(
    ...[main, manage].map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)),
  );
  if (builtAt >= newestOf(SERVER_SOURCES)) return;
  onBuild();
  await buildServer({ quiet: true });
}

// `--out DIR` builds elsewhere (the test of the build does); the bundle finds the packages it
// leaves out (better-sqlite3) and the data files it reads in node_modules above DIR.
if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv.indexOf('--out');
  buildServer(out > 0 ? { outDir: path.resolve(process.argv[out + 1]) } : {}).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
