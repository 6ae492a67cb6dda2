/**
 * The stylesheet of the pages the server renders itself: the web client's login card
 * (src/styles/views.css `.login-*`, base.css), with the tokens of src/styles/tokens.css copied
 * for both themes (a test keeps the copies equal). The pages follow the system's theme: nobody
 * who opens one is logged in, so no account's color_scheme applies. Inline in each page's head,
 * which the Content-Security-Policy allows for styles, so a page needs no second request.
 */
export const PAGE_STYLE = `
:root {
  color-scheme: light dark;
  --font-sans: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  --text-xs: 0.75rem;
  --text-sm: 0.8125rem;
  --text-md: 0.9375rem;
  --text-xl: 1.3125rem;
  --line-tight: 1.3;
  --line-body: 1.5;
  --space-1: 4px;
  --space-2: 8px;
  --space-3: 12px;
  --space-4: 16px;
  --space-5: 24px;
  --space-6: 32px;
  --radius-sm: 4px;
  --radius-md: 8px;
  --radius-lg: 12px;
  --color-surface: #ffffff;
  --color-sidebar-bg: #f3f4f7;
  --color-text: #1d2330;
  --color-text-muted: #5d6575;
  --color-border: #e1e4ea;
  --color-border-strong: #c9ced8;
  --color-accent: #3b6fd4;
  --color-accent-hover: #2f5cb5;
  --color-accent-text: #ffffff;
  --color-focus: #2f6fe4;
  --color-danger: #c2362f;
  --color-danger-soft: #fbeceb;
  --color-shadow: rgba(20, 24, 33, 0.12);
}
@media (prefers-color-scheme: dark) {
  :root {
    --color-surface: #1d2027;
    --color-sidebar-bg: #13151a;
    --color-text: #e3e6ec;
    --color-text-muted: #a2a9b7;
    --color-border: #2d313b;
    --color-border-strong: #3c414d;
    --color-accent: #6e96f0;
    --color-accent-hover: #89aaf4;
    --color-accent-text: #0f1420;
    --color-focus: #8fb0ff;
    --color-danger: #f07a72;
    --color-danger-soft: #3a2224;
    --color-shadow: rgba(0, 0, 0, 0.4);
  }
}
*, *::before, *::after { box-sizing: border-box; }
html, body { margin: 0; }
body {
  font-family: var(--font-sans);
  font-size: var(--text-md);
  line-height: var(--line-body);
  color: var(--color-text);
  background: var(--color-sidebar-bg);
  -webkit-font-smoothing: antialiased;
}
a { color: var(--color-accent); }
:focus-visible {
  outline: 2px solid var(--color-focus);
  outline-offset: 2px;
  border-radius: var(--radius-sm);
}
.signup-page {
  display: flex;
  align-items: center;
  justify-content: center;
  min-height: 100vh;
  padding: var(--space-5);
}
.signup-card {
  width: 100%;
  max-width: 400px;
  padding: var(--space-6) var(--space-5);
  border: 1px solid var(--color-border);
  border-radius: var(--radius-lg);
  background: var(--color-surface);
  box-shadow: 0 8px 30px var(--color-shadow);
}
.signup-card > :last-child { margin-bottom: 0; }
.signup-header {
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: var(--space-2);
  margin-bottom: var(--space-5);
  text-align: center;
}
.signup-header h1 {
  margin: 0;
  font-size: var(--text-xl);
  line-height: var(--line-tight);
  overflow-wrap: anywhere;
}
.signup-icon { display: block; border-radius: var(--radius-lg); }
.signup-realm {
  margin: 0;
  font-size: var(--text-sm);
  color: var(--color-text-muted);
  overflow-wrap: anywhere;
}
.signup-text {
  margin: 0 0 var(--space-3);
  color: var(--color-text-muted);
  text-align: center;
}
.signup-text b { color: var(--color-text); overflow-wrap: anywhere; }
form { display: flex; flex-direction: column; gap: var(--space-1); margin: 0; }
label { margin-top: var(--space-2); font-size: var(--text-sm); font-weight: 600; }
input {
  width: 100%;
  min-height: 38px;
  padding: var(--space-2) var(--space-3);
  border: 1px solid var(--color-border-strong);
  border-radius: var(--radius-md);
  background: var(--color-surface);
  font: inherit;
  color: inherit;
}
input:focus-visible { outline-offset: 0; border-color: var(--color-focus); }
.signup-hint { margin: 0; font-size: var(--text-xs); color: var(--color-text-muted); }
.signup-button {
  display: flex;
  align-items: center;
  justify-content: center;
  width: 100%;
  min-height: 42px;
  margin: var(--space-4) 0 0;
  padding: 0 var(--space-4);
  border: 1px solid var(--color-accent);
  border-radius: var(--radius-md);
  background: var(--color-accent);
  color: var(--color-accent-text);
  font: inherit;
  font-size: var(--text-sm);
  font-weight: 600;
  text-decoration: none;
  cursor: pointer;
}
.signup-button:hover { background: var(--color-accent-hover); border-color: var(--color-accent-hover); }
.signup-footer { margin: var(--space-4) 0 0; font-size: var(--text-sm); text-align: center; }
.signup-error {
  margin: 0 0 var(--space-3);
  padding: var(--space-2) var(--space-3);
  border-radius: var(--radius-md);
  background: var(--color-danger-soft);
  color: var(--color-danger);
  font-size: var(--text-sm);
}
@media (max-width: 480px) {
  .signup-page { padding: var(--space-3); }
  .signup-card { padding: var(--space-5) var(--space-4); }
}
`;
