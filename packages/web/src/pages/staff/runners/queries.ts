import type { Runner } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';

/** Runners are a handful per installation: one page holds them all. */
const PAGE_SIZE = 200;

/**
 * Every runner, refetched on runnerChanged and whenever a submission moves on (its runner's
 * current job changed). Trials and sample runs send no event staff receive: while some runner
 * holds work the list is read again every few seconds, so that it shows when that work ends.
 */
export function useRunners(state: Runner['state'] | '') {
  return useQuery({
    queryKey: [...keys.runners, state],
    queryFn: () => call(ops.listRunners, { query: { pageSize: PAGE_SIZE, ...(state ? { state } : {}) } }),
    refetchInterval: (q) => (q.state.data?.items.some((r) => r.currentJob) ? 5_000 : false),
  });
}

export function useEnrolmentCodes(enabled: boolean) {
  return useQuery({ queryKey: keys.enrolmentCodes, queryFn: () => call(ops.listRunnerEnrolmentCodes), enabled });
}

/** A change to a runner; the list is read again afterwards (the event would say so too, a moment later). */
export function useRunnerAction<A>(fn: (arg: A) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: keys.runners }) });
}

/** A change to the enrolment codes, which no event announces: the list is read again here. */
export function useCodeAction<A, R>(fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: keys.enrolmentCodes }) });
}
