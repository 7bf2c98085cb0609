import type { SubmissionDetail, SubmissionSummary } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useActivitySeries } from '../useActivitySeries';
import { problemLetter } from '../../activity/letters';
import { streamListQuery, type StreamQuery } from './streamList';

/** A page of the activity's submissions as GET /submissions filters them. */
export function useStream(query: StreamQuery) {
  return useQuery({ ...streamListQuery(query), placeholderData: keepPreviousData });
}

/** One submission as staff read it: every attempt, its runner and files. */
export function useStaffSubmission(id: string) {
  return useQuery({ queryKey: keys.staffSubmission(id), queryFn: () => call(ops.getSubmission, { params: { id } }) });
}

/** The same author's submission to the same problem just before this one, if any. */
export function usePreviousSubmission(s: SubmissionDetail) {
  const query = { activityId: s.activityId, userId: s.userId, seriesProblemId: s.seriesProblemId, submittedBefore: s.submittedAt, page: 1, pageSize: 1 };
  const list = useQuery({ queryKey: keys.staffSubmissions(query), queryFn: () => call(ops.listSubmissions, { query }), staleTime: 60_000 });
  const prev: SubmissionSummary | undefined = list.data?.items[0];
  const detail = useQuery({
    queryKey: keys.staffSubmission(prev?.id ?? ''),
    queryFn: () => call(ops.getSubmission, { params: { id: prev!.id } }),
    enabled: !!prev,
  });
  return { pending: list.isPending || (!!prev && detail.isPending), error: list.error ?? detail.error, previous: prev ? detail.data : undefined };
}

/** How many submissions an assignment holds: what rejudging all of it queues. */
export function useAssignmentCount(activityId: string, seriesProblemId: string, enabled: boolean) {
  const query = { activityId, seriesProblemId, page: 1, pageSize: 1 };
  return useQuery({ queryKey: keys.staffSubmissions(query), queryFn: () => call(ops.listSubmissions, { query }), enabled, select: (p) => p.total });
}

export interface ProblemLabel {
  letter: string;
  name: string;
  seriesName: string;
  seriesSlug: string;
}

/** Each assignment of the activity by id with its letter in its series (A, B, …), for the stream's problem column and picker. */
export function useProblemLabels(slug: string): { labels: Map<string, ProblemLabel>; series: { id: string; name: string; problems: { id: string; label: ProblemLabel }[] }[] } {
  const q = useActivitySeries(slug);
  const labels = new Map<string, ProblemLabel>();
  const series = (q.data ?? []).map((s) => ({
    id: s.id,
    name: s.name,
    problems: [...(s.problems ?? [])]
      .sort((a, b) => a.order - b.order)
      .map((p, i) => {
        const label = { letter: problemLetter(i), name: p.name, seriesName: s.name, seriesSlug: s.slug };
        labels.set(p.id, label);
        return { id: p.id, label };
      }),
  }));
  return { labels, series };
}

/**
 * A change to a submission: its page and every stream are fetched again once it is done (the
 * socket tells too, but the one who acted should not wait for it).
 */
export function useSubmissionAction<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: ['staffSubmission'] }), qc.invalidateQueries({ queryKey: ['staffSubmissions'] })]),
  });
}
