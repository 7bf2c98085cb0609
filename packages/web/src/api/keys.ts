/**
 * Query keys of every screen, in one place so the socket's events can name what they make stale.
 * The first element is the family an event invalidates; the rest narrows to one screen's data.
 */
export const keys = {
  account: ['account'] as const,
  instance: ['instance'] as const,
  sessions: ['sessions'] as const,
  activities: ['activities'] as const,
  activity: (slug: string) => ['activity', slug] as const,
  series: (slug: string) => ['series', slug] as const,
  problem: (slug: string, problem: string) => ['problem', slug, problem] as const,
  submissions: (slug: string) => ['submissions', slug] as const,
  submission: (slug: string, id: string) => ['submission', slug, id] as const,
  ranking: (slug: string, seriesId?: string) => ['ranking', slug, seriesId ?? 'all'] as const,
  file: (fileId: string) => ['file', fileId] as const,
  /** A statement's or sample's text by its content hash: the same bytes never need fetching twice. */
  fileText: (sha256: string) => ['fileText', sha256] as const,
  questions: (slug: string) => ['questions', slug] as const,
  printouts: (slug: string) => ['printouts', slug] as const,
  health: ['health'] as const,
  /** The caller's permissions, system-wide ('system') or in one activity. */
  permissions: (activityId?: string) => ['permissions', activityId ?? 'system'] as const,
  staffQuestions: (filters: Record<string, unknown>) => ['staffQuestions', filters] as const,
  staffPrintouts: (filters: Record<string, unknown>) => ['staffPrintouts', filters] as const,
  printoutActivities: ['printoutActivities'] as const,
  /** The staff's submission stream (GET /submissions) for one query, and one submission as staff read it. */
  staffSubmissions: (query: Record<string, unknown>) => ['staffSubmissions', query] as const,
  staffSubmission: (id: string) => ['staffSubmission', id] as const,
  cannedAnswers: ['cannedAnswers'] as const,
};

export type KeyFamily =
  | 'account' | 'instance' | 'sessions' | 'activities' | 'activity' | 'series' | 'problem' | 'submissions' | 'submission' | 'ranking'
  | 'questions' | 'printouts' | 'health'
  | 'permissions' | 'staffQuestions' | 'staffPrintouts' | 'printoutActivities' | 'staffSubmissions' | 'staffSubmission';
