import { ops } from '@judge/sdk/browser';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { call, isProblem } from '../api/client';
import { keys } from '../api/keys';

/** The signed-in account, or null when nobody is (a 401 is an answer here, not an error). */
export function useAccount() {
  return useQuery({
    queryKey: keys.account,
    queryFn: async () => {
      try {
        return await call(ops.getAccount);
      } catch (e) {
        if (isProblem(e, 401)) return null;
        throw e;
      }
    },
    staleTime: 60_000,
  });
}

/** The instance's public settings (name, whether self-registration is open). */
export function useInstance() {
  return useQuery({ queryKey: keys.instance, queryFn: () => call(ops.getInstance), staleTime: 5 * 60_000 });
}

/** Where sign-in returns to: a path of this app only, never another site. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/**
 * Drops what one session fetched, when another begins or it ends. The account and instance
 * queries stay: the frame and the socket observe them, and an observer of a removed query would
 * never hear of the new one.
 */
export function forgetSessionData(qc: QueryClient): void {
  qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'account' && q.queryKey[0] !== 'instance' });
}
