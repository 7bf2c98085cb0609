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
  // the open staff submission page; the stream refetches on its own, one request at a time (staff/submissions/useStreamRefetch.ts)
  submissionChanged: ['staffSubmission'],
  roleChanged: ['permissions', 'activities', 'printoutActivities'],
};

/** A runner's progress report changes only the submission's own line ("test k of n"). */
const PROGRESS: KeyFamily[] = ['submissions', 'submission'];

export function staleFamilies(type: string, data?: Record<string, unknown>): KeyFamily[] {
  if (type === 'submissionStateChanged' && (data?.submission as { progress?: unknown } | undefined)?.progress) return PROGRESS;
  return STALE[type] ?? [];
}
