import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ops, type Activity, type Problem, type SubmissionDetail } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { zipOf } from '../packages/server/test/zips.js';
import { oneProblemContest, settled } from './one-problem-contest.js';
import { runnerDir, startRunnerProcess, type RunnerProcess } from './runner-process.js';

/**
 * What the end-to-end judging files set up alike: a server, the one-problem contest of
 * one-problem-contest.ts made from a package's files, and `bin/judge-runner` as a child process in
 * the real sandbox (`pnpm build` first), in a temporary directory; started before the tests of the
 * calling `describe` and stopped after them.
 */

export interface JudgedContest {
  j: TestJudge;
  admin: JudgeClient;
  /** The enrolled participant. */
  pupil: JudgeClient;
  act: Activity;
  problem: Problem;
  /** The file's temporary directory (the runner's configuration is in runnerDir(work)). */
  work: string;
  runner: RunnerProcess;
  /** Submits one file as the participant to the problem, and answers its view once judged. */
  judged(fileName: string, code: string): Promise<SubmissionDetail>;
}

export interface JudgedContestOptions {
  tmpPrefix: string;
  /** The server's settings over the tests' defaults. */
  config?: NonNullable<Parameters<typeof TestJudge.start>[0]>['config'];
  contest: { slug: string; name: string; problemSlug: string; problemName: string; files: Record<string, string> };
  /** Its uid range is the file's own, apart from the other end-to-end files' sandboxes. */
  runner: { name: string; uidBase: number; waitJudging?: boolean; args?: (work: string) => string[] };
  /** What the file changes before the runner starts (the contest's settings, the directory's mode). */
  prepare?: (c: JudgedContest) => Promise<unknown> | void;
}

/** Call inside the describe; the fields are there once its beforeAll ran. */
export function useJudgedContest(o: JudgedContestOptions): JudgedContest {
  const c = {
    async judged(fileName: string, code: string): Promise<SubmissionDetail> {
      const s = await c.pupil.call(ops.submit, { params: { idOrSlug: c.act.slug, problemSlug: o.contest.problemSlug }, form: codeForm(code, fileName) });
      return settled(c.pupil, c.act.slug, s.id, { ms: 60_000, stepMs: 100 });
    },
  } as JudgedContest;

  beforeAll(async () => {
    c.work = mkdtempSync(join(tmpdir(), o.tmpPrefix));
    c.j = await TestJudge.start(o.config ? { config: o.config } : {});
    c.admin = await c.j.admin();
    const { files, ...contest } = o.contest;
    Object.assign(c, await oneProblemContest(c.j, c.admin, { ...contest, zip: await zipOf(files) }));
    await o.prepare?.(c);
    c.runner = await startRunnerProcess({
      url: c.j.url,
      admin: c.admin,
      name: o.runner.name,
      dir: runnerDir(c.work),
      uidBase: o.runner.uidBase,
      ...(o.runner.waitJudging !== undefined ? { waitJudging: o.runner.waitJudging } : {}),
      ...(o.runner.args ? { args: o.runner.args(c.work) } : {}),
    });
  }, 120_000);

  afterAll(async () => {
    c.runner?.stop();
    await c.j?.stop();
    if (c.work) rmSync(c.work, { recursive: true, force: true });
  });
  return c;
}
