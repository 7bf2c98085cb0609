import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe as suite, expect, it } from 'vitest';
import { ops, type Activity, type SubmissionSummary } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { TestJudge } from '../packages/server/test/harness.js';
import { until } from '../packages/server/test/support/wait.js';
import { zipOf } from '../packages/server/test/zips.js';
import { oneProblemContest, SUM_PACKAGE } from './one-problem-contest.js';
import { runnerDir, startRunnerProcess, type RunnerProcess } from './runner-process.js';

/**
 * Compiles paid once, end to end: 100 submissions of one C++ source through the participant API,
 * judged by `bin/judge-runner` (a child process, the real sandbox, a cache directory of its own),
 * then the whole assignment rejudged. The runner compiles the source once: the identical
 * resubmissions and the rejudge take it from its compile cache, and their logs say so. Build
 * first (`pnpm build`).
 */

/** A uid range of this file's own, apart from the other end-to-end files' sandboxes. */
const UID_BASE = 61520;
const describe = suite.skipIf(process.geteuid?.() !== 0);
const COUNT = 100;

const SUM_CPP = '#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n';

describe('the compile cache end to end (server, runner process, sandbox)', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let pupil: JudgeClient;
  let act: Activity;
  let work: string;
  let runner: RunnerProcess | undefined;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'judge-compile-cache-e2e-'));
    // the cache directory must be searchable by the sandbox's uids (its precompiled headers are mounted)
    chmodSync(work, 0o711);
    j = await TestJudge.start();
    admin = await j.admin();
    ({ act, pupil } = await oneProblemContest(j, admin, { slug: 'cached', name: 'Cached', problemSlug: 'sum', problemName: 'Sum', zip: await zipOf(SUM_PACKAGE) }));
    runner = await startRunnerProcess({ url: j.url, admin, name: 'compile-cache-runner', dir: runnerDir(work), uidBase: UID_BASE, args: ['--cache-dir', join(work, 'cache')] });
  }, 120_000);

  afterAll(async () => {
    runner?.stop();
    await j?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const all = async (attempts: number): Promise<SubmissionSummary[]> =>
    until(
      `${COUNT} submissions judged ${attempts === 1 ? 'once' : `${attempts} times`}`,
      async () => {
        const items: SubmissionSummary[] = [];
        for (let page = 1; items.length < COUNT; page++) {
          const got = await admin.call(ops.listSubmissions, { query: { activityId: act.id, page, pageSize: 100 } });
          items.push(...got.items);
          if (got.items.length === 0 || items.length >= got.total) break;
        }
        const done = items.filter((s) => s.attempts === attempts && (s.state === 'completed' || s.state === 'failed'));
        return done.length === COUNT ? done : undefined;
      },
      300_000,
      500,
    );

  const logOf = async (id: string, attempt: number): Promise<string> => {
    const m = await admin.call(ops.getSubmission, { params: { id } });
    const file = m.attemptList.find((a) => a.attempt === attempt)!.files.find((f) => f.name === 'log')!;
    return Buffer.from(await admin.call(ops.downloadFile, { params: { id: file.fileId } })).toString();
  };

  it(`${COUNT} submissions of one source, then their rejudge, compile once`, async () => {
    for (let i = 0; i < COUNT; i++) await pupil.submit(act.slug, 'sum', [{ name: 'sum.cpp', bytes: SUM_CPP }]);
    const first = await all(1);
    expect(first.map((s) => s.verdict), runner!.logs.join('')).toEqual(new Array(COUNT).fill('AC'));
    const queued = await admin.call(ops.rejudgeAssignment, { params: { assignmentId: first[0]!.seriesProblemId } });
    expect(queued).toBe(COUNT);
    const second = await all(2);
    expect(second.map((s) => s.verdict)).toEqual(new Array(COUNT).fill('AC'));
    // the logs: one compile among the first attempts, every rejudge from the cache
    const firstLogs = await Promise.all(first.map((s) => logOf(s.id, 1)));
    expect(firstLogs.filter((l) => !l.includes('compile: cached'))).toHaveLength(1);
    const secondLogs = await Promise.all(second.map((s) => logOf(s.id, 2)));
    expect(secondLogs.every((l) => l.includes('compile: cached'))).toBe(true);
    // the runner's own count of compiler runs, said as it stops
    runner!.stop('SIGTERM');
    await until('the runner stopped', () => (runner!.child.exitCode !== null ? true : undefined), 60_000, 100);
    const said = runner!.logs.join('').match(/compile cache: (\d+) compiled, (\d+) taken from the cache/);
    expect(said?.slice(1).map(Number), runner!.logs.join('')).toEqual([1, 2 * COUNT - 1]);
  }, 600_000);
});
