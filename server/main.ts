import { ConfigError, configFromEnv, type Config } from './config.js';
import { createLogger, routeConsoleTo, routeProcessEventsTo, type Logger } from './logging.js';
// Types only: the server's modules load once the configuration is known to be good.
import type { RunningServer } from './server.js';

/** The password the demo people get when PARLEY_DEMO_PASSWORD does not choose one: no secret. */
const DEFAULT_DEMO_PASSWORD = 'parley-demo';

/**
 * `npm start`: checks the configuration before loading anything else, so that a mistyped value
 * ends the process at once with one line and exit code 2; then starts the server, seeding the
 * demo organization before it serves, and logs where it runs. Every line goes through the logger
 * (JSON, pino), what other code prints with console.* included.
 */
async function main() {
  let config: Config;
  try {
    config = configFromEnv();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    createLogger('fatal').fatal(err.message);
    process.exit(2);
  }
  const log = createLogger(config.logLevel);
  routeConsoleTo(log);
  routeProcessEventsTo(log);

  // Stopping while the server starts ends the process at once: the seed's transaction, not
  // committed, leaves nothing behind, and the next start seeds the demo whole.
  let server: RunningServer | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, `${signal}: shutting down`);
    await server?.close();
    log.info('Stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const [{ startServer }, { DataDirLockedError }] = await Promise.all([
    import('./server.js'),
    import('./db/index.js'),
  ]);
  try {
    server = await startServer(config, {
      logger: log,
      demoPassword: config.demo ? config.demoPassword : undefined,
    });
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      log.fatal(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (!stopping) await announce(server, config, log);
}

/**
 * The start banner: the address, and the demo people to log in as. A password chosen in
 * PARLEY_DEMO_PASSWORD is not written to the log (logs travel further than the machine); the
 * default one is no secret, and printing it spares a newcomer a look at the README.
 */
async function announce(server: RunningServer, config: Config, log: Logger) {
  log.info({ url: server.url }, `Parley is running at ${server.url}`);
  if (!config.demo) return;
  const people = await server.ctx.db
    .selectFrom('users')
    .select(['email', 'role'])
    .where('is_bot', '=', 0)
    .orderBy('role')
    .limit(10)
    .execute();
  const emails = people.map((u) => u.email);
  const password =
    config.demoPassword === DEFAULT_DEMO_PASSWORD
      ? `the password "${DEFAULT_DEMO_PASSWORD}"`
      : 'the password set in PARLEY_DEMO_PASSWORD';
  log.info({ people: emails }, `Log in as any demo user with ${password}: ${emails.join(', ')}`);
}

main().catch((err) => {
  // Before the configuration is read there is no logger of its level yet.
  createLogger('fatal').fatal({ err }, err instanceof Error ? err.message : String(err));
  process.exit(1);
});
