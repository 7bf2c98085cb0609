import type { KeyFamily } from '../api/keys';

/**
 * What each event makes stale. Events are signals to refetch (the interface: a screen must be right
 * with the socket down), so a frame never patches data in place; it names the query families to
 * fetch again, and only the screens showing them do.
 */
const STALE: Record<string, KeyFamily[]> = {
  activityCreated: ['activities'],
  activityUpdated: ['activities', 'activity', 'series', 'problem'],
  activityDeleted: ['activities', 'activity'],
  activityTimesChanged: ['activities', 'activity', 'series'],
  seriesChanged: ['activity', 'series', 'problem', 'ranking'],
  submissionStateChanged: ['submissions', 'submission', 'problem'],
  problemStatusChanged: ['series', 'problem'],
  rankingChanged: ['ranking'],
  instanceChanged: ['instance'],
  userChanged: ['account'],
  questionAnswered: ['questions'],
  questionPublished: ['questions'],
  announcementPublished: ['questions'],
  printoutStateChanged: ['printouts'],
  maintenanceChanged: ['health'],
  grantChanged: ['activities', 'activity', 'permissions', 'printoutActivities'],
  // the staff pages: the queues, and what the caller may do there (a grant or a role changed)
  questionChanged: ['staffQuestions'],
  printoutChanged: ['staffPrintouts'],
  roleChanged: ['permissions', 'activities', 'printoutActivities'],
  // the problem library and an activity's assignments (to the problem's readers, the activity's managers)
  problemChanged: ['staffProblems', 'staffProblem', 'managedSeries'],
  managerSeriesChanged: ['managedSeries'],
};

/** A runner's progress report changes only the submission's own line ("test k of n"). */
const PROGRESS: KeyFamily[] = ['submissions', 'submission'];

export function staleFamilies(type: string, data?: Record<string, unknown>): KeyFamily[] {
  if (type === 'submissionStateChanged' && (data?.submission as { progress?: unknown } | undefined)?.progress) return PROGRESS;
  return STALE[type] ?? [];
}
