import type { MessageKey } from '../../../i18n/catalogue';

/**
 * The tasks of the guides (README, docs/running-a-contest.md, docs/judgectl.md) that a teacher or
 * contest director does, as judgectl commands, grouped by the staff page that does each of them:
 * a cheat sheet for those who script a contest or keep a terminal open beside the projector. The
 * pages name their own commands too; a test checks that every command here exists.
 */
export interface TerminalTask {
  label: MessageKey;
  /** The command line; `{activity}` stands for the activity's slug, `<...>` for what the reader fills in. */
  command: string;
}

export interface TerminalGroup {
  /** The key of the staff section the tasks belong to (ACTIVITY_SECTIONS or GLOBAL_SECTIONS). */
  section: string;
  label: MessageKey;
  tasks: TerminalTask[];
}

/** The tasks of one activity, by the section of /staff/a/:activity they belong to. */
export const ACTIVITY_TASKS: TerminalGroup[] = [
  {
    section: 'settings',
    label: 'staff.terminal.group.settings',
    tasks: [
      { label: 'staff.terminal.task.show', command: 'judgectl activities show {activity}' },
      { label: 'staff.terminal.task.settings', command: 'judgectl activities update {activity} --questions --printouts --show-test-results' },
      { label: 'staff.terminal.task.publish', command: 'judgectl activities publish {activity}' },
      { label: 'staff.terminal.task.archive', command: 'judgectl activities archive {activity}' },
    ],
  },
  {
    section: 'series',
    label: 'staff.terminal.group.series',
    tasks: [
      { label: 'staff.terminal.task.seriesCreate', command: 'judgectl series create {activity} <series> --start <time>' },
      { label: 'staff.terminal.task.seriesOpen', command: 'judgectl series open {activity} <series>' },
      { label: 'staff.terminal.task.seriesUpdate', command: 'judgectl series update {activity} <series> --end <time>' },
      { label: 'staff.terminal.task.seriesPause', command: 'judgectl series pause {activity} <series>' },
      { label: 'staff.terminal.task.seriesResume', command: 'judgectl series resume {activity} <series>' },
      { label: 'staff.terminal.task.seriesShift', command: 'judgectl series shift {activity} <series> <minutes>' },
    ],
  },
  {
    section: 'problems',
    label: 'staff.terminal.group.problems',
    tasks: [
      { label: 'staff.terminal.task.assignments', command: 'judgectl assignments list {activity}' },
      { label: 'staff.terminal.task.assign', command: 'judgectl assign {activity} <series> <problem>' },
      { label: 'staff.terminal.task.limits', command: 'judgectl assignments update {activity} <series> <problem> --time-limit 2' },
    ],
  },
  {
    section: 'people',
    label: 'staff.terminal.group.people',
    tasks: [
      { label: 'staff.terminal.task.members', command: 'judgectl activities members {activity}' },
      { label: 'staff.terminal.task.importClass', command: 'judgectl users import class.csv --activity {activity}' },
      { label: 'staff.terminal.task.enrol', command: 'judgectl activities enrol {activity} <user>…' },
      { label: 'staff.terminal.task.coManager', command: 'judgectl activities grant-manager {activity} <user>' },
    ],
  },
  {
    section: 'submissions',
    label: 'staff.terminal.group.submissions',
    tasks: [
      { label: 'staff.terminal.task.submissions', command: 'judgectl submissions list --activity {activity} --verdict WA' },
      { label: 'staff.terminal.task.tests', command: 'judgectl submissions show <submission> --tests' },
      { label: 'staff.terminal.task.source', command: 'judgectl submissions source <submission>' },
      { label: 'staff.terminal.task.rejudge', command: 'judgectl submissions rejudge <submission>' },
      { label: 'staff.terminal.task.rejudgeAll', command: 'judgectl submissions rejudge-assignment {activity} <series> <problem>' },
      { label: 'staff.terminal.task.cancel', command: 'judgectl submissions cancel <submission>' },
      { label: 'staff.terminal.task.exclude', command: 'judgectl submissions exclude <submission> --reason <text>' },
    ],
  },
  {
    section: 'standings',
    label: 'staff.terminal.group.standings',
    tasks: [
      { label: 'staff.terminal.task.ranking', command: 'judgectl ranking {activity}' },
      { label: 'staff.terminal.task.freeze', command: 'judgectl series freeze {activity} <series>' },
      { label: 'staff.terminal.task.reveal', command: 'judgectl series reveal {activity} <series>' },
      { label: 'staff.terminal.task.csv', command: 'judgectl ranking {activity} --csv > standings.csv' },
    ],
  },
];

/** The tasks that span activities, by the global staff section they belong to. */
export const GLOBAL_TASKS: TerminalGroup[] = [
  {
    section: 'new',
    label: 'staff.terminal.group.new',
    tasks: [
      { label: 'staff.terminal.task.contestImport', command: 'judgectl contest import <folder> --slug <slug> --name <name> --start <time> --duration 180' },
      { label: 'staff.terminal.task.create', command: 'judgectl activities create <slug> --name <name>' },
    ],
  },
  {
    section: 'problems',
    label: 'staff.terminal.group.library',
    tasks: [
      { label: 'staff.terminal.task.problemImport', command: 'judgectl problems import <folder or zip>' },
      { label: 'staff.terminal.task.problemVerify', command: 'judgectl problems verify <folder or zip>' },
      { label: 'staff.terminal.task.problemUpdate', command: 'judgectl problems update <problem> <folder or zip> --note <text>' },
    ],
  },
  {
    section: 'runners',
    label: 'staff.terminal.group.runners',
    tasks: [
      { label: 'staff.terminal.task.runnersList', command: 'judgectl runners list' },
      { label: 'staff.terminal.task.runnerAdd', command: 'judgectl runners add --name <name>' },
      { label: 'staff.terminal.task.runnerApprove', command: 'judgectl runners approve <runner>' },
    ],
  },
  {
    section: 'users',
    label: 'staff.terminal.group.users',
    tasks: [
      { label: 'staff.terminal.task.userCreate', command: 'judgectl users create <username>' },
      { label: 'staff.terminal.task.resetPassword', command: 'judgectl users reset-password <user>' },
      { label: 'staff.terminal.task.block', command: 'judgectl users block <user>' },
    ],
  },
  {
    section: 'instance',
    label: 'staff.terminal.group.instance',
    tasks: [
      { label: 'staff.terminal.task.maintenance', command: 'judgectl maintenance drain --reason <text>' },
      { label: 'staff.terminal.task.broadcast', command: 'judgectl broadcast <text>' },
      { label: 'staff.terminal.task.backup', command: 'judge backup --data-dir ./data backup.tar.gz' },
    ],
  },
];

/** A task's command for one activity. */
export function commandFor(task: TerminalTask, activitySlug?: string): string {
  return activitySlug ? task.command.replaceAll('{activity}', activitySlug) : task.command;
}
