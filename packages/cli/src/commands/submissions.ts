import { ops, type SubmissionDetail, type SubmissionSummary } from '@judge/contract';
import { Option, type Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, fields, plural, table, when, type JsonOption } from '../output.js';
import { allPages, isId, resolveActivity, resolveUser } from '../resolve.js';
import { positive, sub } from './common.js';

const score = (s: { score?: number | undefined; maxScore?: number | undefined }) => (s.score !== undefined ? `${s.score}${s.maxScore !== undefined ? `/${s.maxScore}` : ''}` : '');

function submissionsTable(list: SubmissionSummary[]): string {
  return table(
    ['id', 'submitted', 'user', 'activity', 'problem', 'state', 'verdict', 'score', 'attempts', 'excluded'],
    list.map((s) => [s.id, when(s.submittedAt), s.userName, s.activitySlug, s.problemSlug, s.state, s.verdict, score(s), s.attempts, s.excluded]),
  );
}

/** A submission id as the server writes them; anything else is refused before asking. */
function submissionId(id: string): string {
  if (!isId(id)) throw new CliError(`not a submission id: ${id} (ids look like 01a2045f-8567-76a6-bfa4-b95be3e90a7c; \`judgectl submissions list\` shows them)`);
  return id;
}

function submissionText(s: SubmissionDetail): string {
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

export function submissionsCommands(program: Command): void {
  const submissions = program.command('submissions').description('Submissions of the activities you manage: list, show, rejudge, exclude');

  sub(submissions, 'list', 'List submissions, newest first (20 a page unless --all-pages)')
    .option('--activity <slug>', 'only this activity')
    .option('--problem <slug>', "only this problem (its slug in the activity; needs --activity)")
    .option('--user <user>', 'only this author (login or id)')
    .addOption(new Option('--state <state>', 'only this state').choices(['queued', 'running', 'completed', 'failed', 'cancelled']))
    .option('--verdict <verdict>', 'only this verdict, e.g. AC, WA, TLE')
    .option('--page <n>', 'which page', positive, 1)
    .option('--all-pages', 'every submission, not just one page (--json then prints an array, not a page)')
    .action(
      async (
        o: JsonOption & { activity?: string; problem?: string; user?: string; state?: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled'; verdict?: string; page: number; allPages?: boolean },
      ) => {
        if (o.problem && !o.activity) throw new CliError('--problem needs --activity: problem slugs belong to an activity');
        const c = await api();
        const query: Record<string, string> = {};
        if (o.activity) {
          const a = await resolveActivity(c, o.activity);
          query.activityId = a.id;
          if (o.problem) {
            const series = await c.call(ops.listManagedSeries, { params: { idOrSlug: a.id } });
            const p = series.flatMap((s) => s.problems).find((x) => x.slug.toLowerCase() === o.problem!.toLowerCase() || x.id === o.problem);
            if (!p) throw new CliError(`${a.slug} has no problem ${o.problem}`);
            query.seriesProblemId = p.id;
          }
        }
        if (o.user) query.userId = (await resolveUser(c, o.user)).id;
        if (o.state) query.state = o.state;
        if (o.verdict) query.verdict = o.verdict;
        if (o.allPages) {
          const all = await allPages((page, pageSize) => c.call(ops.listSubmissions, { query: { ...query, page, pageSize } }));
          return emit(o, all, () => `${submissionsTable(all)}\n${plural(all.length, 'submission')}`);
        }
        const p = await c.call(ops.listSubmissions, { query: { ...query, page: o.page } });
        const pages = Math.max(1, Math.ceil(p.total / p.pageSize));
        emit(o, p, () => `${submissionsTable(p.items)}\npage ${p.page} of ${pages}, ${plural(p.total, 'submission')}${pages > 1 ? ' (--page N or --all-pages for more)' : ''}`);
      },
    );

  sub(submissions, 'show <id>', 'Show a submission with its attempts').action(async (id: string, o: JsonOption) => {
    const c = await api();
    const s = await c.call(ops.getSubmission, { params: { id: submissionId(id) } });
    emit(o, s, () => submissionText(s));
  });

  sub(submissions, 'rejudge <id>', "Judge a submission again (a new attempt, against the assignment's pinned or newest version)").action(
    async (id: string, o: JsonOption) => {
      const c = await api();
      const s = await c.call(ops.rejudgeSubmission, { params: { id: submissionId(id) } });
      emit(o, s, () => `Queued attempt ${s.attempts} of ${s.id}.`);
    },
  );

  sub(submissions, 'exclude <id>', 'Leave a submission out of the ranking, or count it again with --include')
    .option('--include', 'count it again instead')
    .option('--reason <text>', 'why it is excluded')
    .action(async (id: string, o: JsonOption & { include?: boolean; reason?: string }) => {
      const c = await api();
      const s = await c.call(ops.setSubmissionExcluded, { params: { id: submissionId(id) }, body: { excluded: !o.include, ...(o.reason ? { reason: o.reason } : {}) } });
      emit(o, s, () => (s.excluded ? `Excluded ${s.id}${s.exclusionReason ? ` (${s.exclusionReason})` : ''}.` : `${s.id} counts again.`));
    });
}
