import type { KeyFamily } from '../api/keys';

/**
 * What each event makes stale. Events are signals to refetch (the interface: a screen must be right
 * with the socket down), so a frame never patches data in place; it names the query families to
 * fetch again, and only the screens showing them do.
 */
const STALE: Record<string, KeyFamily[]> = {
  activityCreated: ['activities', 'managedActivities', 'staffActivity'],
  activityUpdated: ['activities', 'activity', 'series', 'problem', 'managedActivities', 'staffActivity', 'staffSeries'],
  activityDeleted: ['activities', 'activity', 'managedActivities', 'staffActivity', 'staffSeries'],
  // finalised or reopened: the activity, its awards (read under the activity's key) and the standings' heading
  activityFinalized: ['activities', 'activity', 'managedActivities', 'staffActivity'],
  activityTimesChanged: ['activities', 'activity', 'series', 'managedActivities', 'staffActivity', 'staffSeries'],
  seriesChanged: ['activity', 'series', 'problem', 'ranking', 'staffRanking', 'staffActivity', 'staffSeries'],
  submissionStateChanged: ['submissions', 'submission', 'problem'],
  problemStatusChanged: ['series', 'problem'],
  rankingChanged: ['ranking', 'staffRanking'],
  // the instance may require two-factor sign-in for permissions the reader holds
  instanceChanged: ['instance', 'twoFactor'],
  // an account changed (to holders of user:read:all): the account lists and its page, the People
  // pages; blocking and new passwords end its sessions; a merge or its undo changes both accounts
  userChanged: ['account', 'manageInfo', 'twoFactor', 'managedUsers', 'managedUser', 'userSessions', 'userMerges', 'staffMembers', 'staffUsers'],
  questionAnswered: ['questions'],
  questionPublished: ['questions'],
  announcementPublished: ['questions'],
  printoutStateChanged: ['printouts'],
  maintenanceChanged: ['health', 'maintenance'],
  grantChanged: ['twoFactor', 'activities', 'activity', 'permissions', 'printoutActivities', 'grants', 'managedUser', 'managedUsers', 'userMerges', 'roles', 'staffMembers', 'staffUsers', 'managedActivities'],
  // the staff pages: the queues, and what the caller may do there (a grant or a role changed)
  questionChanged: ['staffQuestions'],
  printoutChanged: ['staffPrintouts'],
  roleChanged: ['twoFactor', 'permissions', 'activities', 'printoutActivities', 'roles', 'grants', 'staffMembers', 'managedActivities'],
  // the runners page: a runner registered, approved, tagged, revoked or forgotten; and what a runner
  // judges now changes with the state of the submission it holds (claimed, judged, given back)
  runnerChanged: ['runners'],
  // the open staff submission page; the stream refetches on its own, one request at a time (staff/submissions/useStreamRefetch.ts)
  submissionChanged: ['runners', 'staffSubmission'],
  // the dashboard is not here: it follows its activity's events itself, at most once a second
  // (a runner's progress reports alone would refetch it several times a second)
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
