import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isProblem } from './api/client';
import { keys } from './api/keys';
import { App } from './app/App';
import { useAccount } from './app/session';
import { prefetchStaffActivityPage } from './app/staffPrefetch';
import { I18nProvider } from './i18n/I18n';
import { LiveProvider } from './live/Live';
import './styles/base.css';
import './styles/layout.css';

/** A 401 anywhere means the session is gone: forgetting the account sends every guarded page to sign-in. */
function onError(error: unknown) {
  if (isProblem(error, 401)) queryClient.setQueryData(keys.account, null);
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      // a refusal is an answer; only a server that cannot be reached is worth asking again
      retry: (count, error) => !isProblem(error) && count < 3,
      refetchOnWindowFocus: true,
      staleTime: 10_000,
    },
  },
});

function Live({ children }: { children: React.ReactNode }) {
  const account = useAccount();
  return <LiveProvider signedIn={!!account.data}>{children}</LiveProvider>;
}

prefetchStaffActivityPage(queryClient, window.location);

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
