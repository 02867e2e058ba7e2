import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app';
import { loadStatusOnce } from './hooks/use-status-loader';
import { startI18n } from './i18n';
import { keepInviteCodeOfVisit } from './lib/invite-code';
import { bindNavigator } from './lib/navigation';
import { createAppRouter, preloadRoute } from './routes';
import './styles.css';

async function start(): Promise<void> {
  keepInviteCodeOfVisit(window.location);
  void loadStatusOnce();
  // The page's code and texts load beside the shell's texts, not after the first render reaches the route; the
  // first render waits for both, so the page shows in it (with its data asked for at once), not after a placeholder.
  const i18nStarted = startI18n();
  await Promise.all([i18nStarted, preloadRoute(window.location.pathname)]);
  const router = createAppRouter();
  bindNavigator((path, options) => router.navigate(path, options));
  const container = document.getElementById('root');
  if (!container) return;
  const root = createRoot(container);
  // Synchronously: the effects of the first render (the page's data requests among them) then run as soon as it is
  // committed, not after the browser has laid out and painted the whole page.
  flushSync(() =>
    root.render(
      <StrictMode>
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    ),
  );
}

void start();
