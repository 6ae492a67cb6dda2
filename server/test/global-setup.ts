/**
 * Before the server's tests: the compiled server and management commands in dist-server/, built
 * when missing or older than their sources, for the tests that run them as processes
 * (process.ts) the way `npm start` and `npm run manage` do.
 */
// @ts-expect-error: a plain JavaScript module of the build scripts, with no type declarations
import { ensureServerBuilt } from '../../scripts/build-server.mjs';

export default async function setup() {
  await (ensureServerBuilt as () => Promise<void>)();
}
