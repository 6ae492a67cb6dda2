// npm run build:server: compile the server and the packages it uses into dist-server/ with esbuild,
// so that `npm start` runs plain JavaScript: no TypeScript compiler at start, and one bundle to
// load instead of hundreds of small module files. Development (`npm run dev`) and the tests keep
// running the TypeScript sources through tsx.
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

export async function buildServer({ quiet = false, outDir = serverOutDir } = {}) {
  const started = performance.now();
  fs.rmSync(outDir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'server/main.ts' },
    outdir: outDir,
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
    path.join(outDir, 'package.json'),
    JSON.stringify({ type: 'module', private: true }) + '\n',
  );
  if (!quiet)
    console.log(
      `Built the server into ${path.relative(root, outDir)}/ in ${Math.round(performance.now() - started)} ms`,
    );
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
