import { format } from 'node:util';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger } from 'pino';

/**
 * Structured fields that are never written out, whatever logs them: credentials in headers, and
 * passwords, keys, tokens and mailed links in any object up to two levels down.
 */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'new_password',
  'old_password',
  'api_key',
  'apiKey',
  'token',
  'secret',
  'link',
  'key',
];
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((f) => {
    const key = /^[a-z_]+$/i.test(f) ? f : `["${f}"]`;
    const nested = key.startsWith('[') ? key : `.${key}`;
    return [key, `*${nested}`, `*.*${nested}`];
  }),
];

// Secrets that may sit inside text: the token of a mailed or temporary link, a credential
// parameter, an Authorization value, the password of a connection URL.
const SECRET_PATH =
  /(\/(?:join|accounts\/confirm_new_email|accounts\/do_confirm|user_uploads\/temporary)\/)[^/\s?#"']+/g;
const SECRET_PARAM =
  /([?&;](?:api_key|key|token|password|secret|confirmation_key|[a-z_]*_token)=)[^&;\s#"']*/gi;
const CREDENTIALS = /\b(Basic|Bearer|Digest)\s+[A-Za-z0-9+/=._~-]+/gi;
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/\s@]*:)[^@\s/]+@/gi;

/** `text` with the secrets it may carry replaced by [redacted]. */
export function redactText(text: string): string {
  return text
    .replace(SECRET_PATH, '$1[redacted]')
    .replace(SECRET_PARAM, '$1[redacted]')
    .replace(CREDENTIALS, '$1 [redacted]')
    .replace(URL_PASSWORD, '$1[redacted]@');
}

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
  routeOptions?: { url?: string };
}

/** A request as the log shows it: no headers, no token of a path or query. */
function requestForLog(req: LoggedRequest) {
  return {
    method: req.method,
    url: redactText(req.url ?? ''),
    route: req.routeOptions?.url,
    remoteAddress: req.ip,
  };
}

/** An error as the log shows it (pino's serializer), its message and stack redacted. */
function errorForLog(err: Error) {
  const shown = pino.stdSerializers.err(err);
  if (typeof shown.message === 'string') shown.message = redactText(shown.message);
  if (typeof shown.stack === 'string') shown.stack = redactText(shown.stack);
  return shown;
}

/**
 * The server's logger: JSON lines (pino, which Fastify uses too) on standard output, at `level`.
 * Tests pass a destination to read what it writes.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        req: requestForLog,
        res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
        err: errorForLog,
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

let fallback: Logger | undefined;

/**
 * The logger of servers started without one (tests, benchmarks): warnings and errors, or
 * LOG_LEVEL's level.
 */
export function fallbackLogger(): Logger {
  const level = process.env.LOG_LEVEL?.trim().toLowerCase();
  return (fallback ??= createLogger(
    level && (pino.levels.values[level] !== undefined || level === 'silent')
      ? (level as LogLevel)
      : 'warn',
  ));
}

/**
 * Sends what anything in the process writes with console.* through `logger`, its text redacted:
 * code that still prints (and the packages we use) then writes JSON lines like the rest.
 */
export function routeConsoleTo(logger: Logger) {
  const send =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      if (!logger.isLevelEnabled(level)) return;
      const [first, ...rest] = args;
      if (first instanceof Error && rest.length === 0) {
        logger[level]({ err: first }, redactText(first.message));
        return;
      }
      const text = format(...args);
      logger[level](redactText(text));
    };
  console.log = send('info');
  console.info = send('info');
  console.warn = send('warn');
  console.error = send('error');
  console.debug = send('debug');
  console.trace = send('debug');
}

/**
 * Process warnings (deprecations and the like), uncaught exceptions and unhandled rejections as
 * log lines instead of Node's own text on standard error. Either of the last two still ends the
 * process, with exit code 1 as Node would.
 */
export function routeProcessEventsTo(logger: Logger) {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => logger.warn({ err: warning }, warning.message));
  const fatal = (message: string) => (err: unknown) => {
    logger.fatal({ err }, message);
    process.exit(1);
  };
  process.on('uncaughtException', fatal('Uncaught exception'));
  process.on('unhandledRejection', fatal('Unhandled promise rejection'));
}
