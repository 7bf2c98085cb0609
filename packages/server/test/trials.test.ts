import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { refusedWith, sendJson } from './expect.js';
import { until } from './support/wait.js';
import { UNKNOWN_UUID } from './series-fixtures.js';
import { sha256, plus, Runner, Bench } from './support/runner-bench.js';
import { zipOf } from './zips.js';
import { count as countRows, eq } from 'drizzle-orm';
import { trials } from '../src/db/schema.js';

/**
 * Trials (decisions §7, §8): a manager runs a package against a runner without a submission.
 * Over real HTTP on a real server; fixtures in support/runner-bench.ts.
 */

describe('runners: trials', () => {
  let b: Bench;
  let activity: Activity;
  let manager: JudgeClient;
  beforeAll(async () => {
    b = await Bench.start();
    activity = await b.admin.call(ops.createActivity, {
      body: { slug: 'trials', name: 'Trials', type: 'course@1', rankingType: 'points', timeZone: 'UTC', joinPolicy: 'open', unlisted: false },
    });
    const u = await b.j.user('trial-manager');
    await b.j.grant(u.id, 'manager', activity.id);
    manager = await b.j.signIn(u);
    await b.pupil.c.call(ops.enrol, { params: { idOrSlug: activity.slug }, body: {} });
    await b.admin.call(ops.createRole, { body: { name: 'Trial runner', permissions: ['trial:run'] } });
  });
  afterAll(() => b.stop());

  const upload = (c: JudgeClient) => c.upload('package.zip', b.zip, 'application/zip');
  const create = (c: JudgeClient, body: Record<string, unknown>) => c.call(ops.createTrial, { body: body as never });
  const claimTrial = (r: Runner, body: Record<string, unknown> = {}) => r.post('/runner/trials/claim', body);
  /**
   * A trial of `type` by a fresh author holding trial:run system-wide (each user may have only 3
   * unfinished).
   */
  /** An author with a package uploaded; `queue` then asks for the trial. */
  async function trialAuthor(type: string) {
    const u = await b.j.user(b.uniq('author'));
    await b.j.grant(u.id, 'Trial runner');
    const author = await b.j.signIn(u);
    const pkg = await upload(author);
    return { author, pkg, queue: () => create(author, { problemType: type, packageFileId: pkg.id }) };
  }
  async function trialOf(type: string) {
    const { author, pkg, queue } = await trialAuthor(type);
    return { author, pkg, trial: await queue() };
  }
  const trialRow = async (id: string) =>
    (
      await b.j.app.deps.tx.read((q) =>
        q.select({ state: trials.state, runnerId: trials.runnerId, deliveries: trials.deliveries, leaseExpiresAt: trials.leaseExpiresAt }).from(trials).where(eq(trials.id, id)),
      )
    )[0]!;

  it("a queued trial ends an idle runner's long poll for jobs at once, so the trial starts without waiting the poll out", async () => {
    const type = b.type();
    const r = await b.runner([type]);
    const otherType = b.type();
    const other = await b.runner([otherType]);
    const signal = b.j.app.services.jobs.signal;
    const before = signal.waiting;
    const author = await trialAuthor(type);
    const waiting = r.claim({ waitSeconds: 30 });
    let otherDone = false;
    // as long a poll as the first: only a wake-up, never its own end, can finish it before the trial's
    const otherWaiting = other.claim({ waitSeconds: 30 }).then((res) => ((otherDone = true), res));
    await until('both long polls to wait', () => signal.waiting >= before + 2);
    const asked = Date.now();
    const pollEnded = waiting.then(() => Date.now());
    const trial = await author.queue();
    const answered = Date.now();
    const res = await waiting;
    // a runner that cannot take the trial was not woken with the one that can
    expect(otherDone).toBe(false);
    // the poll asked for 30 s; it ended after the trial was asked for and by the time its queuing was
    // answered (woken by the commit), not when its 30 s ran out. Before, the trial waited all of them.
    // Timed from the answer: on a loaded machine the queuing itself took 12–17 s.
    expect(res.status).toBe(204);
    expect(await pollEnded).toBeGreaterThanOrEqual(asked);
    expect((await pollEnded) - answered).toBeLessThan(5_000);
    const claimed = await claimTrial(r);
    expect(claimed.status).toBe(200);
    expect(claimed.body.trialId).toBe(trial.id);
    expect((await r.post(`/runner/trials/${trial.id}/report`, { leaseToken: claimed.body.leaseToken, measurement: '[]' })).status).toBe(200);
    // and it goes on waiting until work of its own type comes
    expect(otherDone).toBe(false);
    await trialOf(otherType);
    expect((await otherWaiting).status).toBe(204);
    // its 30 s polls, and a queuing that took 17 s under load, do not fit the default 30 s
  }, 90_000);

  it('POST /trials queues a trial for holders of trial:run with a package they may read', async () => {
    const type = b.type();
    const pkg = await upload(b.admin);
    const res = await sendJson(b.j.url, 'POST', '/trials', b.admin.accessToken, { problemType: type, packageFileId: pkg.id });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/trials/${res.body.id}`);
    expect(res.body).toEqual({ id: expect.any(String), state: 'queued', problemType: type, packageFileId: pkg.id, createdAt: b.clock.now().toISOString() });

    // a manager of the activity, there, with their own upload
    const own = await upload(manager);
    const inActivity = await create(manager, { problemType: type, packageFileId: own.id, activityIdOrSlug: activity.slug });
    expect(inActivity).toMatchObject({ state: 'queued', activityId: activity.id, packageFileId: own.id });
  });

  it('refuses callers without trial:run (403), packages they cannot read (404) and malformed requests (422)', async () => {
    const type = b.type();
    const pupilsFile = await upload(b.pupil.c);
    const own = await upload(manager);
    // a participant holds no trial:run, neither in the activity nor system-wide
    await b.refusedCall(() => create(b.pupil.c, { problemType: type, packageFileId: pupilsFile.id }), 403, 'forbidden');
    await b.refusedCall(() => create(b.pupil.c, { problemType: type, packageFileId: pupilsFile.id, activityIdOrSlug: activity.slug }), 403, 'forbidden');
    // a manager holds it in the activity only
    await b.refusedCall(() => create(manager, { problemType: type, packageFileId: own.id }), 403, 'forbidden');
    // another user's private upload, and a file that does not exist
    await b.refusedCall(() => create(manager, { problemType: type, packageFileId: pupilsFile.id, activityIdOrSlug: activity.slug }), 404, 'not_found');
    await b.refusedCall(() => create(manager, { problemType: type, packageFileId: UNKNOWN_UUID, activityIdOrSlug: activity.slug }), 404, 'not_found');
    await b.refusedCall(() => create(manager, { problemType: type, packageFileId: own.id, activityIdOrSlug: 'no-such-activity' }), 404, 'not_found');
    for (const body of [{ problemType: 'Standard IO', packageFileId: own.id }, { problemType: type, packageFileId: 'nope' }, { problemType: type }]) {
      await b.refusedCall(() => create(b.admin, body), 422, 'validation_failed');
    }
  });

  it('refuses a package no runner could unpack (422 package.invalid, with the reason) and queues nothing', async () => {
    const type = b.type();
    const count = async () => (await b.j.app.deps.tx.read((q) => q.select({ n: countRows() }).from(trials)))[0]!.n;
    const before = await count();
    const notZip = await b.admin.upload('package.zip', 'not a zip at all', 'application/zip');
    const noTests = await b.admin.upload('package.zip', await zipOf({ 'problem.yaml': 'name: Empty\n' }), 'application/zip');
    for (const f of [notZip, noTests]) {
      const err = await b.refusedCall(() => create(b.admin, { problemType: type, packageFileId: f.id }), 422, 'package.invalid');
      expect(err.detail).toMatch(/^The package is not a valid ICPC problem package: ./);
    }
    expect(await count()).toBe(before);
  });

  it('a user may have at most 3 unfinished trials (409 trial.tooMany); a finished one frees a place', async () => {
    const type = b.type();
    const u = await b.j.user(b.uniq('busy'));
    await b.j.grant(u.id, 'manager', activity.id);
    const busy = await b.j.signIn(u);
    const pkg = await upload(busy);
    const body = { problemType: type, packageFileId: pkg.id, activityIdOrSlug: activity.slug };
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await create(busy, body));
    await b.refusedCall(() => create(busy, body), 409, 'trial.tooMany');
    // others are not limited by it
    expect((await create(manager, { ...body, packageFileId: (await upload(manager)).id })).state).toBe('queued');
    const r = await b.runner([type]);
    const claimed = await claimTrial(r);
    expect(claimed.body.trialId).toBe(made[0]!.id);
    await b.refusedCall(() => create(busy, body), 409, 'trial.tooMany');
    expect((await r.post(`/runner/trials/${made[0]!.id}/report`, { leaseToken: claimed.body.leaseToken, measurement: '[]' })).status).toBe(200);
    expect((await create(busy, body)).state).toBe('queued');
  });

  it('GET /trials/{id}: its author and holders of trial:run where it ran; anyone else 404', async () => {
    const type = b.type();
    const trial = await create(manager, { problemType: type, packageFileId: (await upload(manager)).id, activityIdOrSlug: activity.slug });
    const system = await create(b.admin, { problemType: type, packageFileId: (await upload(b.admin)).id });
    const get = (c: JudgeClient, id: string) => c.call(ops.getTrial, { params: { trialId: id } });
    expect(await get(manager, trial.id)).toEqual(trial);
    expect(await get(b.admin, trial.id)).toEqual(trial);
    const coUser = await b.j.user(b.uniq('co-manager'));
    await b.j.grant(coUser.id, 'manager', activity.id);
    const coManager = await b.j.signIn(coUser);
    expect(await get(coManager, trial.id)).toEqual(trial);
    // a manager of the activity does not read a system-wide trial; participants and strangers read none
    await refusedWith(get(coManager, system.id), 404, 'not_found');
    await refusedWith(get(b.pupil.c, trial.id), 404, 'not_found');
    await refusedWith(get(await b.j.signIn(await b.j.user(b.uniq('stranger'))), trial.id), 404, 'not_found');
    await refusedWith(get(b.admin, UNKNOWN_UUID), 404, 'not_found');
    await refusedWith(b.admin.call(ops.getTrial, { params: { trialId: 'nope' } }), 404, 'not_found');
  });

  it('a runner claims trials of its problem types, renews, downloads the package and reports a measurement', async () => {
    const type = b.type();
    const { pkg, trial } = await trialOf(type);
    const wrong = await b.runner([b.type()]);
    expect((await claimTrial(wrong)).status).toBe(204);
    // the job queue is not the trial queue
    const r = await b.runner([type]);
    expect((await r.claim()).status).toBe(204);
    const res = await claimTrial(r, { leaseSeconds: 120 });
    expect(res.status).toBe(200);
    const t0 = b.clock.now();
    expect(res.body).toEqual({
      trialId: trial.id,
      leaseToken: expect.stringMatching(/^[A-Za-z0-9_-]{16,128}$/),
      leaseExpiresAt: plus(t0, 120),
      problemType: type,
      packageFileId: pkg.id,
      packageSha256: sha256(b.zip),
    });
    const { leaseToken } = res.body;
    expect(await b.admin.call(ops.getTrial, { params: { trialId: trial.id } })).toMatchObject({ state: 'running', runnerName: r.name, startedAt: t0.toISOString() });
    expect((await claimTrial(r)).status).toBe(204);

    const pkgBytes = await r.download(pkg.id);
    expect(pkgBytes.status).toBe(200);
    expect(pkgBytes.bytes.equals(b.zip)).toBe(true);

    const renew = (body: Record<string, unknown>, by = r) => by.post(`/runner/trials/${trial.id}/lease`, body);
    let renewed = await renew({ leaseToken, leaseSeconds: 15 });
    expect(renewed.body).toEqual({ trialId: trial.id, leaseToken, leaseExpiresAt: plus(t0, 120) });
    b.clock.advance(100);
    renewed = await renew({ leaseToken, leaseSeconds: 300 });
    expect(renewed.body.leaseExpiresAt).toBe(plus(b.clock.now(), 300));

    const intruder = await b.runner([type]);
    await b.refused(() => renew({ leaseToken }, intruder), 403, 'runner.lease.foreign');
    await b.refused(() => intruder.post(`/runner/trials/${trial.id}/report`, { leaseToken, measurement: '{}' }), 403, 'runner.lease.foreign');
    await b.refused(() => renew({ leaseToken: 'not-the-lease-token' }), 403, 'runner.lease.stale');
    await b.refused(() => r.post(`/runner/trials/${trial.id}/report`, { leaseToken: 'not-the-lease-token', measurement: '{}' }), 403, 'runner.lease.stale');
    await b.refused(() => r.post(`/runner/trials/${UNKNOWN_UUID}/lease`, { leaseToken }), 404, 'not_found');
    await b.refused(() => r.post('/runner/trials/nope/report', { leaseToken }), 404, 'not_found');
    await b.refused(() => r.post(`/runner/trials/${trial.id}/report`, { leaseToken, measurement: 7 }), 422, 'validation_failed');

    const measurement = JSON.stringify([{ submission: 'accepted/hello.py', expected: 'AC', actual: 'AC', slowestMs: 31 }]);
    const report = await r.post(`/runner/trials/${trial.id}/report`, { leaseToken, measurement });
    expect(report.status).toBe(200);
    expect(report.body).toEqual({ trialId: trial.id, state: 'completed', duplicate: false });
    expect(await b.admin.call(ops.getTrial, { params: { trialId: trial.id } })).toMatchObject({
      state: 'completed',
      measurement,
      runnerName: r.name,
      finishedAt: b.clock.now().toISOString(),
    });
    const repeat = await b.unchanged(() => r.post(`/runner/trials/${trial.id}/report`, { leaseToken, measurement: 'other' }));
    expect(repeat.body).toEqual({ trialId: trial.id, state: 'completed', duplicate: true });
    await b.refused(() => renew({ leaseToken }), 409, 'trial.state');
    expect((await r.download(pkg.id)).status).toBe(404);
  });

  it('a failureReason fails the trial; its repeat is a duplicate', async () => {
    const type = b.type();
    const { trial } = await trialOf(type);
    const r = await b.runner([type]);
    const { leaseToken } = (await claimTrial(r)).body;
    const body = { leaseToken, failureReason: 'the package has no accepted submission' };
    const res = await r.post(`/runner/trials/${trial.id}/report`, body);
    expect(res.body).toEqual({ trialId: trial.id, state: 'failed', duplicate: false });
    const view = await b.admin.call(ops.getTrial, { params: { trialId: trial.id } });
    expect(view).toMatchObject({ state: 'failed', failureReason: 'the package has no accepted submission' });
    expect(view.measurement).toBeUndefined();
    const repeat = await b.unchanged(() => r.post(`/runner/trials/${trial.id}/report`, body));
    expect(repeat.body).toEqual({ trialId: trial.id, state: 'failed', duplicate: true });
  });

  it('the reaper puts a trial whose lease lapsed back in the queue; the old lease is stale', async () => {
    const type = b.type();
    const { trial } = await trialOf(type);
    const r = await b.runner([type]);
    const first = (await claimTrial(r, { leaseSeconds: 15 })).body;
    b.clock.advance(15);
    expect(await b.j.app.reaper.tick(b.clock.now())).toEqual({ jobs: 0, trials: 1, sampleRuns: 0 });
    expect(await trialRow(trial.id)).toMatchObject({ state: 'queued', runnerId: null, leaseExpiresAt: null, deliveries: 1 });
    expect((await b.admin.call(ops.getTrial, { params: { trialId: trial.id } })).state).toBe('queued');
    await b.refused(() => r.post(`/runner/trials/${trial.id}/report`, { leaseToken: first.leaseToken, measurement: '[]' }), 403, 'runner.lease.stale');
    const other = await b.runner([type]);
    const again = await claimTrial(other);
    expect(again.body.trialId).toBe(trial.id);
    expect(await trialRow(trial.id)).toMatchObject({ state: 'running', runnerId: other.id, deliveries: 2 });
    await b.refused(() => r.post(`/runner/trials/${trial.id}/lease`, { leaseToken: first.leaseToken }), 403, 'runner.lease.stale');
  });

  it('revoking a runner puts its trial back in the queue', async () => {
    const type = b.type();
    const { trial } = await trialOf(type);
    const r = await b.runner([type]);
    expect((await claimTrial(r)).body.trialId).toBe(trial.id);
    await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
    expect(await trialRow(trial.id)).toMatchObject({ state: 'queued', runnerId: null });
    const other = await b.runner([type]);
    expect((await claimTrial(other)).body.trialId).toBe(trial.id);
  });
});
