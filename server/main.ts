import { configFromEnv } from './config.js';
import { DataDirLockedError } from './db/index.js';
import { seedDemo } from './demo/seed.js';
import { startServer } from './server.js';

async function main() {
  const config = configFromEnv();
  let server;
  try {
    server = await startServer(config, { logger: process.env.PARLEY_QUIET !== '1' });
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (config.demo && (await seedDemo(server.ctx, config.demoPassword))) {
    console.log('Seeded the demo organization "Parley Demo".');
  }
  const users = await server.ctx.db
    .selectFrom('users')
    .select(['email', 'role'])
    .where('is_bot', '=', 0)
    .orderBy('role')
    .execute();
  console.log(`\nParley is running at ${server.url}`);
  if (config.demo) {
    console.log(`Log in as any demo user with the password "${config.demoPassword}":`);
    for (const u of users.slice(0, 10)) console.log(`  ${u.email}`);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: shutting down`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
