import type { SubmissionState } from '@judge/contract';

/**
 * The stream's filters as the address holds them, named exactly like GET /submissions' query
 * parameters, so that another page links to a filtered stream with the operation's own words
 * (`?state=queued`, `?verdict=WA`) and a filtered stream can be bookmarked.
 */
export interface StreamFilters {
  seriesId: string;
  seriesProblemId: string;
  userId: string;
  state: '' | SubmissionState;
  verdict: string;
  search: string;
  /** '' both, 'false' counted only, 'true' excluded only. */
  excluded: '' | 'true' | 'false';
  submittedFrom: string;
  submittedBefore: string;
  page: number;
}

export const STATES: SubmissionState[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];
export const VERDICTS = ['AC', 'WA', 'TLE', 'MLE', 'OLE', 'RTE', 'CE', 'JE', 'PA'] as const;

const TEXT_KEYS = ['seriesId', 'seriesProblemId', 'userId', 'verdict', 'search', 'submittedFrom', 'submittedBefore'] as const;

export function readFilters(p: URLSearchParams): StreamFilters {
  const state = p.get('state') ?? '';
  const excluded = p.get('excluded') ?? '';
  const text = Object.fromEntries(TEXT_KEYS.map((k) => [k, p.get(k) ?? ''])) as Record<(typeof TEXT_KEYS)[number], string>;
  return {
    ...text,
    state: (STATES as string[]).includes(state) ? (state as SubmissionState) : '',
    excluded: excluded === 'true' || excluded === 'false' ? excluded : '',
    page: Math.max(1, Math.floor(Number(p.get('page'))) || 1),
  };
}

/** The address of the filters: empty ones left out, page one left out. */
export function writeFilters(f: StreamFilters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of TEXT_KEYS) if (f[k]) out[k] = f[k];
  if (f.state) out.state = f.state;
  if (f.excluded) out.excluded = f.excluded;
  if (f.page > 1) out.page = String(f.page);
  return out;
}

/** Whether any filter narrows the stream (the page aside). */
export function narrowed(f: StreamFilters): boolean {
  return Object.keys(writeFilters({ ...f, page: 1 })).length > 0;
}

/** GET /submissions' query for the filters in one activity. */
export function streamQuery(f: StreamFilters, activityId: string, pageSize: number) {
  const { page, ...rest } = writeFilters(f);
  return { ...rest, activityId, page: page ? Number(page) : 1, pageSize };
}
