import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the web client and the server once, as `npm start` does: the servers the tests start run
 * dist-server/main.js (e2e/server.ts) and serve the client from dist/.
 */
export default function globalSetup() {
  const cwd = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd, stdio: 'inherit' });
}
