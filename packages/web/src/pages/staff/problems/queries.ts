import type { Problem } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';

/** The library's filters as the address holds them: what GET /problems can filter by. */
export interface LibraryFilters {
  search: string;
  mine: boolean;
  /** Only what others shared with the reader; exclusive with `mine`. */
  shared: boolean;
  archived: boolean;
  page: number;
}

export function readLibraryFilters(p: URLSearchParams): LibraryFilters {
  const mine = p.get('mine') === '1';
  return { search: p.get('q') ?? '', mine, shared: !mine && p.get('shared') === '1', archived: p.get('archived') === '1', page: Math.max(1, Number(p.get('page')) || 1) };
}

/** The address of the filters: empty ones left out, so the plain library is /staff/problems. */
export function writeLibraryFilters(f: LibraryFilters): Record<string, string> {
  return {
    ...(f.search ? { q: f.search } : {}),
    ...(f.mine ? { mine: '1' } : {}),
    ...(f.shared ? { shared: '1' } : {}),
    ...(f.archived ? { archived: '1' } : {}),
    ...(f.page > 1 ? { page: String(f.page) } : {}),
  };
}

/** GET /problems' query for the filters. */
export function libraryQuery(f: LibraryFilters, pageSize: number) {
  return {
    page: f.page,
    pageSize,
    ...(f.search ? { search: f.search } : {}),
    ...(f.mine ? { mineOnly: 'true' as const } : {}),
    ...(f.shared ? { sharedOnly: 'true' as const } : {}),
    ...(f.archived ? { includeArchived: 'true' as const } : {}),
  };
}

/** A page of the library, kept on screen while the next filter's page loads. */
export function useLibrary(query: ReturnType<typeof libraryQuery>) {
  return useQuery({ queryKey: keys.staffProblems(query), queryFn: () => call(ops.listProblems, { query }), placeholderData: keepPreviousData });
}

export function useProblem(id: string) {
  return useQuery({ queryKey: keys.staffProblem(id), queryFn: () => call(ops.getProblem, { params: { id } }) });
}

export function useVersions(problem: Pick<Problem, 'id'>) {
  return useQuery({ queryKey: keys.staffVersions(problem.id), queryFn: () => call(ops.listProblemVersions, { params: { problemId: problem.id } }) });
}

export function useVersionContent(problemId: string, versionId: string | undefined) {
  return useQuery({
    queryKey: keys.staffVersionContent(problemId, versionId ?? ''),
    queryFn: () => call(ops.getProblemVersionContent, { params: { problemId, versionId: versionId! } }),
    enabled: !!versionId,
    staleTime: Infinity,
  });
}

/** An activity's series with every assignment, as its managers see them. */
export function useManagedSeries(slug: string) {
  return useQuery({ queryKey: keys.managedSeries(slug), queryFn: () => call(ops.listManagedSeries, { params: { idOrSlug: slug } }) });
}
