/// <reference types="vitest/config" />
// The test settings below are read by vitest only; the build imports nothing of it, so a production
// install (`npm ci --omit=dev`) builds the client without the test tools.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { CLIENT_ROUTES } from './server/http/client-routes';

const proxyTarget = process.env.PARLEY_PROXY_TARGET ?? 'http://127.0.0.1:9991';

/**
 * Files worth compressing: text. Fonts in woff/woff2 and images are compressed already, and the
 * .ttf fallbacks of KaTeX's fonts are never fetched by a browser that reads woff2.
 */
/**
 * Server test files that need a fresh worker: one mocks a module the server imports (node:crypto),
 * two load zulip-js, which replaces the global FormData for good.
 */
const ISOLATED_SERVER_TESTS = [
  'server/test/auth-security.test.ts',
  'server/test/bindings-examples.test.ts',
  'server/test/bindings-js.test.ts',
];

const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt|ico)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * KaTeX's stylesheet declares its fonts with `font-display: block`, so math stays invisible until
 * they arrive; `swap` shows it at once in a fallback font and redraws when they come.
 */
function katexFontDisplay(): Plugin {
  return {
    name: 'parley-katex-font-display',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]katex[\\/]dist[\\/]katex(\.min)?\.css$/.test(id)) return null;
      return { code: code.replaceAll('font-display:block', 'font-display:swap'), map: null };
    },
  };
}

/**
 * react-router's bundle creates its components and contexts in top-level calls that carry no
 * pure mark (`var NavLink = React.forwardRef(...)`) and names them for the developer tools
 * (`NavLink.displayName = "NavLink"`), so the bundler keeps each of them and all the router they
 * reach (the data router, forms, route matching), though the app uses only BrowserRouter,
 * Navigate and a few hooks. With the calls marked pure (they only build objects) and the names
 * left out, it drops the unused ones (11 KB of the first view's script that never ran).
 */
function reactRouterTreeShaking(): Plugin {
  return {
    name: 'parley-react-router-tree-shaking',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]react-router[\\/]dist[\\/].*\.mjs$/.test(id)) return null;
      return {
        code: code
          .replace(
            /^(var \w+ = )(React\d*\.(?:forwardRef|memo|createContext)\()/gm,
            '$1/* @__PURE__ */ $2',
          )
          .replace(/^\w+\.displayName = "[\w.]+";$/gm, ''),
        map: null,
      };
    },
  };
}

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of the build, at the
 * highest levels since it happens once; the server sends the one the browser accepts
 * (server/http/static.ts). Source maps are left out: only developer tools fetch them.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'parley-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = fs
        .readdirSync(outDir, { recursive: true, encoding: 'utf8' })
        .filter((f) => COMPRESSIBLE.test(f))
        .map((f) => path.join(outDir, f));
      await Promise.all(
        files.map(async (file) => {
          const data = await fs.promises.readFile(file);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          // A copy that saves little is not worth a second file to look up.
          if (br.length < data.length * 0.9) await fs.promises.writeFile(file + '.br', br);
          if (gz.length < data.length * 0.9) await fs.promises.writeFile(file + '.gz', gz);
        }),
      );
    },
  };
}

/**
 * The browser gets Preact's React-compatible layer instead of react-dom: the same components and
 * hooks, in about a tenth of the code (react-dom was 200 KB of the first view's 490 KB, most of it
 * never run on that view). The unit tests keep React itself (Testing Library drives it).
 */
const preactForReact = process.env.VITEST
  ? []
  : [
      { find: /^react$/, replacement: 'preact/compat' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
    ];

/** The app's own addresses (server/http/client-routes.ts) as patterns, for the service worker. */
const CLIENT_ROUTE_PATTERNS = CLIENT_ROUTES.map(
  (route) =>
    new RegExp(
      '^' +
        (route.endsWith('/*') ? `${route.slice(0, -2)}(?:/.*)?` : `${route}/?`).replace(
          /\//g,
          '\\/',
        ) +
        '$',
    ),
);

/**
 * The installable app: a web app manifest, and a service worker (Workbox, through
 * vite-plugin-pwa) that keeps the app's shell and every script and style it has loaded, so that
 * the app starts without the network. Only the app's own addresses get the kept shell; the pages
 * the server renders (invitations, password resets) and the API always go to the server.
 */
function installableApp() {
  return VitePWA({
    injectRegister: false,
    registerType: 'autoUpdate',
    manifest: {
      name: 'Parley',
      short_name: 'Parley',
      description: 'Team chat organised by channels and topics',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#f3f4f7',
      theme_color: '#3b6fd4',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        {
          src: '/icons/maskable-192.png',
          sizes: '192x192',
          type: 'image/png',
          purpose: 'maskable',
        },
        {
          src: '/icons/maskable-512.png',
          sizes: '512x512',
          type: 'image/png',
          purpose: 'maskable',
        },
        { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
      ],
    },
    workbox: {
      // Only the shell up front; scripts and styles are kept as they are first loaded.
      globPatterns: ['index.html'],
      navigateFallback: '/index.html',
      navigateFallbackAllowlist: CLIENT_ROUTE_PATTERNS,
      cleanupOutdatedCaches: true,
      runtimeCaching: [
        {
          // Hashed names never change: kept until a newer build's replace them.
          urlPattern: ({ url }) => url.pathname.startsWith('/assets/'),
          handler: 'CacheFirst',
          options: { cacheName: 'parley-assets', expiration: { maxEntries: 400 } },
        },
      ],
    },
  });
}

export default defineConfig({
  plugins: [
    react(),
    precompress(),
    katexFontDisplay(),
    reactRouterTreeShaking(),
    process.env.VITEST ? [] : installableApp(),
  ],
  resolve: { alias: preactForReact },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: proxyTarget, changeOrigin: true, secure: false },
      '/static': { target: proxyTarget, changeOrigin: true, secure: false },
      '/user_avatars': { target: proxyTarget, changeOrigin: true, secure: false },
      '/user_uploads': { target: proxyTarget, changeOrigin: true, secure: false },
    },
  },
  // The app's main chunk is about 890 KB minified (241 KB of brotli on the wire), which the
  // benchmark's first_page_kb watches; Vite's 500 KB warning would only alarm whoever runs npm start.
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1024 },
  test: {
    // Vitest's default leaves one core of a two-core machine idle, while most server test files
    // spend much of their time waiting on a server, a child process or a long-poll: one file per
    // core keeps both busy.
    maxWorkers: Number(process.env.PARLEY_TEST_WORKERS) || os.availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          exclude: ISOLATED_SERVER_TESTS,
          // The server's files share their workers: a fresh worker per file imported the whole
          // server again, which was half of these files' run time. Each file starts servers of
          // its own and restores what it spies on. The mutation run needs a fresh worker per run
          // (a mutant is a module mock), so it keeps isolation.
          isolate: Boolean(process.env.PARLEY_MUTATE),
          // mutation-setup is inert unless PARLEY_MUTATE is set (npm run mutation)
          setupFiles: ['server/test/mutation-setup.ts', 'server/test/worker-globals.ts'],
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      {
        extends: true,
        test: {
          // Files that mock a module the server imports need the server imported afresh.
          name: 'server (isolated)',
          environment: 'node',
          include: ISOLATED_SERVER_TESTS,
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          // The client's files share a worker: a fresh one per file loaded jsdom again each time,
          // which was four fifths of these files' run time. src/test/shared-worker.ts unmounts
          // after each case and empties the page, storage and URL after each file.
          isolate: false,
          setupFiles: ['src/test/setup-i18n.ts', 'src/test/shared-worker.ts'],
          testTimeout: 30000,
        },
      },
    ],
  },
});
