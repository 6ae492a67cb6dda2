import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv, fileStoreKind } from '../config.js';
import { ServerProcess, removeDataDir, tempDataDir } from './process.js';

describe('the configuration', () => {
  it('has a default for every variable', () => {
    expect(configFromEnv({})).toEqual({
      port: 9991,
      host: '127.0.0.1',
      dataDir: path.resolve('data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      redisPrefix: 'parley:',
      fileStore: undefined,
      demo: true,
      demoPassword: 'parley-demo',
      clientDir: path.resolve('dist'),
      longPollSeconds: 50,
      queueIdleSeconds: 600,
      scryptCost: 16384,
      rateLimitPerMinute: 200,
      loginAttempts: 5,
      loginWindowSeconds: 1800,
      trustedProxies: [],
      metricsAllow: [],
      webhookAllow: [],
      externalUrl: 'http://127.0.0.1:9991',
      externalUrlConfigured: false,
      logLevel: 'info',
      smtpUrl: undefined,
      noreplyEmail: undefined,
      mailPollMs: 5000,
      mailRetryMs: 30_000,
      webPublicEvents: true,
      webPublicEventsMax: 10_000,
      webPublicHeartbeatMs: 25_000,
    });
  });

  it('reads every variable, and takes an empty one as unset', () => {
    const config = configFromEnv({
      PORT: '8080',
      HOST: '::',
      PARLEY_DATA_DIR: '/srv/parley',
      DATABASE_URL: 'postgres://parley:secret@db:5432/parley',
      REDIS_URL: 'redis://cache:6379',
      PARLEY_FILE_STORE: ' Disk ',
      PARLEY_DEMO: '0',
      PARLEY_DEMO_PASSWORD: ' spaced out ',
      PARLEY_CLIENT_DIR: '/srv/client',
      PARLEY_LONGPOLL_SECONDS: '20',
      PARLEY_QUEUE_IDLE_SECONDS: '120',
      PARLEY_SCRYPT_COST: '1024',
      PARLEY_RATE_LIMIT: ' 500 ',
      PARLEY_LOGIN_ATTEMPTS: '3',
      PARLEY_LOGIN_WINDOW_SECONDS: '60',
      PARLEY_TRUSTED_PROXIES: 'loopback, 10.0.0.0/8',
      PARLEY_METRICS_ALLOW: '192.0.2.10,2001:db8::/32',
      PARLEY_WEBHOOK_ALLOW: 'loopback, 192.168.1.0/24',
      PARLEY_EXTERNAL_URL: 'https://chat.example.com/',
      LOG_LEVEL: 'DEBUG',
      PARLEY_QUIET: '',
      PARLEY_SMTP_URL: 'smtps://mailer:secret@mail.example.com:465/',
      PARLEY_NOREPLY_EMAIL: ' chat@example.com ',
      PARLEY_WEB_PUBLIC_EVENTS: 'off',
      PARLEY_WEB_PUBLIC_EVENTS_MAX: '500',
    });
    expect(config).toEqual({
      port: 8080,
      host: '::',
      dataDir: '/srv/parley',
      databaseUrl: 'postgres://parley:secret@db:5432/parley',
      redisUrl: 'redis://cache:6379',
      redisPrefix: 'parley:',
      fileStore: 'disk',
      demo: false,
      demoPassword: ' spaced out ',
      clientDir: '/srv/client',
      longPollSeconds: 20,
      queueIdleSeconds: 120,
      scryptCost: 1024,
      rateLimitPerMinute: 500,
      loginAttempts: 3,
      loginWindowSeconds: 60,
      trustedProxies: ['loopback', '10.0.0.0/8'],
      metricsAllow: ['192.0.2.10', '2001:db8::/32'],
      webhookAllow: ['loopback', '192.168.1.0/24'],
      externalUrl: 'https://chat.example.com',
      externalUrlConfigured: true,
      logLevel: 'debug',
      smtpUrl: 'smtps://mailer:secret@mail.example.com:465',
      noreplyEmail: 'chat@example.com',
      mailPollMs: 5000,
      mailRetryMs: 30_000,
      webPublicEvents: false,
      webPublicEventsMax: 500,
      webPublicHeartbeatMs: 25_000,
    });
    expect(configFromEnv({ HOST: '::1', PORT: '' }).externalUrl).toBe('http://[::1]:9991');
    expect(configFromEnv({ PARLEY_QUIET: '1' }).logLevel).toBe('warn');
    // Files go into the database on PostgreSQL unless told otherwise, onto the disk on SQLite.
    const postgres = { DATABASE_URL: 'postgres://parley@db/parley' };
    expect(fileStoreKind(configFromEnv(postgres))).toBe('database');
    expect(fileStoreKind(configFromEnv({ ...postgres, PARLEY_FILE_STORE: 'disk' }))).toBe('disk');
    expect(fileStoreKind(configFromEnv({}))).toBe('disk');
    expect(fileStoreKind(configFromEnv({ PARLEY_FILE_STORE: 'database' }))).toBe('database');
    expect(configFromEnv({ PARLEY_QUIET: '1', LOG_LEVEL: 'error' }).logLevel).toBe('error');
  });

  const refusals: [Record<string, string>, string][] = [
    [
      { PARLEY_RATE_LIMIT: '2OO' },
      'PARLEY_RATE_LIMIT must be a whole number of requests per minute, at least 1, not "2OO"',
    ],
    [{ PARLEY_RATE_LIMIT: '0' }, 'PARLEY_RATE_LIMIT must be a whole number'],
    [{ PORT: 'abc' }, 'PORT must be a port number from 0 to 65535, not "abc"'],
    [{ PORT: '65536' }, 'PORT must be a port number from 0 to 65535, not "65536"'],
    [{ HOST: 'my host' }, 'HOST must be an IP address or host name, not "my host"'],
    [{ PARLEY_DEMO: 'yes please' }, 'PARLEY_DEMO must be 1'],
    [{ PARLEY_LONGPOLL_SECONDS: '1.5' }, 'PARLEY_LONGPOLL_SECONDS must be a whole number'],
    [{ PARLEY_QUEUE_IDLE_SECONDS: '-1' }, 'PARLEY_QUEUE_IDLE_SECONDS must be a whole number'],
    [{ PARLEY_SCRYPT_COST: '10000' }, 'PARLEY_SCRYPT_COST must be a power of two'],
    [{ PARLEY_LOGIN_ATTEMPTS: 'five' }, 'PARLEY_LOGIN_ATTEMPTS must be a whole number'],
    [{ PARLEY_LOGIN_WINDOW_SECONDS: '30m' }, 'PARLEY_LOGIN_WINDOW_SECONDS must be a whole'],
    [{ PARLEY_MISSED_MESSAGE_DELAY: '0' }, 'PARLEY_MISSED_MESSAGE_DELAY must be a whole number'],
    [{ PARLEY_TRUSTED_PROXIES: '10.0.0.1/33' }, 'PARLEY_TRUSTED_PROXIES must be a comma'],
    [{ PARLEY_METRICS_ALLOW: 'prometheus.local' }, 'PARLEY_METRICS_ALLOW must be a comma'],
    [{ PARLEY_WEBHOOK_ALLOW: 'intranet' }, 'PARLEY_WEBHOOK_ALLOW must be a comma'],
    [{ PARLEY_EXTERNAL_URL: 'chat.example.com' }, 'PARLEY_EXTERNAL_URL must be the http://'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug'],
    [{ PARLEY_QUIET: 'shh' }, 'PARLEY_QUIET must be 1'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ PARLEY_FILE_STORE: 's3' }, 'PARLEY_FILE_STORE must be one of disk, database, not "s3"'],
    [{ PARLEY_SMTP_URL: 'mail.example.com:25' }, 'PARLEY_SMTP_URL must be an smtp://'],
    [{ PARLEY_NOREPLY_EMAIL: 'noreply' }, 'PARLEY_NOREPLY_EMAIL must be an email address'],
    [{ PARLEY_WEB_PUBLIC_EVENTS: 'sometimes' }, 'PARLEY_WEB_PUBLIC_EVENTS must be 1'],
    [{ PARLEY_WEB_PUBLIC_EVENTS_MAX: '0' }, 'PARLEY_WEB_PUBLIC_EVENTS_MAX must be a whole number'],
  ];
  it.each(refusals)('refuses %o', (env, message) => {
    expect(() => configFromEnv(env)).toThrow(ConfigError);
    expect(() => configFromEnv(env)).toThrow(`Invalid configuration: ${message}`);
  });

  it('never repeats the value of a variable that may hold a password', () => {
    const attempt = () =>
      configFromEnv({ DATABASE_URL: 'mysql://parley:hunter2@db/parley', PORT: 'x' });
    expect(attempt).toThrow(
      'Invalid configuration: PORT must be a port number from 0 to 65535, not "x"; ' +
        'DATABASE_URL must be a postgres://USER:PASSWORD@HOST:PORT/DATABASE URL',
    );
    expect(attempt).not.toThrow(/hunter2/);
  });
});

describe('a server started with a bad value', () => {
  it('prints one line naming every fault and exits with code 2', async () => {
    const dataDir = tempDataDir();
    try {
      const server = new ServerProcess({
        PARLEY_DATA_DIR: dataDir,
        PARLEY_RATE_LIMIT: '2OO',
        PORT: 'abc',
      });
      const { code } = await server.exited;
      expect(code).toBe(2);
      expect(server.lines).toHaveLength(1);
      expect(JSON.parse(server.lines[0]!)).toMatchObject({
        level: 60,
        msg:
          'Invalid configuration: PORT must be a port number from 0 to 65535, not "abc"; ' +
          'PARLEY_RATE_LIMIT must be a whole number of requests per minute, at least 1, not "2OO"',
      });
    } finally {
      removeDataDir(dataDir);
    }
  }, 60_000);
});
