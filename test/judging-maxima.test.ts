import { describe as suite, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { useJudgedContest } from './judged-contest.js';
import { uidBaseOfRun } from './runner-process.js';

/**
 * The instance's maxima end to end: a server whose administrator set low maxima, `bin/judge-runner`
 * as a child process, and a package asking for 100,000 s and 1,000,000 MiB. The runner gets the
 * maxima with the job and judges under them; the problem view shows the same figures.
 * Build first (`pnpm build`): the launcher runs the built runner.
 */

/** A uid range of this file's own, apart from the other end-to-end files' sandboxes. */
const UID_BASE = uidBaseOfRun(60200);
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
  const c = useJudgedContest({
    tmpPrefix: 'judge-maxima-',
    config: { judging: { maxTimeLimitSeconds: 1, maxMemoryMib: 64, maxOutputMib: 1 } },
    contest: { slug: 'maxima', name: 'Maxima', problemSlug: 'huge', problemName: 'Huge', files: HUGE },
    runner: { name: 'maxima-runner', uidBase: UID_BASE },
  });
  const logs = () => c.runner.logs.join('');

  it('a package asking for 100,000 s and 1,000,000 MiB is judged with 1 s and 64 MiB, and its view says so', async () => {
    const view = await c.pupil.call(ops.getActivityProblem, { params: { idOrSlug: c.act.slug, problemSlug: 'huge' } });
    expect({ time: view.timeLimitSeconds, memory: view.memoryMiB }).toEqual({ time: 1, memory: 64 });

    const ok = await c.judged('echo.c', ECHO_C);
    expect(ok, logs()).toMatchObject({ verdict: 'AC', state: 'completed' });
    const m = await c.admin.call(ops.getSubmission, { params: { id: ok.id } });
    const files = m.attemptList[0]!.files;
    const read = async (name: string) => Buffer.from(await c.admin.call(ops.downloadFile, { params: { id: files.find((f) => f.name === name)!.fileId } })).toString();
    const details = JSON.parse(await read('details')) as { limits: { timeMs: number; memoryBytes: number; outputBytes: number } };
    expect(details.limits).toEqual({ timeMs: 1000, memoryBytes: 64 * MiB, outputBytes: MiB });
    expect(await read('log')).toContain("time limit 100000 s capped to the instance's maximum, 1 s (problem.yaml)");

    const slow = await c.judged('slow.c', SLOW_C);
    expect(slow.verdict, logs()).toBe('TLE');
  }, 120_000);
});
