import { defineConfig, devices } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';

const port = Number(process.env.PARLEY_E2E_PORT ?? 9993);
const dataDir = path.join(os.tmpdir(), `parley-e2e-${process.pid}`);

/** The built app in Debian's Chromium against a real server on a fresh demo database. */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: process.env.PARLEY_E2E_REPORT ?? 'test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } }],
  webServer: {
    command: `rm -rf ${dataDir} && npx vite build --logLevel warn && npx tsx server/main.ts`,
    url: `http://127.0.0.1:${port}/api/v1/server_settings`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: {
      PORT: String(port),
      PARLEY_DATA_DIR: dataDir,
      PARLEY_DEMO: '1',
      PARLEY_QUIET: '1',
      PARLEY_RATE_LIMIT: '100000',
      PARLEY_LONGPOLL_SECONDS: '20',
    },
  },
});
