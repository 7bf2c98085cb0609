/**
 * Query keys of every screen, in one place so the socket's events can name what they make stale.
 * The first element is the family an event invalidates; the rest narrows to one screen's data.
 */
export const keys = {
  account: ['account'] as const,
  instance: ['instance'] as const,
  sessions: ['sessions'] as const,
  /** The identity providers the caller also signs in with (GET /account/links). */
  accountLinks: ['accountLinks'] as const,
  /** The caller's address and whether it is confirmed (GET /identity/manage/info). */
  manageInfo: ['manageInfo'] as const,
  /** The caller's two-factor sign-in (POST /identity/manage/2fa with an empty body reads it). */
  twoFactor: ['twoFactor'] as const,
  /** One confirmation link followed: its answer, kept so that the single-use code is never sent twice. */
  confirmEmail: (userId: string, code: string, changedEmail: string | undefined) => ['confirmEmail', userId, code, changedEmail ?? ''] as const,
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
  /** An activity's memberships (its grants) and roles, for its People page. */
  staffMembers: (activityId: string) => ['staffMembers', activityId] as const,
  staffRoles: (activityId: string) => ['staffMembers', activityId, 'roles'] as const,
  /** Accounts found by a staff search. */
  staffUserSearch: (q: string) => ['staffUsers', 'search', q] as const,
  /** Every account (a class list is matched against them). */
  staffAllUsers: ['staffUsers', 'all'] as const,
  /** The staff's submission stream (GET /submissions) for one query, and one submission as staff read it. */
  staffSubmissions: (query: Record<string, unknown>) => ['staffSubmissions', query] as const,
  staffSubmission: (id: string) => ['staffSubmission', id] as const,
  cannedAnswers: ['cannedAnswers'] as const,
  /** The administration pages: accounts, one account, its sessions; roles, grants, the catalogue; maintenance. */
  managedUsers: (filters: Record<string, unknown>) => ['managedUsers', filters] as const,
  managedUser: (id: string) => ['managedUser', id] as const,
  userLookup: (q: string) => ['userLookup', q] as const,
  userSessions: (id: string) => ['userSessions', id] as const,
  /** The merges an account was the source or the target of, and what merging it into another would move. */
  userMerges: (id: string) => ['userMerges', id] as const,
  mergePreview: (sourceId: string, targetId: string) => ['userMerges', sourceId, 'preview', targetId] as const,
  roles: ['roles'] as const,
  grants: (filters: Record<string, unknown>) => ['grants', filters] as const,
  permissionCatalogue: ['permissionCatalogue'] as const,
  maintenance: ['maintenance'] as const,
  runners: ['runners'] as const,
  /** The identity providers (OpenID Connect) and the LTI platforms, with one platform's registration values. */
  providers: ['providers'] as const,
  ltiPlatforms: ['ltiPlatforms'] as const,
  ltiRegistration: (id: string) => ['ltiPlatforms', id, 'registration'] as const,
  enrolmentCodes: ['enrolmentCodes'] as const,
  /** The staff standings: the caller's own view or the public one (as participants see it). */
  staffRanking: (slug: string, seriesId: string | undefined, view: 'own' | 'public') => ['staffRanking', slug, seriesId ?? 'all', view] as const,
  /** An activity's staff dashboard: refetched on its own events, throttled (pages/staff/dashboard/live.ts). */
  dashboard: (slug: string) => ['dashboard', slug] as const,
  /** The activities the caller manages, with every setting (the staff home). */
  managedActivities: ['managedActivities'] as const,
  /** One activity with every setting, as its managers read it. */
  staffActivity: (slug: string) => ['staffActivity', slug] as const,
  /** An activity's series with every date and their assignments, as its managers read them. */
  staffSeries: (slug: string) => ['staffSeries', slug] as const,
  /** The problem library (staff): a page of it, one problem, its versions and a version's statements. */
  staffProblems: (filters: Record<string, unknown>) => ['staffProblems', filters] as const,
  staffProblem: (id: string) => ['staffProblem', id] as const,
  staffVersions: (id: string) => ['staffProblem', id, 'versions'] as const,
  staffVersionContent: (id: string, versionId: string) => ['staffProblem', id, 'content', versionId] as const,
  trial: (id: string) => ['trial', id] as const,
  /** An activity's series with their assignments, as its managers see them. */
  managedSeries: (slug: string) => ['managedSeries', slug] as const,
};

export type KeyFamily =
  | 'account' | 'instance' | 'sessions' | 'manageInfo' | 'twoFactor' | 'activities' | 'activity' | 'series' | 'problem' | 'submissions' | 'submission' | 'ranking'
  | 'questions' | 'printouts' | 'health'
  | 'permissions' | 'staffQuestions' | 'staffPrintouts' | 'printoutActivities'
  | 'managedUsers' | 'managedUser' | 'userSessions' | 'userMerges' | 'roles' | 'grants' | 'maintenance'
  | 'runners' | 'enrolmentCodes' | 'staffRanking'
  | 'staffMembers' | 'staffUsers' | 'managedActivities'
  | 'staffActivity' | 'staffSeries'
  | 'staffProblems' | 'staffProblem' | 'managedSeries'
  | 'staffSubmissions' | 'staffSubmission';
