import { describe as suite, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { until } from '../packages/server/test/support/wait.js';
import { useJudgedContest } from './judged-contest.js';
import { uidBaseOfRun } from './runner-process.js';

/**
 * Time-limit calibration end to end: a package naming no time limit, with an accepted example in C;
 * the server queues a trial of it, `bin/judge-runner` (a child process) runs it and reports
 * problemtools' limit (slowest accepted test × 5, at least 1 s), the server stores it, the views
 * show it, and the next submissions are judged at it rather than the runner's default of 2 s.
 * Build first (`pnpm build`): the launcher runs the built runner.
 */

/** A uid range of this file's own, apart from the other end-to-end files' sandboxes. */
const UID_BASE = uidBaseOfRun(61300);
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
  const c = useJudgedContest({
    tmpPrefix: 'judge-calibration-',
    contest: { slug: 'calib', name: 'Calibration', problemSlug: 'echo', problemName: 'Echo', files: UNNAMED },
    runner: { name: 'calibration-runner', uidBase: UID_BASE, waitJudging: false },
  });
  const logs = () => c.runner.logs.join('');

  it("the runner's trial computes 1 s, the views show it and submissions are judged at it", async () => {
    const version = await until(
      'the calibration trial to report',
      async () => {
        const [newest] = await c.admin.call(ops.listProblemVersions, { params: { problemId: c.problem.id } });
        return newest?.package?.timeLimitSource === 'trial' ? newest : undefined;
      },
      90_000,
      200,
    );
    expect(version.package?.timeLimitSeconds, logs()).toBe(1);
    const view = await c.pupil.call(ops.getActivityProblem, { params: { idOrSlug: c.act.slug, problemSlug: 'echo' } });
    expect(view.timeLimitSeconds).toBe(1);

    const ok = await c.judged('echo.c', ECHO_C);
    expect(ok, logs()).toMatchObject({ verdict: 'AC', state: 'completed' });
    const m = await c.admin.call(ops.getSubmission, { params: { id: ok.id } });
    const log = m.attemptList[0]!.files.find((f) => f.name === 'log')!;
    expect(Buffer.from(await c.admin.call(ops.downloadFile, { params: { id: log.fileId } })).toString()).toContain('time limit 1 s (computed by a trial)');

    const slow = await c.judged('slow.c', SLOW_C);
    expect(slow.verdict, logs()).toBe('TLE');
  }, 180_000);
});
