import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity } from '@judge/contract';
import { RunnerClient, generateRunnerKey, type JudgeClient } from '@judge/sdk';
import { refusedWith, sendJson } from './expect.js';
import { TestJudge } from './harness.js';
import { codeForm } from './support/forms.js';
import { packagedProblem } from './support/packaged-problem.js';
import { zipOf } from './zips.js';
import { count as countRows, eq } from 'drizzle-orm';
import { sampleRuns, submissions } from '../src/db/schema.js';

/**
 * Sample runs over HTTP (docs/web-pages.md "Run on samples"): who may start one (a participant where the
 * activity's switch is on and the series takes submissions), who may not, the per-participant
 * rate, bad input, replacing an unfinished run, and that a run is never a submission. The runner's
 * side: only runners that ask get sample runs, and only while no job they could take waits.
 */

const PER_WINDOW = 4;
const SUM = { 'problem.yaml': 'name: Sum\n', 'data/sample/1.in': '1 2\n', 'data/sample/1.ans': '3\n', 'data/secret/1.in': '5 5\n', 'data/secret/1.ans': '10\n' };
const NO_SAMPLES = { 'problem.yaml': 'name: Secret only\n', 'data/secret/1.in': '5 5\n', 'data/secret/1.ans': '10\n' };
const CODE = 'a, b = map(int, input().split())\nprint(a + b)\n';

let j: TestJudge;
let admin: JudgeClient;
let act: Activity;
let seriesId: string;
let n = 0;

const body = (code = CODE, name = 'sum.py') => ({ files: [{ name, code }] });
const run = (c: JudgeClient, problemSlug = 'sum', b: unknown = body(), idOrSlug = act.slug) =>
  c.call(ops.runSamples, { params: { idOrSlug, problemSlug }, body: b as ReturnType<typeof body> });
const count = async (table: typeof submissions | typeof sampleRuns) => (await j.app.deps.tx.read((q) => q.select({ n: countRows() }).from(table)))[0]!.n;

async function participant(): Promise<{ c: JudgeClient; token: string }> {
  const u = await j.user(`pupil${++n}`);
  const c = await j.signIn(u);
  await c.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
  return { c, token: c.accessToken! };
}

beforeAll(async () => {
  j = await TestJudge.start({ config: { sampleRuns: { perWindow: PER_WINDOW, windowSeconds: 600 } } });
  admin = await j.admin();
  act = await admin.call(ops.createActivity, {
    body: { slug: 'tries', name: 'Tries', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false, maxSubmissionsPerProblem: 1 },
  });
  seriesId = (await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } })).id;
  const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(SUM), 'sum.zip');
  await admin.call(ops.attachProblem, { params: { seriesId }, body: { problemId: problem.id, slug: 'sum' } });
  const bare = await packagedProblem(admin, { slug: 'bare', name: 'Bare', type: 'standard-io@1' }, await zipOf(NO_SAMPLES), 'bare.zip');
  await admin.call(ops.attachProblem, { params: { seriesId }, body: { problemId: bare.problem.id, slug: 'bare' } });
}, 60_000);

afterAll(async () => {
  await j?.stop();
});

describe('who may run code on the samples', () => {
  it('a participant may: 201, queued, never a submission, and past the submission limit too', async () => {
    const { c } = await participant();
    await c.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm(CODE, 'sum.py') });
    const submitted = await count(submissions);
    const r = await run(c);
    expect(r).toMatchObject({ state: 'queued', problemSlug: 'sum', language: 'python3', samples: [] });
    expect(await count(submissions)).toBe(submitted);
    expect((await c.call(ops.listOwnSubmissions, { params: { idOrSlug: act.slug } })).total).toBe(1);
    // the author reads it back; nobody else does
    expect((await c.call(ops.getSampleRun, { params: { sampleRunId: r.id } })).id).toBe(r.id);
    const other = await participant();
    await refusedWith(other.c.call(ops.getSampleRun, { params: { sampleRunId: r.id } }), 404, 'not_found');
    await refusedWith(admin.call(ops.getSampleRun, { params: { sampleRunId: r.id } }), 404, 'not_found');
  });

  it('who may not: the anonymous, someone not enrolled, an activity with the switch off, a closed series', async () => {
    await refusedWith(run(j.anonymous()), 401, 'unauthenticated');
    const outsider = await j.signIn(await j.user(`outsider${++n}`));
    // as at submit: an activity the caller is not in is not there for them
    await refusedWith(run(outsider), 404, 'not_found');
    const { c } = await participant();
    const before = await count(sampleRuns);
    const off = await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, modules: { sampleRuns: false } } });
    expect(off.modules).toMatchObject({ sampleRuns: false, questions: true });
    await refusedWith(run(c), 403, 'sampleRuns.disabled');
    const on = await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, modules: { sampleRuns: true } } });
    expect(on.modules.sampleRuns).toBe(true);
    await admin.call(ops.pauseSeries, { params: { seriesId }, body: { hideProblems: false } });
    await refusedWith(run(c), 403, 'series.closed');
    await admin.call(ops.resumeSeries, { params: { seriesId }, body: { extendEnd: false } });
    expect(await count(sampleRuns)).toBe(before);
  });

  it('a new activity has sample runs on', async () => {
    const fresh = await admin.call(ops.createActivity, { body: { slug: `fresh${++n}`, name: 'Fresh', type: 'course@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
    expect(fresh.modules.sampleRuns).toBe(true);
  });
});

describe('the rate, replacing, and bad input', () => {
  it(`at most ${PER_WINDOW} runs per window per participant: then 429 with Retry-After, others unaffected`, async () => {
    const { c, token } = await participant();
    const ids: string[] = [];
    for (let i = 0; i < PER_WINDOW; i++) ids.push((await run(c)).id);
    const res = await sendJson(j.url, 'POST', `/activities/${act.slug}/problems/sum/sample-runs`, token, body());
    expect(res.status).toBe(429);
    expect((res.body as { code: string }).code).toBe('rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // each run replaced the one before: only the newest waits
    const states = await Promise.all(ids.map(async (id) => (await c.call(ops.getSampleRun, { params: { sampleRunId: id } })).state));
    expect(states).toEqual([...Array(PER_WINDOW - 1).fill('cancelled'), 'queued']);
    const other = await participant();
    expect((await run(other.c)).state).toBe('queued');
  });

  it('bad input answers 4xx and stores nothing', async () => {
    const { c, token } = await participant();
    const before = await count(sampleRuns);
    await refusedWith(run(c, 'sum', { files: [] }), 422, 'validation_failed');
    await refusedWith(run(c, 'sum', { files: [{ name: '../x.py', code: CODE }] }), 422, 'validation_failed');
    await refusedWith(run(c, 'sum', { files: [{ name: 'a.py', code: 7 }] }), 422, 'validation_failed');
    await refusedWith(run(c, 'sum', body(CODE, 'sum.unknown-ext')), 422, 'submission.language');
    await refusedWith(run(c, 'sum', { files: [{ name: 'a.py', code: CODE }], language: 'no-such-language' }), 422, 'submission.language');
    await refusedWith(run(c, 'sum', { files: [{ name: 'a.py', code: CODE }, { name: 'b.py', code: CODE }] }), 422, 'file.tooMany');
    await refusedWith(run(c, 'sum', body('x'.repeat(act.maxUploadBytes + 1))), 413, 'payload_too_large');
    await refusedWith(run(c, 'nope'), 404, 'not_found');
    await refusedWith(run(c, 'bare'), 409, 'sampleRun.noSamples');
    expect((await sendJson(j.url, 'POST', `/activities/${act.slug}/problems/sum/sample-runs`, token, '{"files":')).status).toBe(400);
    expect((await sendJson(j.url, 'GET', '/sample-runs/not-a-uuid', token)).status).toBe(404);
    expect(await count(sampleRuns)).toBe(before);
  });
});

describe("the runner's side", () => {
  async function runnerClient(problemTypes: string[]): Promise<RunnerClient> {
    const client = new RunnerClient({ baseUrl: j.url, key: generateRunnerKey(), userAgent: 'sample-runs-test' });
    const reg = await client.register({ name: `lab${++n}`, problemTypes, version: 'test' });
    await admin.call(ops.approveRunner, { params: { id: reg.runnerId } });
    return client;
  }

  it('a job waiting goes first; a runner of other problem types never gets a sample run; a claim that asks ends early for one', async () => {
    // what earlier tests left queued is withdrawn: this test counts from nothing
    await j.app.deps.tx.write((q) => q.update(sampleRuns).set({ state: 'cancelled' }).where(eq(sampleRuns.state, 'queued')));
    const { c } = await participant();
    const queued = await run(c);
    const other = await runnerClient(['output-only@1']);
    expect(await other.claimSampleRun()).toBeNull();
    const runner = await runnerClient(['standard-io@1']);
    // the submission of the first test waits: the job goes first, the sample run after it
    expect(await runner.claimSampleRun()).toBeNull();
    // a runner that did not ask for sample runs waits its whole poll for a job; one that asked is told at once
    const job = await runner.claim({ waitSeconds: 0 });
    expect(job).not.toBeNull();
    await runner.report(job!, { verdict: 'AC', score: 1 });
    const started = Date.now();
    expect(await runner.claim({ waitSeconds: 20, sampleRuns: true })).toBeNull();
    expect(Date.now() - started).toBeLessThan(15_000);
    const claimed = await runner.claimSampleRun();
    expect(claimed).toMatchObject({ sampleRunId: queued.id, files: [{ name: 'sum.py', code: CODE }], problemType: 'standard-io@1' });
    expect((await c.call(ops.getSampleRun, { params: { sampleRunId: queued.id } })).state).toBe('running');
    // the package is the runner's to fetch while it holds the run
    await runner.download(claimed!.packageFileId, claimed!.packageSha256);
    const samples = [{ name: 'sample/1', verdict: 'AC', cpuMs: 5, input: '1 2\n', expected: '3\n', output: '3\n' }];
    expect(await runner.reportSampleRun(claimed!, { verdict: 'AC', samples })).toMatchObject({ state: 'completed', duplicate: false });
    expect(await runner.reportSampleRun(claimed!, { verdict: 'AC', samples })).toMatchObject({ duplicate: true });
    expect(await c.call(ops.getSampleRun, { params: { sampleRunId: queued.id } })).toMatchObject({ state: 'completed', verdict: 'AC', samples });
  });

  it('a run its author replaced is withdrawn from the runner holding it (stale lease)', async () => {
    const { c } = await participant();
    const first = await run(c);
    const runner = await runnerClient(['standard-io@1']);
    const claimed = await runner.claimSampleRun();
    expect(claimed?.sampleRunId).toBe(first.id);
    await run(c);
    await refusedWith(runner.renewSampleRun(claimed!), 403, 'runner.lease.stale');
    expect((await c.call(ops.getSampleRun, { params: { sampleRunId: first.id } })).state).toBe('cancelled');
  });

  it('finished runs are removed once past their keep', async () => {
    const before = await count(sampleRuns);
    expect(before).toBeGreaterThan(0);
    await j.app.services.judging.reap(new Date(Date.now() + 2 * 3600_000));
    expect(await count(sampleRuns)).toBe(0);
  });
});
