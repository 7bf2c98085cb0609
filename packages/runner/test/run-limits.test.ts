import { describe as suite, expect, it } from 'vitest';
import { runTrial } from '@judge/runner';
import { hasBwrap, judgeFixture } from './judging.js';

/**
 * The limits a submission runs under, judged end to end in the real sandbox: the package's time
 * limit from problem.yaml, domjudge-problem.ini or .timelimit, and every limit capped by the
 * instance's maxima (the server hands them with each job; the defaults without).
 */

const describe = suite.skipIf(!hasBwrap);
const fixture = judgeFixture();
const { problemOf, judge } = fixture;
const MiB = 1024 * 1024;

const data = {
  'data/sample/1.in': '7\n',
  'data/sample/1.ans': '7\n',
  'data/secret/1.in': '42\n',
  'data/secret/1.ans': '42\n',
};

const ECHO_C = '#include <stdio.h>\nint main(void){long x;if(scanf("%ld",&x)!=1)return 1;printf("%ld\\n",x);return 0;}\n';
// burns 3 s of CPU time, then answers
const SLOW_C = '#include <stdio.h>\n#include <time.h>\nint main(void){long x;scanf("%ld",&x);while(clock()<3*CLOCKS_PER_SEC);printf("%ld\\n",x);return 0;}\n';
// touches 200 MiB, then answers
const HUNGRY_C =
  '#include <stdio.h>\n#include <stdlib.h>\nint main(void){long x;scanf("%ld",&x);size_t n=200u<<20;volatile char*p=malloc(n);if(!p)return 3;for(size_t i=0;i<n;i+=4096)p[i]=1;printf("%ld\\n",x);return 0;}\n';

describe('the time limit of a package', () => {
  it('comes from domjudge-problem.ini when problem.yaml names none, and problem.yaml wins over it and .timelimit', async () => {
    const ini = await problemOf({ 'problem.yaml': 'name: Echo\n', 'domjudge-problem.ini': 'name = "Echo"\ntimelimit = 3\n', ...data });
    expect(ini.limits).toMatchObject({ timeLimitSeconds: 3, timeLimitSource: 'domjudge-problem.ini' });
    const r = await judge(ini, { files: { 'echo.c': ECHO_C } });
    expect(r.verdict, r.log).toBe('AC');
    expect(r.details.limits?.timeMs).toBe(3000);
    expect(r.log).toContain('time limit 3 s (domjudge-problem.ini)');

    const all = await problemOf({ 'problem.yaml': 'name: Echo\nlimits:\n  time_limit: 4\n', 'domjudge-problem.ini': 'timelimit=3\n', '.timelimit': '5\n', ...data });
    expect(all.limits).toMatchObject({ timeLimitSeconds: 4, timeLimitSource: 'problem.yaml' });
    expect(all.warnings).toContain('domjudge-problem.ini says 3 s, problem.yaml 4 s: problem.yaml counts');
    expect(all.warnings).toContain('.timelimit says 5 s, problem.yaml 4 s: problem.yaml counts');
    const legacy = await problemOf({ 'problem.yaml': 'name: Echo\n', '.timelimit': '2.5\n', ...data });
    expect(legacy.limits).toMatchObject({ timeLimitSeconds: 2.5, timeLimitSource: '.timelimit' });
  });
});

describe('the instance maxima', () => {
  it('a package asking for 100,000 s, 1,000,000 MiB and 100,000 MiB of output is judged with the default maxima', async () => {
    const huge = await problemOf({ 'problem.yaml': 'name: Echo\nlimits:\n  time_limit: 100000\n  memory: 1000000\n  output: 100000\n', ...data });
    const r = await judge(huge, { files: { 'echo.c': ECHO_C } });
    expect(r.verdict, r.log).toBe('AC');
    expect(r.details.limits).toEqual({ timeMs: 60_000, memoryBytes: 2048 * MiB, outputBytes: 64 * MiB });
    expect(r.log).toContain("time limit 100000 s capped to the instance's maximum, 60 s (problem.yaml)");
    expect(r.log).toContain("memory 1000000 MiB capped to the instance's maximum, 2048 MiB");
    expect(r.log).toContain("output 100000 MiB capped to the instance's maximum, 64 MiB");
  });

  it("the server's maxima cap the package's and the assignment's figures: TLE and MLE under them", async () => {
    const huge = await problemOf({ 'problem.yaml': 'name: Echo\nlimits:\n  time_limit: 100000\n  memory: 1000000\n', ...data });
    const maxima = { timeLimitSeconds: 1, memoryMiB: 64, outputMiB: 1 };
    const fine = await judge(huge, { files: { 'echo.c': ECHO_C }, maxima, config: { timeLimitSeconds: 30 } });
    expect(fine.verdict, fine.log).toBe('AC');
    expect(fine.details.limits).toEqual({ timeMs: 1000, memoryBytes: 64 * MiB, outputBytes: MiB });
    expect(fine.log).toContain("time limit 30 s capped to the instance's maximum, 1 s (assignment)");
    expect((await judge(huge, { files: { 'slow.c': SLOW_C }, maxima })).verdict).toBe('TLE');
    expect((await judge(huge, { files: { 'hungry.c': HUNGRY_C }, maxima })).verdict).toBe('MLE');
  }, 30_000);

  it("a runner's own memory cap below the instance's applies too", async () => {
    const big = await problemOf({ 'problem.yaml': 'name: Echo\nlimits:\n  memory: 4096\n', ...data });
    const r = await judge(big, { files: { 'echo.c': ECHO_C }, limits: { maxMemoryMiB: 512 } });
    expect(r.verdict, r.log).toBe('AC');
    expect(r.details.limits?.memoryBytes).toBe(512 * MiB);
    expect(r.log).toContain("memory 4096 MiB capped to this runner's 512 MiB");
  });

  it('a trial runs the examples under the maxima and reports the time limit they ran under', async () => {
    const huge = await problemOf({ 'problem.yaml': 'name: Echo\nlimits:\n  time_limit: 100000\n', 'submissions/accepted/echo.c': ECHO_C, ...data });
    const trial = await runTrial({ sandbox: fixture.sandbox, languages: fixture.languages, problem: huge, maxima: { timeLimitSeconds: 2 } });
    expect(trial.submissions[0]).toMatchObject({ verdict: 'AC', ok: true });
    expect(JSON.parse(trial.measurement).timing).toMatchObject({ timeLimitSeconds: 2, timeLimitSource: 'problem.yaml' });
  });
});
