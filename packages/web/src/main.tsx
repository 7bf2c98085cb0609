import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { queryClient } from './app/queryClient';
import { useAccount } from './app/session';
import { I18nProvider } from './i18n/I18n';
import { LiveProvider } from './live/Live';

function Live({ children }: { children: React.ReactNode }) {
  const account = useAccount();
  return <LiveProvider signedIn={!!account.data}>{children}</LiveProvider>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <Live>
          <App />
        </Live>
      </I18nProvider>
    </QueryClientProvider>
  </StrictMode>,
);
