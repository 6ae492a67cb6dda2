/**
 * npm run lighthouse: Lighthouse (the npm package) on the logged-in web client, in Debian's
 * Chromium, against a demo server started here on a free port. Needs the built client (dist/,
 * `npm run build`). Prints one JSON line per figure (the same form as `npm run bench`) and the
 * biggest unused scripts; `npm run bench` takes the same figures when dist/ exists.
 *
 * The page is the inbox after a login through the login form (Lighthouse keeps the browser's
 * storage, so it loads logged in), at desktop size with Lighthouse's simulated throttling.
 * PARLEY_LIGHTHOUSE_REPORT=FILE keeps Lighthouse's whole report (JSON) there.
 *
 * A figure Lighthouse could not really take is an error, not a 0: the scripts must have come
 * from the network, the coverage must have found unused code somewhere, and Lighthouse must not
 * have given up waiting for the page.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type Page } from 'playwright';
import { configFromEnv } from '../server/config.js';
import { startServer } from '../server/server.js';

export interface LighthouseFigures {
  scores: Record<string, number>;
  /** bytes of JavaScript the first view downloads, as sent (compressed) */
  scriptTransferBytes: number;
  /**
   * what Lighthouse's "unused JavaScript" counts on that view, in bytes: the scripts with more
   * than 20 KiB unused each (Lighthouse leaves smaller ones out)
   */
  unusedScriptBytes: number;
  /** the same over every script, however little each leaves unused */
  unusedScriptBytesAllScripts: number;
  /** the render-blocking resources' estimated cost, in ms */
  renderBlockingMs: number;
  /** fonts without font-display that Lighthouse flags */
  fontDisplayFailures: number;
  /** every script's unused bytes, the most first, with its biggest unused sources */
  unusedByScript: { url: string; wastedBytes: number; sources: { source: string; wastedBytes: number }[] }[]; // prettier-ignore
}

/** Lighthouse's own limit: a script with no more unused bytes than this is not listed. */
const UNUSED_SCRIPT_LISTED_ABOVE = 20 * 1024;

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

interface AuditItem {
  url?: string;
  wastedBytes?: number;
  transferSize?: number;
  resourceType?: string;
  sessionTargetType?: string;
  finished?: boolean;
  subItems?: { items?: { source?: string; sourceWastedBytes?: number }[] };
}

interface AuditItems {
  details?: { items?: AuditItem[]; overallSavingsMs?: number; overallSavingsBytes?: number };
  score?: number | null;
  scoreDisplayMode?: string;
  errorMessage?: string;
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
    await forgetAllButTheLogin(page, server.url);
    const lhr = await runLighthouse(`${server.url}/inbox`, debugPort);
    if (!lhr.finalDisplayedUrl.endsWith('/inbox'))
      throw new Error(`Lighthouse measured ${lhr.finalDisplayedUrl}, not the inbox`);
    if (process.env.PARLEY_LIGHTHOUSE_REPORT)
      fs.writeFileSync(process.env.PARLEY_LIGHTHOUSE_REPORT, JSON.stringify(lhr));
    return summarize(lhr);
  } finally {
    await context.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * A first visit's download, logged in: the storage that holds the login is kept, and everything
 * that would answer Lighthouse's page without the network is emptied or stopped:
 * - the service worker the login registered, with its Cache Storage: it answered the page and
 *   every script from its copy, and Lighthouse counted 0 bytes of script, so 0 unused;
 * - the login's tab, whose app went on loading chunks (the views it fetches once idle) into the
 *   HTTP cache while Lighthouse measured;
 * - the HTTP cache the login filled.
 */
async function forgetAllButTheLogin(page: Page, origin: string) {
  // The worker registers once the page has loaded; wait for it, so that no install of it is still
  // filling its cache after the clearing below.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.goto('about:blank');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', {
    origin,
    storageTypes: 'service_workers,cache_storage',
  });
  // A page of the origin that the app's worker would not answer, to ask what is left.
  await page.goto(`${origin}/health`);
  const left = await page.evaluate(async () => ({
    workers: (await navigator.serviceWorker.getRegistrations()).length,
    caches: (await caches.keys()).length,
  }));
  if (left.workers > 0 || left.caches > 0)
    throw new Error(`the service worker outlived the clearing: ${JSON.stringify(left)}`);
  await page.goto('about:blank');
  await cdp.send('Network.clearBrowserCache');
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
      // No service worker: it would take over the page once installed (the worker of a first
      // visit does), and what it fetches for the page Lighthouse sees as sent from its copy.
      blockedUrlPatterns: ['*/sw.js'],
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    },
    {
      extends: 'lighthouse:default',
      settings: {
        formFactor: 'desktop',
        screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false }, // prettier-ignore
        throttling: { rttMs: 40, throughputKbps: 10240, cpuSlowdownMultiplier: 1, requestLatencyMs: 0, downloadThroughputKbps: 0, uploadThroughputKbps: 0 }, // prettier-ignore
      },
      // Every script's unused bytes, and every source's within it; the 20 KiB by which the
      // audit's own figure goes is applied in summarize().
      audits: [
        {
          path: 'byte-efficiency/unused-javascript',
          options: { unusedThreshold: 0, bundleSourceUnusedThreshold: 0 },
        },
      ],
    },
  );
  if (!result) throw new Error('Lighthouse gave no result');
  return result.lhr;
}

type Report = Awaited<ReturnType<typeof runLighthouse>>;

/** An audit's result, or an error where Lighthouse could not take it (its figures would read 0). */
function measuredAudit(lhr: Report, id: string): AuditItems {
  const audit = lhr.audits[id] as unknown as AuditItems | undefined;
  if (!audit) throw new Error(`Lighthouse's report has no audit ${id}`);
  if (audit.scoreDisplayMode === 'error' || audit.errorMessage)
    throw new Error(`Lighthouse's audit ${id} failed: ${audit.errorMessage ?? 'no reason given'}`);
  return audit;
}

/** The items of an audit that always lists some (requests, scripts). */
function auditItems(lhr: Report, id: string): AuditItem[] {
  const items = measuredAudit(lhr, id).details?.items;
  if (!items) throw new Error(`Lighthouse's audit ${id} lists nothing`);
  return items;
}

function summarize(lhr: Report): LighthouseFigures {
  if (lhr.runWarnings.length > 0)
    throw new Error(`Lighthouse's figures are not to be trusted: ${lhr.runWarnings.join(' ')}`);
  const scores = Object.fromEntries(
    Object.entries(lhr.categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)]),
  );
  const requests = auditItems(lhr, 'network-requests');
  // The page's own downloads; a service worker's fetches, if one starts, are not the first view's.
  const fromPage = requests.filter((r) => (r.sessionTargetType ?? 'page') === 'page');
  const scripts = fromPage.filter((r) => r.resourceType === 'Script');
  if (scripts.length === 0) throw new Error('Lighthouse saw the page load no script');
  // Lighthouse counts unused bytes in proportion to the bytes sent: a document or script that
  // came from a cache or a service worker (0 bytes sent) made every figure 0.
  const code = fromPage.filter((r) => r.resourceType === 'Script' || r.resourceType === 'Document');
  const urls = (list: AuditItem[]) => list.map((r) => r.url).join(', ');
  const unfinished = code.filter((r) => !r.finished);
  if (unfinished.length > 0)
    throw new Error(`Lighthouse stopped while these still loaded: ${urls(unfinished)}`);
  const notDownloaded = code.filter((r) => !r.transferSize);
  if (notDownloaded.length > 0)
    throw new Error(
      `Lighthouse saw these come from a cache, not the network: ${urls(notDownloaded)}`,
    );
  const unused = auditItems(lhr, 'unused-javascript')
    .map((r) => ({
      url: r.url ?? '',
      wastedBytes: r.wastedBytes ?? 0,
      sources: (r.subItems?.items ?? []).map((s) => ({
        source: s.source ?? '',
        wastedBytes: s.sourceWastedBytes ?? 0,
      })),
    }))
    .sort((a, b) => b.wastedBytes - a.wastedBytes);
  const total = (items: { wastedBytes: number }[]) =>
    items.reduce((sum, r) => sum + r.wastedBytes, 0);
  if (total(unused) === 0)
    throw new Error("Lighthouse's coverage found no unused JavaScript at all: it measured nothing");
  // A script run after the network log stopped (code the page fetched once idle) is counted by
  // the coverage at its guessed size, not as sent: the window did not hold one first view.
  const unlogged = unused.filter((u) => !scripts.some((r) => r.url === u.url));
  if (unlogged.length > 0)
    throw new Error(
      `Lighthouse's coverage counted scripts its network log did not see: ${unlogged.map((u) => u.url).join(', ')}`,
    );
  return {
    scores,
    scriptTransferBytes: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    unusedScriptBytes: total(unused.filter((u) => u.wastedBytes > UNUSED_SCRIPT_LISTED_ABOVE)),
    unusedScriptBytesAllScripts: total(unused),
    renderBlockingMs:
      measuredAudit(lhr, 'render-blocking-resources').details?.overallSavingsMs ?? 0,
    fontDisplayFailures: measuredAudit(lhr, 'font-display').details?.items?.length ?? 0,
    unusedByScript: unused,
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
          first_view_unused_script_kib: Math.round(f.unusedScriptBytes / 102.4) / 10,
          unused_script_all_scripts_kib: Math.round(f.unusedScriptBytesAllScripts / 1024),
          render_blocking_ms: f.renderBlockingMs,
          font_display_failures: f.fontDisplayFailures,
        }),
      );
      const kib = (bytes: number) => (bytes / 1024).toFixed(1);
      for (const u of f.unusedByScript) {
        console.log(`  unused ${kib(u.wastedBytes)} KiB ${new URL(u.url).pathname}`);
        for (const s of u.sources) console.log(`      ${kib(s.wastedBytes)} KiB ${s.source}`);
      }
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
