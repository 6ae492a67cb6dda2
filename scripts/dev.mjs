// npm run dev: the API server with reload on 9991, and Vite's dev server proxying /api to it
// (or to PARLEY_PROXY_TARGET, any Zulip-compatible server).
import { spawn } from 'node:child_process';

const children = [];
if (!process.env.PARLEY_PROXY_TARGET) {
  children.push(spawn('npx', ['tsx', 'watch', 'server/main.ts'], { stdio: 'inherit' }));
}
children.push(spawn('npx', ['vite'], { stdio: 'inherit' }));
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exit(code ?? 0);
  });
