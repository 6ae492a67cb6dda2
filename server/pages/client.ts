/*
 * The pages the server answers with in place of the web client: when it has not been built, and
 * for an address that is neither one of its files nor one of its routes.
 */

export const NOT_BUILT_PAGE =
  '<!doctype html><title>Parley</title><p>The web client has not been built. Run <code>npm run build</code> (npm start does it for you).</p>';

export const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<meta name="color-scheme" content="light dark">' +
  '<title>Page not found · Parley</title>' +
  '<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#f4f5f8;color:#1f2329}' +
  'main{max-width:26rem;padding:2rem;text-align:center}h1{font-size:1.5rem;margin:0 0 .5rem}p{margin:0 0 1.5rem;color:#5b6270}' +
  'a{display:inline-block;padding:.5rem 1.25rem;border-radius:6px;background:#3a6fd8;color:#fff;text-decoration:none;font-weight:600}' +
  'a:focus-visible{outline:3px solid #9bb8f0;outline-offset:2px}' +
  '@media (prefers-color-scheme:dark){body{background:#17191d;color:#e6e8eb}p{color:#a3a9b4}}</style>' +
  '<main><h1>Page not found</h1><p>There is nothing at this address.</p><a href="/">Open Parley</a></main>';
