import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { until } from './support/wait.js';
import { sha256, plus, Bench } from './support/runner-bench.js';

/**
 * Claiming jobs (decisions §7): problem types, tags, order, leases and long polls.
 * Over real HTTP on a real server; fixtures in support/runner-bench.ts.
 */

describe('runners: claiming jobs', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await Bench.start();
  });
  afterAll(() => b.stop());

  it('answers 204 with no body when there is nothing to judge', async () => {
    const r = await b.runner([b.type()]);
    const res = await r.claim({});
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await r.post('/runner/jobs/claim')).status).toBe(204);
  });

  it('hands out only jobs of the problem types the runner registered', async () => {
    const a = await b.stage();
    const c = await b.stage();
    const onlyA = await b.runner([a.type]);
    const both = await b.runner([a.type, c.type]);
    const sub = await b.submit(c);
    expect((await onlyA.claim()).status).toBe(204);
    const job = await both.job();
    expect({ submissionId: job.submissionId, problemType: job.problemType }).toEqual({ submissionId: sub.id, problemType: c.type });
  });

  it("requires the series' runner tags, else the activity's, all held by the runner", async () => {
    const type = b.type();
    const r = await b.runner([type]);
    const setTags = (tags: string[]) => b.admin.call(ops.setRunnerTags, { params: { id: r.id }, body: { tags } });

    // the activity's tags, when the series has none
    const viaActivity = await b.stage({ type, activityTags: ['gpu'] });
    const first = await b.submit(viaActivity);
    expect((await r.claim()).status).toBe(204);
    await setTags(['gpu']);
    expect((await r.job()).submissionId).toBe(first.id);

    // the series' tags replace the activity's, and every one of them is needed
    const viaSeries = await b.stage({ type, activityTags: ['gpu'], seriesTags: ['fast', 'ssd'] });
    const second = await b.submit(viaSeries);
    expect((await r.claim()).status).toBe(204);
    await setTags(['gpu', 'fast']);
    expect((await r.claim()).status).toBe(204);
    await setTags(['fast', 'ssd', 'extra']);
    expect((await r.job()).submissionId).toBe(second.id);

    // no tags required: any runner
    const untagged = await b.stage({ type });
    const third = await b.submit(untagged);
    await setTags([]);
    expect((await r.job()).submissionId).toBe(third.id);
  });

  it('hands out first attempts before rejudges, otherwise the oldest first', async () => {
    const s = await b.stage();
    const r = await b.runner([s.type]);
    const judged = await b.submit(s);
    const j1 = await r.job();
    expect((await r.report(j1.jobId, { leaseToken: j1.leaseToken, verdict: 'WA' })).status).toBe(200);
    b.clock.advance(1);
    await b.admin.call(ops.rejudgeSubmission, { params: { id: judged.id } });
    b.clock.advance(1);
    const older = await b.submit(s);
    b.clock.advance(1);
    const newer = await b.submit(s);
    const order: [string, number][] = [];
    for (let i = 0; i < 3; i++) {
      const job = await r.job();
      order.push([job.submissionId, job.attempt]);
    }
    expect(order).toEqual([
      [older.id, 1],
      [newer.id, 1],
      [judged.id, 2],
    ]);
    expect((await r.claim()).status).toBe(204);
  });

  it('leases for 60 s by default, clamped to 15..3600', async () => {
    const s = await b.stage();
    const r = await b.runner([s.type]);
    const cases: [number | undefined, number][] = [
      [undefined, 60],
      [0, 15],
      [-30, 15],
      [14, 15],
      [15, 15],
      [600, 600],
      [3600, 3600],
      [99_999, 3600],
    ];
    for (const [asked, seconds] of cases) {
      await b.submit(s);
      const job = await r.job(asked === undefined ? {} : { leaseSeconds: asked });
      expect(job.leaseExpiresAt, `leaseSeconds ${asked}`).toBe(plus(b.clock.now(), seconds));
      expect(await b.attempt(job.jobId)).toMatchObject({ state: 'running', runnerId: r.id, leaseExpiresAt: job.leaseExpiresAt, deliveries: 1 });
    }
  });

  it('refuses waitSeconds over 30 and malformed claims (422) and hands nothing out', async () => {
    const s = await b.stage();
    const r = await b.runner([s.type]);
    await b.submit(s);
    for (const body of [{ waitSeconds: 31 }, { waitSeconds: -1 }, { waitSeconds: 1.5 }, { waitSeconds: '5' }, { leaseSeconds: 'long' }, { leaseSeconds: 60.5 }]) {
      await b.refused(() => r.claim(body as never), 422, 'validation_failed');
    }
    await b.refused(() => r.post('/runner/jobs/claim', '{oops'), 400, 'request.malformed');
    expect((await r.job({ waitSeconds: 30 })).problemType).toBe(s.type);
  });

  it('two claims at once never get the same job', async () => {
    const s = await b.stage();
    const one = await b.runner([s.type]);
    const two = await b.runner([s.type]);
    const sub = await b.submit(s);
    const answers = await Promise.all([one.claim(), two.claim(), one.claim(), two.claim()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 204, 204, 204]);
    expect(answers.find((a) => a.status === 200)!.body.submissionId).toBe(sub.id);
  });

  it('a long poll answers as soon as a job is submitted, and 204 when the wait ends with none', async () => {
    const s = await b.stage();
    const r = await b.runner([s.type]);
    const idle = await b.runner([b.type()]);
    const signal = b.j.app.services.jobs.signal;
    const started = Date.now();
    const waiting = r.claim({ waitSeconds: 5 });
    const nothing = idle.claim({ waitSeconds: 2 });
    await until('both long polls to wait', () => signal.waiting >= 2);
    const sub = await b.submit(s);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.submissionId).toBe(sub.id);
    expect(Date.now() - started).toBeLessThan(4000);
    const none = await nothing;
    expect(none.status).toBe(204);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it('a claimed job carries what judging needs: submission, version, package, source files, props, config', async () => {
    const config = { languages: ['cpp'], checker: { exact: true } };
    const s = await b.stage({ config });
    const r = await b.runner([s.type]);
    const code = '#include <cstdio>\nint main() { int a, b; scanf("%d %d", &a, &b); printf("%d\\n", a + b); }\n';
    const sub = await b.submit(s, code, { fileName: 'sum.cpp', props: { language: 'cpp', note: 'first try' } });
    const job = await r.job();
    expect(job).toEqual({
      jobId: expect.any(String),
      submissionId: sub.id,
      attempt: 1,
      leaseToken: expect.stringMatching(/^[A-Za-z0-9_-]{16,128}$/),
      leaseExpiresAt: plus(b.clock.now(), 60),
      problemType: s.type,
      problemVersionId: s.version.id,
      packageFileId: s.pkg.id,
      packageSha256: sha256(b.zip),
      files: [{ name: 'source', fileName: 'sum.cpp', language: 'cpp', fileId: expect.any(String), sha256: sha256(code), sizeBytes: Buffer.byteLength(code) }],
      props: { language: 'cpp', note: 'first try' },
      config,
    });
    expect(s.version.files).toContainEqual(expect.objectContaining({ fileId: job.packageFileId, sha256: job.packageSha256 }));
    // the job is the submission's attempt; the manager sees it running on this runner
    const detail = await b.admin.call(ops.getSubmission, { params: { id: sub.id } });
    expect(detail).toMatchObject({ state: 'running', attempts: 1 });
    expect(detail.attemptList[0]).toMatchObject({ id: job.jobId, attempt: 1, state: 'running', runnerName: r.name, startedAt: b.clock.now().toISOString() });
    expect((await b.view(r)).currentJobId).toBe(job.jobId);
  });
});
