import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app';
import { loadStatusOnce } from './hooks/use-status-loader';
import { startI18n } from './i18n';
import { keepInviteCodeOfVisit } from './lib/invite-code';
import { bindNavigator } from './lib/navigation';
import { createAppRouter } from './routes';
import './styles.css';

async function start(): Promise<void> {
  keepInviteCodeOfVisit(window.location);
  void loadStatusOnce();
  await startI18n();
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
