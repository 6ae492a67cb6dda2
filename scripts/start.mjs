// npm start: build the web client and the server when they are missing or older than their
// sources, then run the compiled server (plain JavaScript, in this same process).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureServerBuilt, newestOf, serverOutDir } from './build-server.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

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

await ensureServerBuilt({ onBuild: () => console.log('Building the server...') });

// Stack traces of the bundle point into the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(serverOutDir, 'main.js')).href);
