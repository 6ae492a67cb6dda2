import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Builds the web client once; the servers the tests start serve it from dist/. */
export default function globalSetup() {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
    stdio: 'inherit',
  });
}
