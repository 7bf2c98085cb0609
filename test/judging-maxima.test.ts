import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe as suite, expect, it } from 'vitest';
import { ops, type Activity, type SubmissionSummary } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { oneProblemContest, settled } from './one-problem-contest.js';
import { runnerDir, startRunnerProcess, type RunnerProcess } from './runner-process.js';
import { zipOf } from '../packages/server/test/zips.js';

/**
 * The instance's maxima end to end: a server whose administrator set low maxima, `bin/judge-runner`
 * as a child process, and a package asking for 100,000 s and 1,000,000 MiB. The runner gets the
 * maxima with the job and judges under them; the problem view shows the same figures.
 * Build first (`pnpm build`): the launcher runs the built runner.
 */

/** A uid range of this file's own, apart from the other end-to-end files' sandboxes. */
const UID_BASE = 60200;
const root = process.geteuid?.() === 0;
const describe = suite.skipIf(!root);
const MiB = 1024 * 1024;

const HUGE = {
  'problem.yaml': 'name: Huge\nlimits:\n  time_limit: 100000\n  memory: 1000000\n',
  'data/sample/1.in': '7\n',
  'data/sample/1.ans': '7\n',
  'data/secret/1.in': '42\n',
  'data/secret/1.ans': '42\n',
};
const ECHO_C = '#include <stdio.h>\nint main(void){long x;if(scanf("%ld",&x)!=1)return 1;printf("%ld\\n",x);return 0;}\n';
// burns 3 s of CPU time before it answers: within the package's 100,000 s, not within the instance's 1 s
const SLOW_C = '#include <stdio.h>\n#include <time.h>\nint main(void){long x;scanf("%ld",&x);while(clock()<3*CLOCKS_PER_SEC);printf("%ld\\n",x);return 0;}\n';

describe('judging under the instance maxima (server, runner process, sandbox)', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let pupil: JudgeClient;
  let act: Activity;
  let work: string;
  let runner: RunnerProcess | undefined;
  let logs: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'judge-maxima-'));
    j = await TestJudge.start({ config: { judging: { maxTimeLimitSeconds: 1, maxMemoryMib: 64, maxOutputMib: 1 } } });
    admin = await j.admin();
    ({ act, pupil } = await oneProblemContest(j, admin, { slug: 'maxima', name: 'Maxima', problemSlug: 'huge', problemName: 'Huge', zip: await zipOf(HUGE) }));
    runner = await startRunnerProcess({ url: j.url, admin, name: 'maxima-runner', dir: runnerDir(work), uidBase: UID_BASE });
    logs = runner.logs;
  }, 120_000);

  afterAll(async () => {
    runner?.stop();
    await j?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const judged = async (fileName: string, code: string): Promise<SubmissionSummary> => {
    const s = await pupil.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'huge' }, form: codeForm(code, fileName) });
    return settled(pupil, act.slug, s.id, { ms: 60_000, stepMs: 100 });
  };

  it('a package asking for 100,000 s and 1,000,000 MiB is judged with 1 s and 64 MiB, and its view says so', async () => {
    const view = await pupil.call(ops.getActivityProblem, { params: { idOrSlug: act.slug, problemSlug: 'huge' } });
    expect({ time: view.timeLimitSeconds, memory: view.memoryMiB }).toEqual({ time: 1, memory: 64 });

    const ok = await judged('echo.c', ECHO_C);
    expect(ok, logs.join('')).toMatchObject({ verdict: 'AC', state: 'completed' });
    const m = await admin.call(ops.getSubmission, { params: { id: ok.id } });
    const files = m.attemptList[0]!.files;
    const read = async (name: string) => Buffer.from(await admin.call(ops.downloadFile, { params: { id: files.find((f) => f.name === name)!.fileId } })).toString();
    const details = JSON.parse(await read('details')) as { limits: { timeMs: number; memoryBytes: number; outputBytes: number } };
    expect(details.limits).toEqual({ timeMs: 1000, memoryBytes: 64 * MiB, outputBytes: MiB });
    expect(await read('log')).toContain("time limit 100000 s capped to the instance's maximum, 1 s (problem.yaml)");

    const slow = await judged('slow.c', SLOW_C);
    expect(slow.verdict, logs.join('')).toBe('TLE');
  }, 120_000);
});
