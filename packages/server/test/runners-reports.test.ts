import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { type Res, sha256, plus, Runner, Bench } from './support/runner-bench.js';

/**
 * Holding and reporting jobs (decisions §7): leases and their renewal, reports, and the files of
 * jobs a runner uploads and downloads.
 * Over real HTTP on a real server; fixtures in support/runner-bench.ts.
 */

describe('runners: holding and reporting jobs', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await Bench.start();
  });
  afterAll(() => b.stop());

  const lease = (r: Runner, jobId: string, body: Record<string, unknown>) => r.post(`/runner/jobs/${jobId}/lease`, body);

  /** Every call about a held job, with a body that is valid apart from whose token it is. */
  async function heldCalls(r: Runner, jobId: string, leaseToken: string): Promise<[string, () => Promise<Res>][]> {
    const f = await r.upload('note.txt', `note ${randomUUID()}`);
    return [
      ['lease', () => r.post(`/runner/jobs/${jobId}/lease`, { leaseToken, leaseSeconds: 120 })],
      ['progress', () => r.post(`/runner/jobs/${jobId}/progress`, { leaseToken, done: 1, total: 2 })],
      ['release', () => r.post(`/runner/jobs/${jobId}/release`, { leaseToken })],
      ['report', () => r.report(jobId, { leaseToken, verdict: 'AC' })],
      ['files', () => r.post(`/runner/jobs/${jobId}/files`, { leaseToken, fileId: f.id, name: 'note' })],
    ];
  }

  describe('leases', () => {
    it('renewing never shortens a lease, and extends it otherwise', async () => {
      const { r, job } = await b.held({ leaseSeconds: 600 });
      const t0 = b.clock.now();
      expect(job.leaseExpiresAt).toBe(plus(t0, 600));
      let res = await lease(r, job.jobId, { leaseToken: job.leaseToken, leaseSeconds: 15 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ jobId: job.jobId, leaseToken: job.leaseToken, leaseExpiresAt: plus(t0, 600) });
      res = await lease(r, job.jobId, { leaseToken: job.leaseToken });
      expect(res.body.leaseExpiresAt).toBe(plus(t0, 600));
      b.clock.advance(100);
      res = await lease(r, job.jobId, { leaseToken: job.leaseToken, leaseSeconds: 900 });
      expect(res.body.leaseExpiresAt).toBe(plus(b.clock.now(), 900));
      res = await lease(r, job.jobId, { leaseToken: job.leaseToken, leaseSeconds: 99_999 });
      expect(res.body.leaseExpiresAt).toBe(plus(b.clock.now(), 3600));
      expect((await b.attempt(job.jobId)).leaseExpiresAt).toBe(plus(b.clock.now(), 3600));
    });

    it('progress answers 204, records how far judging got, and extends the lease by its default', async () => {
      const { r, job } = await b.held({ leaseSeconds: 15 });
      b.clock.advance(10);
      const res = await r.post(`/runner/jobs/${job.jobId}/progress`, { leaseToken: job.leaseToken, done: 2, total: 5 });
      expect(res.status).toBe(204);
      expect(await b.attempt(job.jobId)).toMatchObject({ leaseExpiresAt: plus(b.clock.now(), 60), progressDone: 2, progressTotal: 5 });
      expect((await r.post(`/runner/jobs/${job.jobId}/progress`, { leaseToken: job.leaseToken, done: 3 })).status).toBe(204);
      expect(await b.attempt(job.jobId)).toMatchObject({ progressDone: 3, progressTotal: 5 });
      await b.refused(() => r.post(`/runner/jobs/${job.jobId}/progress`, { leaseToken: job.leaseToken, done: -1 }), 422, 'validation_failed');
    });

    it('release puts the job back in the queue at once, for any runner; the old lease is stale', async () => {
      const { s, r, sub, job } = await b.held();
      const res = await r.post(`/runner/jobs/${job.jobId}/release`, { leaseToken: job.leaseToken });
      expect(res.status).toBe(204);
      // a polite release is not a failed delivery
      expect(await b.attempt(job.jobId)).toMatchObject({ state: 'queued', runnerId: null, leaseExpiresAt: null, deliveries: 0 });
      expect((await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).state).toBe('queued');
      const other = await b.runner([s.type]);
      const again = await other.job();
      expect({ jobId: again.jobId, attempt: again.attempt }).toEqual({ jobId: job.jobId, attempt: 1 });
      expect(again.leaseToken).not.toBe(job.leaseToken);
      expect(await b.attempt(job.jobId)).toMatchObject({ state: 'running', runnerId: other.id, deliveries: 1 });
      for (const [what, call] of await heldCalls(r, job.jobId, job.leaseToken)) {
        const p = await b.refused(call, 403, 'runner.lease.stale');
        expect(p.body.code, what).toBe('runner.lease.stale');
      }
    });

    it("another runner presenting the holder's lease token is 403 runner.lease.foreign", async () => {
      const { s, job } = await b.held();
      const intruder = await b.runner([s.type]);
      for (const [what, call] of await heldCalls(intruder, job.jobId, job.leaseToken)) {
        const p = await b.refused(call, 403, 'runner.lease.foreign');
        expect(p.body.code, what).toBe('runner.lease.foreign');
      }
    });

    it('a wrong lease token is stale; an unknown or malformed job id is 404', async () => {
      const { r, job } = await b.held();
      for (const [, call] of await heldCalls(r, job.jobId, 'not-the-lease-token')) await b.refused(call, 403, 'runner.lease.stale');
      for (const [, call] of await heldCalls(r, randomUUID(), job.leaseToken)) await b.refused(call, 404, 'not_found');
      for (const [, call] of await heldCalls(r, 'not-a-uuid', job.leaseToken)) await b.refused(call, 404, 'not_found');
      await b.refused(() => lease(r, job.jobId, {}), 422, 'validation_failed');
      await b.refused(() => lease(r, job.jobId, { leaseToken: '' }), 422, 'validation_failed');
    });

    it('a job that is no longer running refuses the calls of its last holder (409 job.state)', async () => {
      const { r, job } = await b.held();
      expect((await r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' })).status).toBe(200);
      for (const [what, call] of (await heldCalls(r, job.jobId, job.leaseToken)).filter(([w]) => w !== 'report')) {
        const p = await b.refused(call, 409, 'job.state');
        expect(p.body.code, what).toBe('job.state');
      }
    });

    it('the reaper puts a lapsed job back in the queue: the old lease is stale, another runner gets it', async () => {
      await b.reapAll();
      const { s, r, job } = await b.held({ leaseSeconds: 15 });
      b.clock.advance(14);
      expect(await b.j.app.reaper.tick(b.clock.now())).toEqual({ jobs: 0, trials: 0, sampleRuns: 0 });
      expect((await b.attempt(job.jobId)).state).toBe('running');
      b.clock.advance(1);
      expect(await b.j.app.reaper.tick(b.clock.now())).toEqual({ jobs: 1, trials: 0, sampleRuns: 0 });
      expect(await b.attempt(job.jobId)).toMatchObject({ state: 'queued', runnerId: null, deliveries: 1 });
      await b.refused(() => lease(r, job.jobId, { leaseToken: job.leaseToken }), 403, 'runner.lease.stale');
      await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' }), 403, 'runner.lease.stale');
      const other = await b.runner([s.type]);
      const again = await other.job();
      expect(again.jobId).toBe(job.jobId);
      expect(await b.attempt(job.jobId)).toMatchObject({ state: 'running', runnerId: other.id, deliveries: 2 });
    });
  });

  describe('reports', () => {
    it('a verdict completes the job once; a repeat is a duplicate that changes nothing', async () => {
      const { r, sub, job } = await b.held();
      const body = { leaseToken: job.leaseToken, verdict: 'AC', score: 1, maxScore: 1, runnerVersion: '1.2.3', extra: { tests: 3 }, props: { slowestMs: 120 } };
      const res = await r.report(job.jobId, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ resultId: expect.any(String), state: 'completed', duplicate: false });
      expect(await b.attempt(job.jobId)).toMatchObject({ state: 'completed', verdict: 'AC', leaseExpiresAt: null });
      expect((await b.view(r)).completedJobs).toBe(1);
      expect((await b.view(r)).currentJobId).toBeUndefined();
      const detail = await b.admin.call(ops.getSubmission, { params: { id: sub.id } });
      expect(detail).toMatchObject({ state: 'completed', verdict: 'AC', score: 1, maxScore: 1 });
      expect(detail.attemptList[0]).toMatchObject({ id: job.jobId, state: 'completed', verdict: 'AC', runnerName: r.name, finishedAt: b.clock.now().toISOString() });

      const again = await b.unchanged(() => r.report(job.jobId, body));
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ resultId: res.body.resultId, state: 'completed', duplicate: true });
      const otherVerdict = await b.unchanged(() => r.report(job.jobId, { ...body, verdict: 'WA' }));
      expect(otherVerdict.body).toEqual({ resultId: res.body.resultId, state: 'completed', duplicate: true });
      expect((await b.view(r)).completedJobs).toBe(1);
    });

    it('refuses a report without a verdict (422 result.verdict.missing) and malformed reports (422), keeping the job held', async () => {
      const { r, job } = await b.held();
      const p = await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, score: 1 }), 422, 'result.verdict.missing');
      expect(p.body.errors).toHaveProperty('verdict');
      const bad: Record<string, unknown>[] = [
        { verdict: 'AC', extra: { blob: 'x'.repeat(2100) } },
        { verdict: 'AC', extra: [1, 2] },
        { verdict: '' },
        { verdict: 'x'.repeat(65) },
        { verdict: 'AC', score: 'full' },
        { verdict: 'AC', files: [{ name: '../log', fileId: randomUUID() }] },
        { verdict: 'AC', files: [{ name: 'log', fileId: 'nope' }] },
        { verdict: 'AC', props: 'fast' },
      ];
      for (const over of bad) await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, ...over }), 422, 'validation_failed');
      expect(await b.attempt(job.jobId)).toMatchObject({ state: 'running', runnerId: r.id });
      expect((await r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'TLE', extra: { blob: 'x'.repeat(1900) } })).status).toBe(200);
    });

    it('a report after a manager cancelled the attempt is 403 runner.lease.stale', async () => {
      const { r, sub, job } = await b.held();
      const cancelled = await b.admin.call(ops.cancelAttempt, { params: { submissionId: sub.id, attemptId: job.jobId } });
      expect(cancelled.attemptList[0]).toMatchObject({ id: job.jobId, state: 'cancelled' });
      await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' }), 403, 'runner.lease.stale');
      await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, infrastructureFailure: true }), 403, 'runner.lease.stale');
      await b.refused(() => lease(r, job.jobId, { leaseToken: job.leaseToken }), 403, 'runner.lease.stale');
      expect((await r.claim()).status).toBe(204);
    });

    it('an infrastructure failure queues the job again and counts a delivery; its repeat is a duplicate', async () => {
      const { r, sub, job } = await b.held();
      const body = { leaseToken: job.leaseToken, infrastructureFailure: true, failureReason: 'the sandbox did not start' };
      const res = await r.report(job.jobId, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ resultId: expect.any(String), state: 'failed', duplicate: false });
      expect(await b.attempt(job.jobId)).toMatchObject({ state: 'queued', runnerId: null, deliveries: 1 });
      expect((await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).state).toBe('queued');
      const again = await b.unchanged(() => r.report(job.jobId, body));
      expect(again.body).toEqual({ resultId: res.body.resultId, state: 'failed', duplicate: true });
      expect((await b.view(r)).completedJobs).toBe(0);
      const next = await r.job();
      expect({ jobId: next.jobId, attempt: next.attempt }).toEqual({ jobId: job.jobId, attempt: 1 });
      expect((await b.attempt(job.jobId)).deliveries).toBe(2);
    });

    it('after five deliveries ending in infrastructure failures the attempt fails with a reason', async () => {
      const { r, sub, job: first } = await b.held();
      let job = first;
      let last: Res | undefined;
      for (let delivery = 1; delivery <= 5; delivery++) {
        if (delivery > 1) job = await r.job();
        expect(job.jobId).toBe(first.jobId);
        last = await r.report(job.jobId, { leaseToken: job.leaseToken, infrastructureFailure: true, failureReason: `broken ${delivery}` });
        expect(last.body).toMatchObject({ state: 'failed', duplicate: false });
        expect((await b.attempt(job.jobId)).state).toBe(delivery < 5 ? 'queued' : 'failed');
      }
      expect(await b.attempt(first.jobId)).toMatchObject({ state: 'failed', deliveries: 5, failureReason: expect.stringMatching(/5 deliveries.*broken 5/) });
      expect((await r.claim()).status).toBe(204);
      const detail = await b.admin.call(ops.getSubmission, { params: { id: sub.id } });
      expect(detail.state).toBe('failed');
      expect(detail.attemptList[0]).toMatchObject({ id: first.jobId, state: 'failed', failureReason: expect.stringContaining('5 deliveries') });
      const repeat = await b.unchanged(() => r.report(job.jobId, { leaseToken: job.leaseToken, infrastructureFailure: true, failureReason: 'broken 5' }));
      expect(repeat.body).toEqual({ resultId: last!.body.resultId, state: 'failed', duplicate: true });
    });

    it('after five deliveries whose leases lapsed the reaper fails the attempt', async () => {
      await b.reapAll();
      const { r, sub, job: first } = await b.held({ leaseSeconds: 15 });
      let job = first;
      for (let delivery = 1; delivery <= 5; delivery++) {
        if (delivery > 1) job = await r.job({ leaseSeconds: 15 });
        expect(job.jobId).toBe(first.jobId);
        b.clock.advance(16);
        expect((await b.j.app.reaper.tick(b.clock.now())).jobs).toBe(1);
        expect(await b.attempt(first.jobId)).toMatchObject({ state: delivery < 5 ? 'queued' : 'failed', deliveries: delivery });
      }
      expect((await b.attempt(first.jobId)).failureReason).toMatch(/Given up after 5 deliveries/);
      expect((await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).state).toBe('failed');
      expect((await r.claim()).status).toBe(204);
      await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' }), 403, 'runner.lease.stale');
    });
  });

  describe('files of jobs', () => {
    it("a report attaches this runner's uploads under their names; others' files and repeated names are refused", async () => {
      const { s, r, sub, job } = await b.held();
      const log = await r.upload('compile.txt', 'g++ -O2 main.cpp\nok\n');
      const details = await r.upload('details.json', JSON.stringify([{ test: '1', verdict: 'AC', timeMs: 3 }]));
      const usersFile = await b.pupil.c.upload('mine.txt', 'a user upload');
      const other = await b.runner([s.type]);
      const othersFile = await other.upload('theirs.txt', 'another runner upload');
      const report = (files: { name: string; fileId: string }[]) => () => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC', files });

      // the first file would attach; the second is not ours, so nothing is attached
      await b.refused(report([{ name: 'log', fileId: log.id }, { name: 'details', fileId: usersFile.id }]), 422, 'file.missing');
      await b.refused(report([{ name: 'log', fileId: othersFile.id }]), 422, 'file.missing');
      await b.refused(report([{ name: 'log', fileId: randomUUID() }]), 422, 'file.missing');
      await b.refused(report([{ name: 'log', fileId: log.id }, { name: 'log', fileId: details.id }]), 409, 'attempt.file.duplicate');

      const res = await report([{ name: 'log', fileId: log.id }, { name: 'details', fileId: details.id }])();
      expect(res.status).toBe(200);
      const detail = await b.admin.call(ops.getSubmission, { params: { id: sub.id } });
      const files = detail.attemptList[0]!.files.map((f) => ({ name: f.name, fileId: f.fileId, sha256: f.sha256, sizeBytes: f.sizeBytes }));
      expect(files).toEqual(
        expect.arrayContaining([
          { name: 'log', fileId: log.id, sha256: log.sha256, sizeBytes: log.sizeBytes },
          { name: 'details', fileId: details.id, sha256: details.sha256, sizeBytes: details.sizeBytes },
        ]),
      );
      expect(files).toHaveLength(2);
    });

    it('attaching a file to a held job: 204, then a taken name is 409 and an unknown file 422', async () => {
      const { r, sub, job } = await b.held();
      const attach = (fileId: string, name: string) => () => r.post(`/runner/jobs/${job.jobId}/files`, { leaseToken: job.leaseToken, fileId, name });
      const partial = await r.upload('partial.log', 'test 1 ok\n');
      const res = await attach(partial.id, 'log')();
      expect(res.status).toBe(204);
      const another = await r.upload('partial2.log', 'test 2 ok\n');
      await b.refused(attach(another.id, 'log'), 409, 'attempt.file.duplicate');
      await b.refused(attach(randomUUID(), 'other'), 422, 'file.missing');
      await b.refused(attach((await b.pupil.c.upload('u.txt', 'user bytes')).id, 'other'), 422, 'file.missing');
      await b.refused(attach(another.id, 'bad name'), 422, 'validation_failed');
      // the name is taken for the report too
      await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC', files: [{ name: 'log', fileId: another.id }] }), 409, 'attempt.file.duplicate');
      expect((await r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC', files: [{ name: 'details', fileId: another.id }] })).status).toBe(200);
      const detail = await b.admin.call(ops.getSubmission, { params: { id: sub.id } });
      expect(detail.attemptList[0]!.files.map((f) => [f.name, f.fileId]).sort()).toEqual([
        ['details', another.id],
        ['log', partial.id],
      ]);
    });

    it('the files of a delivery that gave no result do not block the names of the next delivery', async () => {
      const { s, r, sub, job } = await b.held();
      const filesOf = async () =>
        (await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).attemptList[0]!.files.map((f) => [f.name, f.fileId]).sort();
      // an infrastructure failure with its log: kept while the job waits, so a manager can see why
      const failedLog = await r.upload('infra.log', 'the sandbox did not start\n');
      const failed = await r.report(job.jobId, { leaseToken: job.leaseToken, infrastructureFailure: true, files: [{ name: 'log', fileId: failedLog.id }] });
      expect(failed.body).toMatchObject({ state: 'failed', duplicate: false });
      expect(await filesOf()).toEqual([['log', failedLog.id]]);
      // a delivery that attached a log and was released
      const second = await r.job();
      const partial = await r.upload('partial.log', 'test 1 ok\n');
      expect((await r.post(`/runner/jobs/${second.jobId}/files`, { leaseToken: second.leaseToken, fileId: partial.id, name: 'log' })).status).toBe(204);
      expect((await r.post(`/runner/jobs/${second.jobId}/release`, { leaseToken: second.leaseToken })).status).toBe(204);
      // the delivery that gives the result attaches its own log and details
      const other = await b.runner([s.type]);
      const third = await other.job();
      const log = await other.upload('judge.log', 'all tests passed\n');
      const details = await other.upload('details.json', '[]');
      const done = await other.report(third.jobId, {
        leaseToken: third.leaseToken,
        verdict: 'AC',
        files: [
          { name: 'log', fileId: log.id },
          { name: 'details', fileId: details.id },
        ],
      });
      expect(done.status, done.text).toBe(200);
      expect(await filesOf()).toEqual([
        ['details', details.id],
        ['log', log.id],
      ]);
    });

    it('a runner downloads the package and sources of a job it holds, and nothing else', async () => {
      const { s, r, job } = await b.held();
      const pkg = await r.download(job.packageFileId);
      expect(pkg.status).toBe(200);
      expect(sha256(pkg.bytes)).toBe(job.packageSha256);
      expect(pkg.bytes.equals(b.zip)).toBe(true);
      expect(pkg.headers.get('etag')).toBe(`"${job.packageSha256}"`);
      const source = await r.download(job.files[0]!.fileId);
      expect(source.status).toBe(200);
      expect(sha256(source.bytes)).toBe(job.files[0]!.sha256);

      const other = await b.runner([s.type]);
      expect((await other.download(job.packageFileId)).status).toBe(404);
      expect((await other.download(job.files[0]!.fileId)).status).toBe(404);
      expect((await r.download(randomUUID())).status).toBe(404);
      expect((await r.download('not-a-uuid')).status).toBe(404);
      expect((await r.download((await b.pupil.c.upload('x.txt', 'a user file')).id)).status).toBe(404);
      const anonymous = await fetch(`${b.j.url}/api/v1/runner/files/${job.packageFileId}`);
      expect(anonymous.status).toBe(401);

      expect((await r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' })).status).toBe(200);
      expect((await r.download(job.packageFileId)).status).toBe(404);
      expect((await r.download(job.files[0]!.fileId)).status).toBe(404);
    });

    it('uploads are checked: a checksum mismatch is 422 checksum_mismatch, a missing file part 422 file.required', async () => {
      const r = await b.runner([b.type()]);
      const mismatch = new FormData();
      mismatch.set('sha256', sha256('other bytes'));
      mismatch.set('file', new Blob(['these bytes']), 'a.txt');
      await b.refused(() => r.uploadRaw(mismatch), 422, 'checksum_mismatch');
      const noFile = new FormData();
      noFile.set('sha256', sha256('x'));
      await b.refused(() => r.uploadRaw(noFile), 422, 'file.required');
      const badSum = new FormData();
      badSum.set('sha256', 'abc');
      badSum.set('file', new Blob(['x']), 'a.txt');
      await b.refused(() => r.uploadRaw(badSum), 422, 'validation_failed');
      const ok = new FormData();
      ok.set('sha256', sha256('x'));
      ok.set('file', new Blob(['x']), 'a.txt');
      await b.refused(() => r.uploadRaw(ok, null), 401, 'unauthenticated');
    });

    it('a runner attaches a file to itself; the same name again replaces it', async () => {
      const r = await b.runner([b.type()]);
      const attach = (fileId: string, name: string) => () => r.post('/runner/files/attach', { fileId, name });
      const first = await r.upload('machine.txt', 'cores: 8\n');
      expect((await attach(first.id, 'machine')()).status).toBe(204);
      expect((await b.view(r)).files).toEqual([{ name: 'machine', fileId: first.id, sizeBytes: first.sizeBytes, sha256: first.sha256 }]);
      const second = await r.upload('machine.txt', 'cores: 16\n');
      expect((await attach(second.id, 'machine')()).status).toBe(204);
      const log = await r.upload('runner.log', 'started\n');
      expect((await attach(log.id, 'log')()).status).toBe(204);
      expect((await b.view(r)).files).toEqual([
        { name: 'log', fileId: log.id, sizeBytes: log.sizeBytes, sha256: log.sha256 },
        { name: 'machine', fileId: second.id, sizeBytes: second.sizeBytes, sha256: second.sha256 },
      ]);
      await b.refused(attach((await b.pupil.c.upload('u.txt', 'user bytes 2')).id, 'other'), 422, 'file.missing');
      await b.refused(attach(randomUUID(), 'other'), 422, 'file.missing');
      await b.refused(attach(first.id, '../etc'), 422, 'validation_failed');
    });
  });
});
