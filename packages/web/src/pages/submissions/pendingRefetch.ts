import type { SubmissionSummary } from '@judge/contract';
import { isPending } from '../../components/Verdict';
import { useLive } from '../../live/Live';

/** How often a screen with a submission still being judged asks again while the socket is down. */
export const OFFLINE_REFETCH_MS = 5000;

/**
 * A refetchInterval for queries holding submissions: none while the socket is open (its events
 * say when to fetch), every few seconds while it is not and something is still being judged, so
 * that the verdict arrives even without live updates.
 */
export function usePendingRefetch<T>(submissionsOf: (data: T) => Pick<SubmissionSummary, 'state' | 'verdict'>[]) {
  const { state } = useLive();
  return (query: { state: { data: T | undefined } }): number | false => {
    const data = query.state.data;
    if (state === 'open' || data === undefined) return false;
    return submissionsOf(data).some(isPending) ? OFFLINE_REFETCH_MS : false;
  };
}
