import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's old headless shell (package chromium-headless-shell) when it is installed: the full
// browser in headless mode also runs its own window interface in renderer processes, which took a
// third of the suite's time on two cores. PARLEY_CHROMIUM names another binary.
const chromium =
  process.env.PARLEY_CHROMIUM ??
  (fs.existsSync('/usr/bin/chromium-headless-shell')
    ? '/usr/bin/chromium-headless-shell'
    : '/usr/bin/chromium');

/**
 * The built app in Debian's Chromium against real servers: each spec file starts its own server
 * process on a fresh demo database (e2e/server.ts), so a test can restart it.
 */
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  // Generous bounds: a scenario with two browsers and a dozen screenshots took 60 s on a loaded
  // two-core machine (each page load 6-7 s); a wrong page still fails, only later.
  timeout: 180_000,
  expect: { timeout: 15_000 },
  // Two spec files at a time by default, each on its own server; a file's tests run in order.
  // With one at a time the machine sat mostly idle (CI used 78% of one core of two on average,
  // the tests waiting on pages and long-polls): two took the suite from 587 s to 446 s on the
  // same two-core machine, all 95 passing. PARLEY_E2E_WORKERS=1 runs one at a time.
  fullyParallel: false,
  workers: Number(process.env.PARLEY_E2E_WORKERS) || 2,
  // In CI a failing test runs once more: one that then passes is reported by name as flaky at
  // the end of `npm test` (scripts/test.mjs), to be fixed, rather than failing the run outright.
  retries: process.env.CI ? 1 : 0,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PARLEY_E2E_REPORT ?? 'test-results/e2e.json' }],
  ],
  use: {
    viewport: { width: 1280, height: 800 },
    // No trace while a test runs for the first time: recording one (a screencast of every frame
    // and a DOM snapshot at every action) doubled each scenario's time, mostly in Chromium's GPU
    // process. A failure keeps a screenshot; the retry in CI records the whole trace; locally,
    // `npx playwright test --trace retain-on-failure` records one for every failing test.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
