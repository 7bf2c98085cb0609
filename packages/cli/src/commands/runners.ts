import { ops, type Runner } from '@judge/contract';
import { Option, type Command } from 'commander';
import { api } from '../client.js';
import { emit, plural, table, when, type JsonOption } from '../output.js';
import { allPages, resolveRunner } from '../resolve.js';
import { sub } from './common.js';
import { enrolmentCodeCommands } from './runner-codes.js';

/** What a runner holds now, in words: `spring/a-plus-b #3f9a0c1d (2/5)`, `trial in spring`, `sample run spring/sum`, or empty. */
export function currentWork(r: Runner): string {
  const j = r.currentJob;
  if (!j) return '';
  const where = [j.activitySlug, j.problemSlug].filter(Boolean).join('/');
  if (j.kind === 'trial') return where ? `trial in ${where}` : 'trial';
  if (j.kind === 'sampleRun') return `sample run ${where}`;
  const progress = j.progress ? ` (${j.progress.done}${j.progress.total === undefined ? '' : `/${j.progress.total}`})` : '';
  const rejudge = (j.attempt ?? 1) > 1 ? `, attempt ${j.attempt}` : '';
  return `${where} #${(j.submissionId ?? '').slice(0, 8)}${rejudge}${progress}`;
}

function runnersTable(list: Runner[]): string {
  return table(
    ['id', 'name', 'state', 'fingerprint', 'problem types', 'tags', 'connected', 'last seen', 'jobs done', 'judging now'],
    list.map((r) => [
      r.id,
      r.name,
      r.state,
      r.fingerprint.slice(0, 16),
      r.problemTypes.join(', '),
      r.tags.join(', '),
      r.isConnected,
      when(r.lastSeenAt),
      r.completedJobs,
      currentWork(r),
    ]),
  );
}

const WHICH = 'RUNNER is its id, a prefix of its fingerprint (4 hex digits or more) or its name';

export function runnersCommands(program: Command): void {
  const runners = program.command('runners').description('Judging machines: list, approve, revoke, tag, and enrolment codes that approve new ones');

  sub(runners, 'list', 'List the registered runners, with what each judges now')
    .addOption(new Option('--state <state>', 'only runners in this state').choices(['pendingApproval', 'approved', 'revoked']))
    .action(async (o: JsonOption & { state?: 'pendingApproval' | 'approved' | 'revoked' }) => {
      const c = await api();
      const all = await allPages((page, pageSize) => c.call(ops.listRunners, { query: { page, pageSize, ...(o.state ? { state: o.state } : {}) } }));
      emit(o, all, () => `${runnersTable(all)}\n${plural(all.length, 'runner')}`);
    });

  sub(runners, 'approve <runner>', `Let a runner take work. ${WHICH}`).action(async (which: string, o: JsonOption) => {
    const c = await api();
    const r0 = await resolveRunner(c, which);
    const r = await c.call(ops.approveRunner, { params: { id: r0.id } });
    emit(o, r, () => `Approved ${r.name} (${r.id}, fingerprint ${r.fingerprint.slice(0, 16)}).`);
  });

  sub(runners, 'revoke <runner>', `Stop a runner for good: its tokens die and its jobs go back to the queue. ${WHICH}`)
    .option('--reason <text>', 'why')
    .action(async (which: string, o: JsonOption & { reason?: string }) => {
      const c = await api();
      const r0 = await resolveRunner(c, which);
      const r = await c.call(ops.revokeRunner, { params: { id: r0.id }, body: o.reason ? { reason: o.reason } : {} });
      emit(o, r, () => `Revoked ${r.name} (${r.id}).`);
    });

  sub(runners, 'tags <runner> [tags...]', `Set a runner's tags (which series' jobs it may take); no tags clears them. ${WHICH}`).action(
    async (which: string, tags: string[], o: JsonOption) => {
      const c = await api();
      const r0 = await resolveRunner(c, which);
      const r = await c.call(ops.setRunnerTags, { params: { id: r0.id }, body: { tags } });
      emit(o, r, () => `${r.name} has ${r.tags.length ? `the tags ${r.tags.join(', ')}` : 'no tags'}.`);
    },
  );

  enrolmentCodeCommands(runners);
}
