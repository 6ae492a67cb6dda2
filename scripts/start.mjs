// npm start: build the web client and the server when they are missing or older than their
// sources, then run the compiled server (plain JavaScript, in this same process).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(p, { withFileTypes: true })) {
    newest = Math.max(newest, newestMtime(path.join(p, entry.name)));
  }
  return newest;
}

const newestOf = (paths) => Math.max(0, ...paths.map((p) => newestMtime(path.join(root, p))));
const builtAt = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);

const clientIndex = path.join(root, 'dist', 'index.html');
if (
  fs.existsSync(path.join(root, 'index.html')) &&
  builtAt(clientIndex) < newestOf(['src', 'public', 'index.html', 'vite.config.ts'])
) {
  console.log('Building the web client...');
  // Vite is one of the dependencies (not a development tool), so a production install builds the
  // client here from what it installed; nothing is fetched.
  const { build } = await import('vite');
  try {
    await build({ root, logLevel: 'warn' });
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}

// The bundle holds the packages the server uses too, so a changed lock file rebuilds it.
const serverMain = path.join(root, 'dist-server', 'main.js');
const serverSources = [
  'server',
  'src', // the server shares the API model and event parsing with the client
  'package.json',
  'package-lock.json',
  'scripts/build-server.mjs',
];
if (builtAt(serverMain) < newestOf(serverSources)) {
  console.log('Building the server...');
  const { buildServer } = await import('./build-server.mjs');
  await buildServer({ quiet: true });
}

// Stack traces of the bundle point into the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(serverMain).href);
