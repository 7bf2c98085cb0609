import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type SampleRun } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { until } from '../packages/server/test/support/wait.js';
import { zipOf } from '../packages/server/test/zips.js';
import { writeFileSync } from 'node:fs';
import { judgectlAs } from './judgectl-child.js';
import { oneProblemContest, settled } from './one-problem-contest.js';
import { runnerDir, startRunnerProcess, type RunnerProcess, uidBaseOfRun } from './runner-process.js';

/**
 * Sample runs with a real server, a real runner process and the real sandbox: a burst of them
 * queued before any submission does not hold the submissions up (every submission is judged before
 * any sample run starts), and each run shows each sample's verdict, time, input, expected and actual
 * output, for correct, wrong and non-compiling code; the secret test is never run.
 */

const UID_BASE = uidBaseOfRun(63300);
const PACKAGE = {
  'problem.yaml': 'name: Sum\n',
  'data/sample/1.in': '1 2\n',
  'data/sample/1.ans': '3\n',
  'data/sample/2.in': '10 20\n',
  'data/sample/2.ans': '30\n',
  'data/secret/1.in': '5 5\n',
  'data/secret/1.ans': '10\n',
};
// right on the samples, wrong on the secret test: a sample run says AC, a submission WA
const SAMPLES_ONLY = 'a, b = map(int, input().split())\nprint(a + b + (1 if a == 5 else 0))\n';
const WRONG = 'a, b = map(int, input().split())\nprint(a * b)\n';
const BROKEN_C = 'int main(void) { return missing; }\n';
const BURST = 6;

let j: TestJudge;
let admin: JudgeClient;
let pupil: JudgeClient;
let act: Activity;
let work: string;
let runner: RunnerProcess | undefined;

const finished = (c: JudgeClient, id: string) =>
  until(
    'a finished sample run',
    async () => {
      const r = await c.call(ops.getSampleRun, { params: { sampleRunId: id } });
      return r.state === 'completed' || r.state === 'failed' ? r : undefined;
    },
    120_000,
    100,
  );
const tryOn = (c: JudgeClient, name: string, code: string) => c.call(ops.runSamples, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, body: { files: [{ name, code }] } });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'judge-sample-runs-e2e-'));
  j = await TestJudge.start();
  admin = await j.admin();
  ({ act, pupil } = await oneProblemContest(j, admin, { slug: 'tries', name: 'Tries', problemSlug: 'sum', problemName: 'Sum', zip: await zipOf(PACKAGE) }));
}, 60_000);

afterAll(async () => {
  runner?.stop();
  await j?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('sample runs judged by a real runner', () => {
  it('a burst of sample runs queued first does not delay the submissions queued after it', async () => {
    const others: { c: JudgeClient; run: SampleRun }[] = [];
    for (let i = 0; i < BURST; i++) {
      const c = await j.signIn(await j.user(`burst${i}`));
      await c.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
      others.push({ c, run: await tryOn(c, 'sum.py', SAMPLES_ONLY) });
    }
    const subs = [];
    for (let i = 0; i < 3; i++) subs.push(await pupil.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm(SAMPLES_ONLY, 'sum.py') }));
    // one slot: the order the runner takes work in is the whole story
    runner = await startRunnerProcess({ url: j.url, admin, name: 'samples-runner', dir: runnerDir(work), uidBase: UID_BASE, args: ['--slots', '1'] });
    const judged = await Promise.all(subs.map((s) => settled(pupil, act.slug, s.id, { ms: 120_000, stepMs: 100 })));
    expect(judged.map((s) => s.verdict)).toEqual(['WA', 'WA', 'WA']);
    const runs = await Promise.all(others.map((o) => finished(o.c, o.run.id)));
    expect(runs.map((r) => r.verdict)).toEqual(Array(BURST).fill('AC'));
    const lastSubmissionDone = Math.max(...(await j.query<{ t: string }>('SELECT finished_at AS t FROM attempts')).map((a) => Date.parse(a.t)));
    const firstRunStarted = Math.min(...runs.map((r) => Date.parse(r.startedAt!)));
    expect(firstRunStarted).toBeGreaterThanOrEqual(lastSubmissionDone);
  }, 240_000);

  it("correct, wrong and non-compiling code: each sample's verdict, time, input, expected and actual output; nothing counts", async () => {
    const c = await j.signIn(await j.user('trier'));
    await c.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
    const ranking = async () => (await admin.call(ops.getRanking, { params: { idOrSlug: act.slug } })).rows.find((r) => r.userName === 'trier');
    const before = await ranking();

    const right = await finished(c, (await tryOn(c, 'sum.py', SAMPLES_ONLY)).id);
    expect(right).toMatchObject({ state: 'completed', verdict: 'AC', language: 'python3' });
    expect(right.samples.map((s) => [s.name, s.verdict, s.input, s.expected, s.output])).toEqual([
      ['sample/1', 'AC', '1 2\n', '3\n', '3\n'],
      ['sample/2', 'AC', '10 20\n', '30\n', '30\n'],
    ]);
    expect(right.samples.every((s) => typeof s.cpuMs === 'number')).toBe(true);

    const wrong = await finished(c, (await tryOn(c, 'sum.py', WRONG)).id);
    expect(wrong.verdict).toBe('WA');
    expect(wrong.samples.map((s) => [s.verdict, s.output])).toEqual([
      ['WA', '2\n'],
      ['WA', '200\n'],
    ]);

    const broken = await finished(c, (await tryOn(c, 'broken.c', BROKEN_C)).id);
    expect(broken.verdict).toBe('CE');
    expect(broken.compileOutput).toMatch(/missing/);

    expect((await c.call(ops.listOwnSubmissions, { params: { idOrSlug: act.slug } })).total).toBe(0);
    expect(await ranking()).toEqual(before);
    expect(runner!.logs.join('')).toMatch(/sample run [0-9a-f-]+: WA on 2 samples/);
  }, 240_000);

  it('judgectl submissions try prints each sample\'s result, and what a failed one got against what it expected', async () => {
    const u = await j.user('terminal');
    const c = await j.signIn(u);
    await c.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
    const ctl = await judgectlAs(j.url, u.username, u.password);
    try {
      writeFileSync(join(work, 'wrong.py'), WRONG);
      const out = await ctl.run('submissions', 'try', act.slug, 'sum', join(work, 'wrong.py'));
      expect(out.status, out.stderr).toBe(0);
      expect(out.stdout).toMatch(/completed, WA/);
      expect(out.stdout).toMatch(/sample\/1\W+WA\W+\d+ ms/);
      expect(out.stdout).toMatch(/--- sample\/2 \(WA\)\ninput:\n10 20\nexpected:\n30\nyour output:\n200/);
      const json = await ctl.ok<SampleRun>('submissions', 'try', act.slug, 'sum', join(work, 'wrong.py'), '--json');
      expect(json).toMatchObject({ state: 'completed', verdict: 'WA' });
      expect((await c.call(ops.listOwnSubmissions, { params: { idOrSlug: act.slug } })).total).toBe(0);
    } finally {
      ctl.close();
    }
  }, 240_000);
});
