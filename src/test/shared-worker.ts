/**
 * The client's test files share a jsdom worker (vite.config.ts), so each leaves it as it found
 * it: rendered trees unmounted after every case, and the page, storage and URL emptied after
 * every file, whether or not the file cleans up after itself.
 */
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';

afterEach(() => cleanup());

afterAll(() => {
  cleanup();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  document.documentElement.removeAttribute('style');
  document.documentElement.removeAttribute('class');
  for (const name of [...document.documentElement.attributes].map((a) => a.name))
    if (name.startsWith('data-')) document.documentElement.removeAttribute(name);
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});
