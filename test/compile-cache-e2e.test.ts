import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe as suite, expect, it } from 'vitest';
import { ops, type SubmissionSummary } from '@judge/contract';
import { until } from '../packages/server/test/support/wait.js';
import { useJudgedContest } from './judged-contest.js';
import { SUM_PACKAGE } from './one-problem-contest.js';
import { uidBaseOfRun } from './runner-process.js';

/**
 * Compiles paid once, end to end: 100 submissions of one C++ source through the participant API,
 * judged by `bin/judge-runner` (a child process, the real sandbox, a cache directory of its own),
 * then the whole assignment rejudged. The runner compiles the source once: the identical
 * resubmissions and the rejudge take it from its compile cache, and their logs say so. Build
 * first (`pnpm build`).
 */

/** A uid range of this file's own, apart from the other end-to-end files' sandboxes. */
const UID_BASE = uidBaseOfRun(61520);
const describe = suite.skipIf(process.geteuid?.() !== 0);
const COUNT = 100;

const SUM_CPP = '#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n';

describe('the compile cache end to end (server, runner process, sandbox)', () => {
  const c = useJudgedContest({
    tmpPrefix: 'judge-compile-cache-e2e-',
    contest: { slug: 'cached', name: 'Cached', problemSlug: 'sum', problemName: 'Sum', files: SUM_PACKAGE },
    runner: { name: 'compile-cache-runner', uidBase: UID_BASE, args: (work) => ['--cache-dir', join(work, 'cache')] },
    // the cache directory must be searchable by the sandbox's uids (its precompiled headers are mounted)
    prepare: ({ work }) => chmodSync(work, 0o711),
  });

  const all = async (attempts: number): Promise<SubmissionSummary[]> =>
    until(
      `${COUNT} submissions judged ${attempts === 1 ? 'once' : `${attempts} times`}`,
      async () => {
        const items: SubmissionSummary[] = [];
        for (let page = 1; items.length < COUNT; page++) {
          const got = await c.admin.call(ops.listSubmissions, { query: { activityId: c.act.id, page, pageSize: 100 } });
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
    const m = await c.admin.call(ops.getSubmission, { params: { id } });
    const file = m.attemptList.find((a) => a.attempt === attempt)!.files.find((f) => f.name === 'log')!;
    return Buffer.from(await c.admin.call(ops.downloadFile, { params: { id: file.fileId } })).toString();
  };

  it(`${COUNT} submissions of one source, then their rejudge, compile once`, async () => {
    for (let i = 0; i < COUNT; i++) await c.pupil.submit(c.act.slug, 'sum', [{ name: 'sum.cpp', bytes: SUM_CPP }]);
    const first = await all(1);
    expect(first.map((s) => s.verdict), c.runner.logs.join('')).toEqual(new Array(COUNT).fill('AC'));
    const queued = await c.admin.call(ops.rejudgeAssignment, { params: { assignmentId: first[0]!.seriesProblemId } });
    expect(queued).toBe(COUNT);
    const second = await all(2);
    expect(second.map((s) => s.verdict)).toEqual(new Array(COUNT).fill('AC'));
    // the logs: one compile among the first attempts, every rejudge from the cache
    const firstLogs = await Promise.all(first.map((s) => logOf(s.id, 1)));
    expect(firstLogs.filter((l) => !l.includes('compile: cached'))).toHaveLength(1);
    const secondLogs = await Promise.all(second.map((s) => logOf(s.id, 2)));
    expect(secondLogs.every((l) => l.includes('compile: cached'))).toBe(true);
    // the runner's own count of compiler runs, said as it stops
    c.runner.stop('SIGTERM');
    await until('the runner stopped', () => (c.runner.child.exitCode !== null ? true : undefined), 60_000, 100);
    const said = c.runner.logs.join('').match(/compile cache: (\d+) compiled, (\d+) taken from the cache/);
    expect(said?.slice(1).map(Number), c.runner.logs.join('')).toEqual([1, 2 * COUNT - 1]);
  }, 600_000);
});
