import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isProblem } from '../api/client';
import { keys } from '../api/keys';

/** A 401 anywhere means the session is gone: forgetting the account sends every guarded page to sign-in. */
function onError(error: unknown) {
  if (isProblem(error, 401)) queryClient.setQueryData(keys.account, null);
}

/** The tab's one query cache: made by boot.ts (which fills it before the app is loaded), used by main.tsx. */
export const queryClient = new QueryClient({
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
