import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { Bench, type Runner } from './support/runner-bench.js';
import { eq } from 'drizzle-orm';
import { trials } from '../src/db/schema.js';

/**
 * Every way held work comes back without a result counts as a failed delivery and gives the work
 * up at the cap (five deliveries), with a reason: a poison submission that kills its runner must
 * not be handed to the restarted runner forever. Polite releases alone are not counted.
 * Over real HTTP on a real server: runners that claim and then vanish in each way there is.
 */

describe('runners: every failed delivery counts toward the cap', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await Bench.start();
  });
  afterAll(() => b.stop());

  it("a runner process that dies holding the job (judge up's local runner) gives it up after five deliveries", async () => {
    const { r, sub, job: first } = await b.held();
    for (let delivery = 1; delivery <= 5; delivery++) {
      const job = delivery === 1 ? first : await r.job();
      expect(job.jobId).toBe(first.jobId);
      // what judge up does when it sees its runner's process exit, and again before restarting it
      await b.j.app.services.runners.requeueLocal(r.id);
      await b.j.app.services.runners.requeueLocal(r.id);
      expect(await b.attempt(first.jobId)).toMatchObject({ state: delivery < 5 ? 'queued' : 'failed', deliveries: delivery, runnerId: null });
    }
    expect((await b.attempt(first.jobId)).failureReason).toMatch(/Given up after 5 deliveries.*process ended/);
    expect((await r.claim()).status).toBe(204);
    expect((await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).state).toBe('failed');
  });

  it('runners revoked one after another while holding the job give it up after five deliveries', async () => {
    const s = await b.stage();
    const sub = await b.submit(s);
    let jobId = '';
    for (let delivery = 1; delivery <= 5; delivery++) {
      const r = await b.runner([s.type]);
      const job = await r.job();
      jobId ||= job.jobId;
      expect(job.jobId).toBe(jobId);
      await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
      expect(await b.attempt(jobId)).toMatchObject({ state: delivery < 5 ? 'queued' : 'failed', deliveries: delivery });
    }
    expect((await b.attempt(jobId)).failureReason).toMatch(/Given up after 5 deliveries.*revoked/);
    expect((await (await b.runner([s.type])).claim()).status).toBe(204);
    expect((await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).state).toBe('failed');
  });

  it('ways mixed still count: an infrastructure failure, a lapse, a dead process and a revocation, then the cap', async () => {
    await b.reapAll();
    const s = await b.stage();
    await b.submit(s);
    const runner = await b.runner([s.type]);
    const first = await runner.job({ leaseSeconds: 15 });
    await runner.report(first.jobId, { leaseToken: first.leaseToken, infrastructureFailure: true, failureReason: 'sandbox lost' });
    await runner.job({ leaseSeconds: 15 });
    b.clock.advance(16);
    expect((await b.j.app.reaper.tick(b.clock.now())).jobs).toBe(1);
    await runner.job();
    await b.j.app.services.runners.requeueLocal(runner.id);
    const doomed: Runner = await b.runner([s.type]);
    await doomed.job();
    await b.admin.call(ops.revokeRunner, { params: { id: doomed.id }, body: {} });
    expect(await b.attempt(first.jobId)).toMatchObject({ state: 'queued', deliveries: 4 });
    const last = await runner.job();
    await b.j.app.services.runners.requeueLocal(runner.id);
    expect(await b.attempt(last.jobId)).toMatchObject({ state: 'failed', deliveries: 5 });
  });

  it('a job whose delivery failed waits behind first attempts submitted since; a released one keeps its place', async () => {
    const s = await b.stage();
    const poison = await b.submit(s);
    const r = await b.runner([s.type]);
    const held = await r.job();
    expect(held.submissionId).toBe(poison.id);
    const innocent = await b.submit(s);
    await b.j.app.services.runners.requeueLocal(r.id);
    const next = await r.job();
    expect(next.submissionId).toBe(innocent.id);
    expect((await r.post(`/runner/jobs/${next.jobId}/release`, { leaseToken: next.leaseToken })).status).toBe(204);
    expect((await r.job()).submissionId).toBe(innocent.id);
  });

  it('a polite release is no failed delivery: released many times, the job is still queued', async () => {
    const { r, job: first } = await b.held();
    let job = first;
    for (let i = 0; i < 7; i++) {
      expect((await r.post(`/runner/jobs/${job.jobId}/release`, { leaseToken: job.leaseToken })).status).toBe(204);
      job = await r.job();
    }
    expect(await b.attempt(first.jobId)).toMatchObject({ state: 'running', deliveries: 1 });
  });

  it('a trial whose runner dies or is revoked each time is given up after five deliveries', async () => {
    const type = b.type();
    const pkg = await b.admin.upload('package.zip', b.zip, 'application/zip');
    const trial = await b.admin.call(ops.createTrial, { body: { problemType: type, packageFileId: pkg.id } });
    const row = async () =>
      (await b.j.app.deps.tx.read((q) => q.select({ state: trials.state, deliveries: trials.deliveries, failureReason: trials.failureReason }).from(trials).where(eq(trials.id, trial.id))))[0]!;
    for (let delivery = 1; delivery <= 5; delivery++) {
      const r = await b.runner([type]);
      const claimed = await r.post('/runner/trials/claim', {});
      expect(claimed.status, claimed.text).toBe(200);
      expect(claimed.body.trialId).toBe(trial.id);
      if (delivery % 2) await b.j.app.services.runners.requeueLocal(r.id);
      else await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
      expect(await row()).toMatchObject({ state: delivery < 5 ? 'queued' : 'failed', deliveries: delivery });
    }
    expect((await row()).failureReason).toMatch(/Given up after 5 deliveries/);
    expect((await (await b.runner([type])).post('/runner/trials/claim', {})).status).toBe(204);
  });

  it('held work is put back in the queue in one place per kind (giveBack), which applies the cap', () => {
    const src = join(import.meta.dirname, '..', 'src');
    const hits: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts')) {
          for (const m of readFileSync(p, 'utf8').matchAll(/UPDATE (attempts|trials) SET state = 'queued'|\.update\((attempts|trials)\)\s*\.set\(\{\s*state: 'queued'/g)) hits.push(`${p.slice(src.length + 1)} ${m[1] ?? m[2]}`);
        }
      }
    };
    walk(src);
    expect(hits.sort()).toEqual(['modules/judging/jobs.ts attempts', 'modules/judging/trials.ts trials']);
  });
});
