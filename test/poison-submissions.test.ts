import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type SubmissionSummary } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { zipOf } from '../packages/server/test/zips.js';
import { oneProblemContest, settled, SUM_PACKAGE, type OneProblemContest } from './one-problem-contest.js';
import { runnerDir, startRunnerProcess, type RunnerProcess, uidBaseOfRun } from './runner-process.js';

/**
 * Poison submissions: a program that ptraces its sandbox's pid 1 once made
 * the sandbox launcher die, the runner exit, and the restarted runner claim it again forever. Here a
 * real server and a real `bin/judge-runner` child with one slot: each poison gets a verdict in one
 * delivery, the runner process never ends, and an innocent submission sent right after a burst
 * (two per slot) is judged next. Build first (`pnpm build`): the launcher runs the built runner.
 */

const UID_BASE = uidBaseOfRun(61900);

const PTRACE_PID1 = `#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
  ptrace(PTRACE_ATTACH, 1, 0, 0);
  int st;
  waitpid(1, &st, __WALL);
  sleep(1);
  int a, b;
  if (scanf("%d %d", &a, &b) == 2) printf("%d\\n", a + b);
  return 0;
}
`;
const INNOCENT = 'a, b = map(int, input().split())\nprint(a + b)\n';

describe('poison submissions', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let world: OneProblemContest;
  let work: string;
  let runner: RunnerProcess;

  const submit = (fileName: string, code: string): Promise<SubmissionSummary> =>
    world.pupil.call(ops.submit, { params: { idOrSlug: world.act.slug, problemSlug: 'sum' }, form: codeForm(code, fileName) });
  const verdictOf = (s: SubmissionSummary) => settled(world.pupil, world.act.slug, s.id, { ms: 180_000, stepMs: 200 });
  const attemptRow = async (submissionId: string) =>
    (await j.query<{ deliveries: number; claimedAt: string; finishedAt: string }>(
      'SELECT deliveries, claimed_at AS "claimedAt", finished_at AS "finishedAt" FROM attempts WHERE submission_id = ?',
      submissionId,
    ))[0]!;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'judge-poison-'));
    j = await TestJudge.start();
    admin = await j.admin();
    world = await oneProblemContest(j, admin, { slug: 'poison', name: 'Poison', problemSlug: 'sum', problemName: 'Sum', zip: await zipOf(SUM_PACKAGE) });
    runner = await startRunnerProcess({ url: j.url, admin, name: 'poisoned', dir: runnerDir(work), uidBase: UID_BASE, args: ['--slots', '1'] });
  }, 120_000);

  afterAll(async () => {
    runner?.stop('SIGKILL');
    await j?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('a program that ptraces its sandbox\'s pid 1 gets a verdict, and the runner judges on', async () => {
    const pid = runner.child.pid;
    const poison = await verdictOf(await submit('ptrace.c', PTRACE_PID1));
    expect(poison.state, runner.logs.join('')).toBe('completed');
    expect(poison.verdict).toMatch(/^(AC|WA|RTE)$/);
    expect((await attemptRow(poison.id)).deliveries).toBe(1);
    const innocent = await verdictOf(await submit('sum.py', INNOCENT));
    expect(innocent).toMatchObject({ state: 'completed', verdict: 'AC' });
    expect(runner.child.exitCode).toBeNull();
    expect(runner.child.pid).toBe(pid);
  });

  it('a burst of poison (two per slot) holds up an innocent submission sent after it by no more than those judgings', async () => {
    const burst = [await submit('ptrace.c', PTRACE_PID1), await submit('ptrace.c', `${PTRACE_PID1}// 2\n`)];
    const innocent = await submit('sum.py', INNOCENT);
    const verdicts = await Promise.all([...burst, innocent].map(verdictOf));
    for (const v of verdicts.slice(0, 2)) expect(v.state, runner.logs.join('')).toBe('completed');
    expect(verdicts[2]).toMatchObject({ state: 'completed', verdict: 'AC' });
    // each poison was judged once, and the innocent one was claimed as soon as the second was done
    for (const p of burst) expect((await attemptRow(p.id)).deliveries).toBe(1);
    expect((await attemptRow(innocent.id)).deliveries).toBe(1);
    expect((await attemptRow(innocent.id)).claimedAt >= (await attemptRow(burst[1]!.id)).finishedAt).toBe(true);
    expect(runner.child.exitCode).toBeNull();
    expect(runner.logs.join('')).not.toContain('BUG:');
  });
});
