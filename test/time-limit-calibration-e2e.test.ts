import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe as suite, expect, it } from 'vitest';
import { ops, type Activity, type SubmissionSummary } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { until } from '../packages/server/test/support/wait.js';
import { oneProblemContest, settled } from './one-problem-contest.js';
import { runnerDir, startRunnerProcess, type RunnerProcess } from './runner-process.js';
import { zipOf } from '../packages/server/test/zips.js';

/**
 * Time-limit calibration end to end: a package naming no time limit, with an accepted example in C;
 * the server queues a trial of it, `bin/judge-runner` (a child process) runs it and reports
 * problemtools' limit (slowest accepted test × 5, at least 1 s), the server stores it, the views
 * show it, and the next submissions are judged at it rather than the runner's default of 2 s.
 * Build first (`pnpm build`): the launcher runs the built runner.
 */

/** A uid range of this file's own, apart from the other end-to-end files' sandboxes. */
const UID_BASE = 61300;
const root = process.geteuid?.() === 0;
const describe = suite.skipIf(!root);

const ECHO_C = '#include <stdio.h>\nint main(void){long x;if(scanf("%ld",&x)!=1)return 1;printf("%ld\\n",x);return 0;}\n';
// burns 1.5 s of CPU time before it answers: within the runner's default 2 s, not within the computed 1 s
const SLOW_C = '#include <stdio.h>\n#include <time.h>\nint main(void){long x;scanf("%ld",&x);while(clock()<3*CLOCKS_PER_SEC/2);printf("%ld\\n",x);return 0;}\n';
const UNNAMED = {
  'problem.yaml': 'name: Calibrated\n',
  'data/sample/1.in': '7\n',
  'data/sample/1.ans': '7\n',
  'data/secret/1.in': '42\n',
  'data/secret/1.ans': '42\n',
  'submissions/accepted/echo.c': ECHO_C,
};

describe('a time limit computed by a trial (server, runner process, sandbox)', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let pupil: JudgeClient;
  let act: Activity;
  let problemId: string;
  let work: string;
  let runner: RunnerProcess | undefined;
  let logs: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'judge-calibration-'));
    j = await TestJudge.start();
    admin = await j.admin();
    ({ act, pupil, problem: { id: problemId } } = await oneProblemContest(j, admin, { slug: 'calib', name: 'Calibration', problemSlug: 'echo', problemName: 'Echo', zip: await zipOf(UNNAMED) }));
    runner = await startRunnerProcess({ url: j.url, admin, name: 'calibration-runner', dir: runnerDir(work), uidBase: UID_BASE, waitJudging: false });
    logs = runner.logs;
  }, 120_000);

  afterAll(async () => {
    runner?.stop();
    await j?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const judged = async (fileName: string, code: string): Promise<SubmissionSummary> => {
    const s = await pupil.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'echo' }, form: codeForm(code, fileName) });
    return settled(pupil, act.slug, s.id, { ms: 60_000, stepMs: 100 });
  };

  it("the runner's trial computes 1 s, the views show it and submissions are judged at it", async () => {
    const version = await until(
      'the calibration trial to report',
      async () => {
        const [newest] = await admin.call(ops.listProblemVersions, { params: { problemId } });
        return newest?.package?.timeLimitSource === 'trial' ? newest : undefined;
      },
      90_000,
      200,
    );
    expect(version.package?.timeLimitSeconds, logs.join('')).toBe(1);
    const view = await pupil.call(ops.getActivityProblem, { params: { idOrSlug: act.slug, problemSlug: 'echo' } });
    expect(view.timeLimitSeconds).toBe(1);

    const ok = await judged('echo.c', ECHO_C);
    expect(ok, logs.join('')).toMatchObject({ verdict: 'AC', state: 'completed' });
    const m = await admin.call(ops.getSubmission, { params: { id: ok.id } });
    const log = m.attemptList[0]!.files.find((f) => f.name === 'log')!;
    expect(Buffer.from(await admin.call(ops.downloadFile, { params: { id: log.fileId } })).toString()).toContain('time limit 1 s (computed by a trial)');

    const slow = await judged('slow.c', SLOW_C);
    expect(slow.verdict, logs.join('')).toBe('TLE');
  }, 180_000);
});
