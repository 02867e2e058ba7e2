import { StrictMode } from 'react';
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
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

void start();
