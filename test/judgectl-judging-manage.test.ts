import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe as suite, expect, it } from 'vitest';
import { ops, type ProblemVersion, type SeriesProblem, type SubmissionDetail } from '@judge/contract';
import { ADMIN_PASSWORD } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { until } from '../packages/server/test/support/wait.js';
import { judgectlIn } from './cli-child.js';
import { useJudgedContest } from './judged-contest.js';
import { SUM_PACKAGE, settled } from './one-problem-contest.js';
import { uidBaseOfRun } from './runner-process.js';

/**
 * Judging management with judgectl, end to end: a real server, `bin/judge-runner` as a child
 * process in the real sandbox, judgectl as typed in a terminal (`pnpm build` first), signed in once
 * as the administrator and once as a participant, who is refused every one of these commands.
 */

/** Sandbox slot uids of this file's runner: a range no other test file uses. */
const UID_BASE = uidBaseOfRun(61000);
const describe = suite.skipIf(process.geteuid?.() !== 0);

const SUM_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';
const BROKEN_C = 'int main(void) { return x; }\n';

describe('judgectl manages judging: assignments, rejudging, cancelling, sources, tests, logs, versions', () => {
  const c = useJudgedContest({
    tmpPrefix: 'judgectl-judging-',
    contest: { slug: 'manage', name: 'Manage', problemSlug: 'sum', problemName: 'Sum', files: SUM_PACKAGE },
    runner: { name: 'manage-runner', uidBase: UID_BASE },
  });
  const as = { admin: judgectlIn(''), pupil: judgectlIn('') };

  const assignment = async (slug = 'sum'): Promise<SeriesProblem> =>
    (await c.admin.call(ops.listManagedSeries, { params: { idOrSlug: c.act.slug } })).flatMap((s) => s.problems).find((p) => p.slug === slug)!;
  const submit = async (source: string, fileName: string) => {
    const s = await c.pupil.call(ops.submit, { params: { idOrSlug: c.act.slug, problemSlug: 'sum' }, form: codeForm(source, fileName) });
    return settled(c.pupil, c.act.slug, s.id, { ms: 90_000 });
  };
  const writeTree = (root: string, files: Record<string, string>) => {
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, name)), { recursive: true });
      writeFileSync(join(root, name), content);
    }
  };

  beforeAll(async () => {
    for (const who of ['admin', 'pupil'] as const) {
      const home = join(c.work, who);
      mkdirSync(home);
      as[who] = judgectlIn(home);
    }
    writeFileSync(join(c.work, 'admin-pw'), `${ADMIN_PASSWORD}\n`);
    const other = await c.j.user('other');
    await c.j.grant(other.id, 'participant', c.act.id);
    writeFileSync(join(c.work, 'pupil-pw'), `${other.password}\n`);
    expect((await as.admin.ctl('login', '--server', c.j.url, '--username', 'admin', '--password-file', join(c.work, 'admin-pw'))).status).toBe(0);
    expect((await as.pupil.ctl('login', '--server', c.j.url, '--username', 'other', '--password-file', join(c.work, 'pupil-pw'))).status).toBe(0);
  }, 120_000);

  it('assignments update sets limits, points, languages, cap and pin; list shows them; a participant may not', async () => {
    const updated = await as.admin.json<SeriesProblem>(
      'assignments', 'update', 'manage', 'main', 'sum',
      '--time-limit', '2.5', '--memory', '256', '--languages', 'c, python3', '--points', '50', '--max-submissions', '20', '--pin', '1',
      '--max-attachments', '3',
    );
    expect(updated).toMatchObject({ maxPoints: 50, maxSubmissions: 20, maxAttachments: 3, pinnedVersion: 1, config: { timeLimitSeconds: 2.5, memoryMiB: 256, languages: ['c', 'python3'] } });
    expect(await assignment()).toMatchObject({ maxPoints: 50, maxSubmissions: 20, maxAttachments: 3, pinnedVersion: 1 });
    const list = await as.admin.ctl('assignments', 'list', 'manage');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/sum.*1 \(pinned\).*2\.5 s.*256 MiB.*c, python3.*50.*20/);
    expect(list.stdout).toContain('1 assignment');

    const cleared = await as.admin.json<SeriesProblem>('assignments', 'update', 'manage', 'main', 'sum', '--clear', 'time-limit', '--clear', 'points', '--follow-newest');
    expect(cleared.config).toEqual({ memoryMiB: 256, languages: ['c', 'python3'] });
    expect(cleared.maxPoints).toBeUndefined();
    expect(cleared.pinnedVersion).toBeUndefined();
    expect(cleared.maxAttachments).toBe(3);
    const all = await as.admin.json<SeriesProblem>('assignments', 'update', 'manage', 'main', 'sum', '--clear', 'memory', '--clear', 'languages', '--clear', 'max-submissions', '--clear', 'max-attachments');
    expect(all.config).toBeUndefined();
    expect(all.maxAttachments).toBeUndefined();
    const tooMany = await as.admin.failure('assignments', 'update', 'manage', 'main', 'sum', '--max-attachments', '101');
    expect(tooMany.error.status).toBe(422);

    const noVersion = await as.admin.ctl('assignments', 'update', 'manage', 'main', 'sum', '--pin', '9');
    expect(noVersion.status).toBe(1);
    expect(noVersion.stderr).toContain('sum has no version 9 (it has: 1)');
    const unknown = await as.admin.ctl('assignments', 'update', 'manage', 'main', 'nope', '--points', '5');
    expect(unknown.stderr).toContain('manage/main has no problem nope (it has: sum)');

    const before = await assignment();
    const refused = await as.pupil.failure('assignments', 'update', 'manage', 'main', 'sum', '--points', '7');
    expect(refused.error.code).toBe('refused');
    expect(refused.error.detail).toContain('no activity manage that you manage');
    expect(await assignment()).toEqual(before);
  }, 120_000);

  it('assignments remove detaches a problem nobody submitted to, and refuses one with submissions', async () => {
    const series = (await c.admin.call(ops.listManagedSeries, { params: { idOrSlug: c.act.slug } }))[0]!;
    await c.admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: (await assignment()).problemId, slug: 'sum-again' } });
    const removed = await as.admin.ctl('assignments', 'remove', 'manage', 'main', 'sum-again');
    expect(removed.status, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('Removed sum-again from manage/main.');
    expect(await assignment('sum-again')).toBeUndefined();

    await submit(SUM_PY, 'sum.py');
    const busy = await as.admin.failure('assignments', 'remove', 'manage', 'main', 'sum');
    expect(busy.error).toMatchObject({ status: 409, code: 'assignment.hasSubmissions', problem: { code: 'assignment.hasSubmissions', status: 409 } });
    expect(await assignment()).toBeDefined();
  }, 120_000);

  it('submissions show --tests, source and log show what the runner judged and stored', async () => {
    const s = await submit(SUM_PY, 'sum.py');
    expect(s.verdict).toBe('AC');
    const shown = await as.admin.ctl('submissions', 'show', s.id, '--tests');
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/Tests of attempt 1:/);
    expect(shown.stdout).toMatch(/1 .*sample.*AC.*ms.*(KiB|MiB)/);
    expect(shown.stdout).toMatch(/1 .*secret.*AC/);
    const asJson = await as.admin.json<SubmissionDetail & { tests: { attempt: number; results: { test: string; verdict: string }[] } }>('submissions', 'show', s.id, '--tests');
    expect(asJson.tests.results.map((t) => t.verdict)).toEqual(['AC', 'AC']);

    const source = await as.admin.ctl('submissions', 'source', s.id);
    expect(source.stdout).toBe(SUM_PY);
    const dir = join(c.work, 'sources');
    expect((await as.admin.ctl('submissions', 'source', s.id, '--out-dir', dir)).status).toBe(0);
    expect(readFileSync(join(dir, 'sum.py'), 'utf8')).toBe(SUM_PY);
    const again = await as.admin.ctl('submissions', 'source', s.id, '--out-dir', dir);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('exists: judgectl does not overwrite files');

    const log = await as.admin.ctl('submissions', 'log', s.id);
    expect(log.status, log.stderr).toBe(0);
    expect(log.stdout).toContain('== judge log (attempt 1) ==');
    const ce = await submit(BROKEN_C, 'broken.c');
    expect(ce.verdict).toBe('CE');
    const compile = await as.admin.json<{ compile: string; log: string }>('submissions', 'log', ce.id, '--attempt', '1');
    expect(compile.compile).toMatch(/error/i);
    expect((await as.admin.ctl('submissions', 'log', ce.id)).stdout).toContain('== compiler output (attempt 1) ==');
    const noAttempt = await as.admin.ctl('submissions', 'log', ce.id, '--attempt', '4');
    expect(noAttempt.stderr).toContain(`${ce.id} has no attempt 4 (it has 1)`);

    for (const args of [['show', s.id, '--tests'], ['source', s.id], ['log', s.id]]) {
      const refused = await as.pupil.failure('submissions', ...args);
      expect([403, 404]).toContain(refused.error.status);
      expect(refused.error.problem).toBeDefined();
    }
    expect(existsSync(join(c.work, 'pupil', 'sum.py'))).toBe(false);
  }, 120_000);

  it('submissions rejudge-assignment queues every submission again; a participant may not', async () => {
    const all = (await c.admin.call(ops.listSubmissions, { query: { activityId: c.act.id } })).items;
    const refused = await as.pupil.failure('submissions', 'rejudge-assignment', 'manage', 'main', 'sum');
    expect(refused.error.code).toBe('refused');
    for (const s of all) expect((await c.admin.call(ops.getSubmission, { params: { id: s.id } })).attempts).toBe(1);

    const r = await as.admin.ctl('submissions', 'rejudge-assignment', 'manage', 'main', 'sum');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Queued ${all.length} submissions of manage/main/sum for judging again.`);
    await until('the rejudged attempts', async () => {
      const now = await Promise.all(all.map((s) => c.admin.call(ops.getSubmission, { params: { id: s.id } })));
      return now.every((d) => d.attempts === 2 && (d.state === 'completed' || d.state === 'failed')) ? true : undefined;
    }, 90_000);
  }, 120_000);

  it('problems update uploads a new version the assignment follows; versions lists them; delete is refused while assigned', async () => {
    const dir = join(c.work, 'sum-v2');
    writeTree(dir, { ...SUM_PACKAGE, 'problem.yaml': 'name: Sum\nlimits:\n  time_limit: 3\n' });
    const up = await as.admin.ctl('problems', 'update', 'sum', dir, '--note', 'a time limit');
    expect(up.status, up.stderr).toBe(0);
    expect(up.stdout).toContain('sum is now at version 2.');
    expect((await assignment()).currentVersion).toBe(2);
    const versions = await as.admin.json<ProblemVersion[]>('problems', 'versions', 'sum');
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions[0]).toMatchObject({ note: 'a time limit', package: { timeLimitSeconds: 3 } });
    expect((await as.admin.ctl('problems', 'versions', 'sum')).stdout).toContain('2 versions of sum');
    expect((await as.admin.ctl('assignments', 'list', 'manage')).stdout).toContain('newest (2)');

    const attached = await as.admin.ctl('problems', 'delete', 'sum');
    expect(attached.status).toBe(1);
    expect(attached.stderr).toMatch(/judgectl: .*\(409 problem\.attached\)/);
    expect((await c.admin.call(ops.getProblem, { params: { id: (await assignment()).problemId } })).slug).toBe('sum');

    const spare = join(c.work, 'spare');
    writeTree(spare, SUM_PACKAGE);
    expect((await as.admin.ctl('problems', 'import', spare, '--slug', 'spare')).status).toBe(0);
    const pupilDelete = await as.pupil.failure('problems', 'delete', 'spare');
    expect(pupilDelete.error).toMatchObject({ status: 403, code: 'forbidden', problem: { code: 'forbidden' } });
    const pupilUpdate = await as.pupil.failure('problems', 'update', 'spare', dir);
    expect(pupilUpdate.error).toMatchObject({ status: 403, code: 'forbidden' });
    expect(await as.admin.json<ProblemVersion[]>('problems', 'versions', 'spare')).toHaveLength(1);
    const del = await as.admin.ctl('problems', 'delete', 'spare');
    expect(del.stdout).toMatch(/Deleted the problem spare/);
    expect((await c.admin.call(ops.listProblems, { query: { search: 'spare' } })).total).toBe(0);
  }, 120_000);

  it('submissions cancel cancels a queued judging, and refuses a finished one in words', async () => {
    const done = (await c.admin.call(ops.listSubmissions, { query: { activityId: c.act.id, state: 'completed' } })).items[0]!;
    const finished = await as.admin.ctl('submissions', 'cancel', done.id);
    expect(finished.status).toBe(1);
    expect(finished.stderr).toMatch(/attempt \d+ of .* is already completed .*only a queued or running judging can be cancelled/);

    c.runner.stop();
    await new Promise((r) => c.runner.child.once('exit', r));
    const queued = await c.pupil.call(ops.submit, { params: { idOrSlug: c.act.slug, problemSlug: 'sum' }, form: codeForm(SUM_PY, 'sum.py') });
    const refused = await as.pupil.failure('submissions', 'cancel', queued.id);
    expect([403, 404]).toContain(refused.error.status);
    expect((await c.admin.call(ops.getSubmission, { params: { id: queued.id } })).state).toBe('queued');

    const r = await as.admin.ctl('submissions', 'cancel', queued.id);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Cancelled attempt 1 of ${queued.id} (it was queued).`);
    expect((await c.admin.call(ops.getSubmission, { params: { id: queued.id } })).state).toBe('cancelled');
  }, 120_000);
});
