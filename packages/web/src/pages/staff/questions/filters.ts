import type { ParticipantActivity } from '@judge/contract';

/** The queue's filters as the address holds them, so a filtered queue can be bookmarked and shared. */
export interface QuestionFilters {
  activity: string;
  series: string;
  kind: '' | 'question' | 'announcement';
  unanswered: boolean;
  search: string;
  page: number;
}

export function readFilters(p: URLSearchParams): QuestionFilters {
  const kind = p.get('kind');
  return {
    activity: p.get('activity') ?? '',
    series: p.get('series') ?? '',
    kind: kind === 'question' || kind === 'announcement' ? kind : '',
    unanswered: p.get('unanswered') === '1',
    search: p.get('q') ?? '',
    page: Math.max(1, Number(p.get('page')) || 1),
  };
}

/** The address of the filters: empty ones left out; any change but the page starts at page one. */
export function writeFilters(f: QuestionFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (f.activity) out.activity = f.activity;
  if (f.series) out.series = f.series;
  if (f.kind) out.kind = f.kind;
  if (f.unanswered) out.unanswered = '1';
  if (f.search) out.q = f.search;
  if (f.page > 1) out.page = String(f.page);
  return out;
}

/** GET /questions' query for the filters: the activity by id (the address names it by slug). */
export function questionsQuery(f: QuestionFilters, activities: ParticipantActivity[], pageSize: number) {
  const activityId = activities.find((a) => a.slug === f.activity || a.id === f.activity)?.id;
  return {
    page: f.page,
    pageSize,
    ...(activityId ? { activityId } : {}),
    ...(f.series ? { seriesId: f.series } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.unanswered ? { unansweredOnly: true } : {}),
    ...(f.search ? { search: f.search } : {}),
  };
}
