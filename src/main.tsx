import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import './i18n';
import { App } from './features/app/App';
import { applyColorScheme } from './features/settings/color-scheme';
import './styles/tokens.css';
import './styles/base.css';
import './styles/dialogs.css';
import './styles/shell.css';
import './styles/sidebar.css';
import './styles/messages.css';
import './styles/rendered-markdown.css';
import './styles/rendered-content.css';
import './styles/compose.css';
import './styles/drafts.css';
import './styles/views.css';
import './styles/search.css';
import './styles/keyboard.css';
import './styles/topics.css';
import './styles/emoji.css';
import './styles/message-actions.css';
import './styles/settings.css';
import './styles/groups.css';
import './styles/admin-users.css';
import './styles/admin.css';
import './styles/channels.css';
import './styles/people.css';
import './styles/widgets.css';
// Server-rendered math (KaTeX HTML) needs its stylesheet and fonts.
import 'katex/dist/katex.min.css';

// The system's theme until an account's own setting is known.
applyColorScheme();

// The service worker of the built app (vite.config.ts installableApp): the app starts without
// the network, and can be installed. Registered once the page has loaded, not to compete with it.
if (import.meta.env.PROD && 'serviceWorker' in navigator)
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // no service worker (a private window, an insecure origin): the app works online as ever
    });
  });

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
