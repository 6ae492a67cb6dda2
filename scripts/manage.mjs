// npm run manage: the management commands (server/manage.ts), compiled into dist-server/ as
// `npm start` compiles the server: built first when missing or older than their sources.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureServerBuilt, serverOutDir } from './build-server.mjs';

await ensureServerBuilt({ onBuild: () => console.error('Building the server...') });
process.setSourceMapsEnabled(true);
const { runManageCommandLine } = await import(
  pathToFileURL(path.join(serverOutDir, 'manage.js')).href
);
process.exit(await runManageCommandLine(process.argv.slice(2)));
