import { ops, type SubmissionDetail, type SubmissionSummary } from '@judge/contract';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import type { JudgeClient } from '@judge/sdk';
import { activityZones } from '../activity-zones.js';
import { emit, fields, plural, table, type JsonOption } from '../output.js';
import { instantIn, inZone, zonedInstant } from '../zoned-time.js';
import { allPages, resolveActivity, resolveUser } from '../resolve.js';
import { resolveAssignment } from './assignments.js';
import { attemptOf, submissionFilesCommands, submissionId, testResults, testsTable } from './submission-files.js';
import { positive, sub } from './common.js';
import { sampleRunCommands } from './sample-runs.js';

const score = (s: { score?: number | undefined; maxScore?: number | undefined }) => (s.score !== undefined ? `${s.score}${s.maxScore !== undefined ? `/${s.maxScore}` : ''}` : '');

/** Submissions in a table, each time in its activity's zone. */
async function submissionsTable(c: JudgeClient, list: SubmissionSummary[]): Promise<string> {
  const zone = await activityZones(c, list.map((s) => s.activityId));
  return table(
    ['id', 'submitted', 'user', 'activity', 'problem', 'state', 'verdict', 'score', 'attempts', 'excluded'],
    list.map((s) => [s.id, inZone(s.submittedAt, zone(s.activityId)), s.userName, s.activitySlug, s.problemSlug, s.state, s.verdict, score(s), s.attempts, s.excluded]),
  );
}

/** The verdicts judgectl knows: the ICPC judgement ids the runner reports (decisions §6). */
export const VERDICTS = ['AC', 'WA', 'TLE', 'MLE', 'OLE', 'RTE', 'CE', 'JE'] as const;

function verdict(v: string): string {
  const up = v.trim().toUpperCase();
  if (!(VERDICTS as readonly string[]).includes(up)) throw new InvalidArgumentError(`unknown verdict; the known verdicts are ${VERDICTS.join(', ')}.`);
  return up;
}

function submissionText(s: SubmissionDetail, zone: string): string {
  const when = (t: string | undefined) => inZone(t, zone);
  return [
    fields([
      ['id', s.id],
      ['submitted', when(s.submittedAt)],
      ['user', `${s.userName} (${s.userId})`],
      ['activity', s.activitySlug],
      ['series', s.seriesName],
      ['problem', `${s.problemSlug}: ${s.problemName} (${s.problemType})`],
      ['state', s.state],
      ['verdict', s.verdict],
      ['score', score(s)],
      ['files', s.files.map((f) => `${f.fileName}${f.language ? ` (${f.language})` : ''}, ${f.sizeBytes} bytes`).join('; ')],
      ['address', s.ipAddress],
      ['excluded', s.excluded ? `since ${when(s.excludedAt)}${s.exclusionReason ? `: ${s.exclusionReason}` : ''}` : 'no'],
    ]),
    'Attempts:',
    table(
      ['#', 'state', 'verdict', 'score', 'queued', 'started', 'finished', 'runner', 'failure'],
      s.attemptList.map((a) => [a.attempt, a.state, a.verdict, score(a), when(a.createdAt), when(a.startedAt), when(a.finishedAt), a.runnerName, a.failureReason]),
    ),
  ].join('\n');
}

/** Commands about the judging of submissions already made: a whole assignment again, a cancellation. */
function judgingCommands(submissions: Command): void {
  sub(submissions, 'rejudge-assignment <activity> <series> <problem>', "Judge every submission to an assignment again (a new attempt each)").action(
    async (activity: string, series: string, problem: string, o: JsonOption) => {
      const c = await api();
      const { series: s, assignment } = await resolveAssignment(c, activity, series, problem);
      const queued = await c.call(ops.rejudgeAssignment, { params: { assignmentId: assignment.id } });
      emit(o, { assignmentId: assignment.id, queued }, () => `Queued ${plural(queued, 'submission')} of ${activity}/${s.slug}/${assignment.slug} for judging again.`);
    },
  );

  sub(submissions, 'cancel <id>', 'Cancel the judging of a submission (its newest attempt, while queued or running)').action(async (id: string, o: JsonOption) => {
    const c = await api();
    const s0 = await c.call(ops.getSubmission, { params: { id: submissionId(id) } });
    const a = attemptOf(s0);
    if (a.state !== 'queued' && a.state !== 'running') {
      throw new CliError(`attempt ${a.attempt} of ${s0.id} is already ${a.state}${a.verdict ? ` (${a.verdict})` : ''}: only a queued or running judging can be cancelled`);
    }
    const s = await c.call(ops.cancelAttempt, { params: { submissionId: s0.id, attemptId: a.id } });
    emit(o, s, () => `Cancelled attempt ${a.attempt} of ${s.id} (it was ${a.state}).`);
  });
}

type ListOptions = JsonOption & {
  activity?: string;
  problem?: string;
  series?: string;
  user?: string;
  state?: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  verdict?: string;
  search?: string;
  since?: string;
  before?: string;
  page: number;
  allPages?: boolean;
};

const OFFSET = /([Zz]|[+-]\d{2}:?\d{2})$/;

/** GET /submissions' query for the options: slugs resolved to ids, times without an offset read in the activity's zone. */
async function listQuery(c: JudgeClient, o: ListOptions): Promise<Record<string, string>> {
  for (const [flag, v] of [['--problem', o.problem], ['--series', o.series]] as const) {
    if (v && !o.activity) throw new CliError(`${flag} needs --activity: their slugs belong to an activity`);
  }
  for (const [flag, v] of [['--since', o.since], ['--before', o.before]] as const) {
    if (v && !OFFSET.test(v) && !o.activity) throw new CliError(`${flag} without an offset needs --activity: it is read in the activity's time zone`);
  }
  const query: Record<string, string> = {};
  if (o.activity) {
    const a = await resolveActivity(c, o.activity);
    query.activityId = a.id;
    if (o.problem || o.series) {
      const series = await c.call(ops.listManagedSeries, { params: { idOrSlug: a.id } });
      if (o.series) {
        const s = series.find((x) => x.slug.toLowerCase() === o.series!.toLowerCase() || x.id === o.series);
        if (!s) throw new CliError(`${a.slug} has no series ${o.series}`);
        query.seriesId = s.id;
      }
      if (o.problem) {
        const p = series.flatMap((s) => s.problems).find((x) => x.slug.toLowerCase() === o.problem!.toLowerCase() || x.id === o.problem);
        if (!p) throw new CliError(`${a.slug} has no problem ${o.problem}`);
        query.seriesProblemId = p.id;
      }
    }
    if (o.since) query.submittedFrom = instantIn(o.since, a.timeZone);
    if (o.before) query.submittedBefore = instantIn(o.before, a.timeZone);
  } else {
    if (o.since) query.submittedFrom = new Date(o.since).toISOString();
    if (o.before) query.submittedBefore = new Date(o.before).toISOString();
  }
  if (o.user) query.userId = (await resolveUser(c, o.user)).id;
  if (o.state) query.state = o.state;
  if (o.verdict) query.verdict = o.verdict;
  if (o.search) query.search = o.search;
  return query;
}

export function submissionsCommands(program: Command): void {
  const submissions = program.command('submissions').description('Submissions of the activities you manage: list, show, source, log, rejudge, cancel, exclude; try code on the samples');

  sub(submissions, 'list', 'List submissions, newest first (20 a page unless --all-pages)')
    .option('--activity <slug>', 'only this activity')
    .option('--problem <slug>', "only this problem (its slug in the activity; needs --activity)")
    .option('--user <user>', 'only this author (login or id)')
    .addOption(new Option('--state <state>', 'only this state').choices(['queued', 'running', 'completed', 'failed', 'cancelled']))
    .option('--verdict <verdict>', `only this verdict: ${VERDICTS.join(', ')}`, verdict)
    .option('--series <slug>', 'only this series (needs --activity)')
    .option('--search <text>', "part of the author's login or name, or of the problem's slug or name")
    .option('--since <time>', 'only those submitted at or after this time (without an offset: in the activity\'s time zone, needs --activity)', zonedInstant)
    .option('--before <time>', 'only those submitted before this time (as --since)', zonedInstant)
    .option('--page <n>', 'which page', positive, 1)
    .option('--all-pages', 'every submission, not just one page (--json then prints an array, not a page)')
    .action(
      async (
        o: ListOptions,
      ) => {
        const c = await api();
        const query = await listQuery(c, o);
        if (o.allPages) {
          const all = await allPages((page, pageSize) => c.call(ops.listSubmissions, { query: { ...query, page, pageSize } }));
          const text = o.json ? '' : await submissionsTable(c, all);
          return emit(o, all, () => `${text}\n${plural(all.length, 'submission')}`);
        }
        const p = await c.call(ops.listSubmissions, { query: { ...query, page: o.page } });
        const pages = Math.max(1, Math.ceil(p.total / p.pageSize));
        const text = o.json ? '' : await submissionsTable(c, p.items);
        emit(o, p, () => `${text}\npage ${p.page} of ${pages}, ${plural(p.total, 'submission')}${pages > 1 ? ' (--page N or --all-pages for more)' : ''}`);
      },
    );

  sub(submissions, 'show <id>', 'Show a submission with its attempts')
    .option('--tests', "also the per-test results of an attempt (the runner's details): test, verdict, time, memory")
    .option('--attempt <n>', 'with --tests: this attempt (default: the newest)', positive)
    .action(async (id: string, o: JsonOption & { tests?: boolean; attempt?: number }) => {
      const c = await api();
      const s = await c.call(ops.getSubmission, { params: { id: submissionId(id) } });
      const zone = (await activityZones(c, [s.activityId]))(s.activityId);
      if (!o.tests) return emit(o, s, () => submissionText(s, zone));
      const a = attemptOf(s, o.attempt);
      const tests = await testResults(c, a);
      const about = tests === undefined ? `Attempt ${a.attempt} is ${a.state}: its runner stored no per-test results.` : `Tests of attempt ${a.attempt}:\n${testsTable(tests)}`;
      emit(o, { ...s, tests: { attempt: a.attempt, results: tests ?? null } }, () => `${submissionText(s, zone)}\n${about}`);
    });

  sub(submissions, 'rejudge <id>', "Judge a submission again (a new attempt, against the assignment's pinned or newest version)").action(
    async (id: string, o: JsonOption) => {
      const c = await api();
      const s = await c.call(ops.rejudgeSubmission, { params: { id: submissionId(id) } });
      emit(o, s, () => `Queued attempt ${s.attempts} of ${s.id}.`);
    },
  );

  judgingCommands(submissions);
  sampleRunCommands(submissions);
  submissionFilesCommands(submissions);

  sub(submissions, 'exclude <id>', 'Leave a submission out of the ranking, or count it again with --include')
    .option('--include', 'count it again instead')
    .option('--reason <text>', 'why it is excluded')
    .action(async (id: string, o: JsonOption & { include?: boolean; reason?: string }) => {
      const c = await api();
      const s = await c.call(ops.setSubmissionExcluded, { params: { id: submissionId(id) }, body: { excluded: !o.include, ...(o.reason ? { reason: o.reason } : {}) } });
      emit(o, s, () => (s.excluded ? `Excluded ${s.id}${s.exclusionReason ? ` (${s.exclusionReason})` : ''}.` : `${s.id} counts again.`));
    });
}
