import { ops } from '@judge/sdk/browser';
import type { Account } from '@judge/contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { call, isProblem } from '../api/client';
import { keys } from '../api/keys';

/** The signed-in account, or null when nobody is (a 401 is an answer here, not an error). */
export function useAccount() {
  return useQuery(accountQuery);
}

/** The query behind useAccount, the same wherever it is fetched or prefetched. */
export const accountQuery = {
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
};

/** The instance's public settings (name, whether self-registration is open). */
export function useInstance() {
  return useQuery({ queryKey: keys.instance, queryFn: () => call(ops.getInstance), staleTime: 5 * 60_000 });
}

/** Where sign-in returns to: a path of this app only, never another site. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/**
 * A new session, or none: every screen's data goes, so nothing of the previous user shows, and the
 * account is set in place. Not clear(): the frame (Layout, the live socket) keeps observing the
 * account and instance queries, and would go on watching the removed ones, blind to the change.
 */
export function startOver(qc: QueryClient, account: Account | null): void {
  qc.removeQueries({ predicate: (q) => q.queryKey[0] !== keys.account[0] && q.queryKey[0] !== keys.instance[0] });
  qc.setQueryData(keys.account, account);
}
