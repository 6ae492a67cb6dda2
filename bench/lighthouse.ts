/**
 * npm run lighthouse: Lighthouse (the npm package) on the logged-in web client, in Debian's
 * Chromium, against a demo server started here on a free port. Needs the built client (dist/,
 * `npm run build`). Prints one JSON line per figure (the same form as `npm run bench`) and the
 * biggest unused scripts; `npm run bench` takes the same figures when dist/ exists.
 *
 * The page is the inbox after a login through the login form (Lighthouse keeps the browser's
 * storage, so it loads logged in), at desktop size with Lighthouse's simulated throttling.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright';
import { configFromEnv } from '../server/config.js';
import { startServer } from '../server/server.js';

export interface LighthouseFigures {
  scores: Record<string, number>;
  /** bytes of JavaScript the first view downloads, as sent (compressed) */
  scriptTransferBytes: number;
  /** what Lighthouse counts as unused JavaScript on that view, in bytes */
  unusedScriptBytes: number;
  /** the render-blocking resources' estimated cost, in ms */
  renderBlockingMs: number;
  /** fonts without font-display that Lighthouse flags */
  fontDisplayFailures: number;
  biggestUnused: { url: string; wastedBytes: number }[];
}

const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

interface AuditItems {
  details?: { items?: { url?: string; wastedBytes?: number; transferSize?: number; resourceType?: string }[]; overallSavingsMs?: number; overallSavingsBytes?: number }; // prettier-ignore
  score?: number | null;
}

export async function lighthouseFigures(root: string): Promise<LighthouseFigures> {
  if (!fs.existsSync(path.join(root, 'dist', 'index.html')))
    throw new Error('Lighthouse needs the built client: npm run build');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-lighthouse-'));
  const server = await startServer(
    { ...configFromEnv({}), port: 0, dataDir, demo: true },
    { demoPassword: 'parley-demo' },
  );
  const debugPort = await freePort();
  // A persistent context is the browser's default one, where Lighthouse opens its own tab: the
  // login below is then in that tab's storage. (With a context of Playwright's own, Lighthouse's
  // tab had none of it and measured the login page.)
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-lighthouse-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--remote-debugging-port=${debugPort}`,
    ],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/`);
    await page.getByLabel('Email').fill('iago@example.com');
    await page.getByLabel('Password').fill('parley-demo');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    // A first visit's download, logged in: the HTTP cache the login filled is emptied, the
    // storage that holds the login is kept.
    await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
    const lhr = await runLighthouse(`${server.url}/inbox`, debugPort);
    if (!lhr.finalDisplayedUrl.endsWith('/inbox'))
      throw new Error(`Lighthouse measured ${lhr.finalDisplayedUrl}, not the inbox`);
    return summarize(lhr);
  } finally {
    await context.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

/** Lighthouse at desktop size, with a fast network, keeping the logged-in browser's storage. */
async function runLighthouse(url: string, port: number) {
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      disableStorageReset: true,
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    },
    {
      extends: 'lighthouse:default',
      settings: {
        formFactor: 'desktop',
        screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false }, // prettier-ignore
        throttling: { rttMs: 40, throughputKbps: 10240, cpuSlowdownMultiplier: 1, requestLatencyMs: 0, downloadThroughputKbps: 0, uploadThroughputKbps: 0 }, // prettier-ignore
      },
    },
  );
  if (!result) throw new Error('Lighthouse gave no result');
  return result.lhr;
}

type Report = Awaited<ReturnType<typeof runLighthouse>>;

function summarize(lhr: Report): LighthouseFigures {
  const audit = (id: string) => lhr.audits[id] as unknown as AuditItems;
  const scores = Object.fromEntries(
    Object.entries(lhr.categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)]),
  );
  const requests = audit('network-requests').details?.items ?? [];
  const unused = audit('unused-javascript').details?.items ?? [];
  return {
    scores,
    scriptTransferBytes: requests
      .filter((r) => r.resourceType === 'Script')
      .reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    unusedScriptBytes: unused.reduce((sum, r) => sum + (r.wastedBytes ?? 0), 0),
    renderBlockingMs: audit('render-blocking-resources').details?.overallSavingsMs ?? 0,
    fontDisplayFailures: audit('font-display').details?.items?.length ?? 0,
    biggestUnused: unused
      .map((r) => ({ url: r.url ?? '', wastedBytes: r.wastedBytes ?? 0 }))
      .sort((a, b) => b.wastedBytes - a.wastedBytes)
      .slice(0, 5),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const root = path.resolve(path.dirname(import.meta.filename), '..');
  lighthouseFigures(root).then(
    (f) => {
      console.log(JSON.stringify({ lighthouse: f.scores }));
      console.log(
        JSON.stringify({
          first_view_script_kb: Math.round(f.scriptTransferBytes / 1024),
          unused_script_kib: Math.round(f.unusedScriptBytes / 1024),
          render_blocking_ms: f.renderBlockingMs,
          font_display_failures: f.fontDisplayFailures,
        }),
      );
      for (const u of f.biggestUnused)
        console.log(`  unused ${Math.round(u.wastedBytes / 1024)} KiB ${u.url}`);
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
