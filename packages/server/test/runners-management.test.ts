import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type Runner as RunnerRecord } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { sendJson } from './expect.js';
import { ADMIN_PASSWORD } from './harness.js';
import { UNKNOWN_UUID, World, listen, only } from './series-fixtures.js';
import { Runner, Bench } from './support/runner-bench.js';

/**
 * Runner management (decisions §8): the administrators' side with its permission matrix and events,
 * and matchingRunners on activities and series.
 * Over real HTTP on a real server; fixtures in support/runner-bench.ts.
 */

describe('runners: management', () => {
  let b: Bench;
  let world: World;
  beforeAll(async () => {
    b = await Bench.start();
    world = await World.create(b.j, b.clock);
  });
  afterAll(() => b.stop());

  it('lists runners newest first, paged, filtered by state and by a search', async () => {
    const tag = b.uniq('zeta');
    const pending = await b.runner(['standard-io@1'], { approve: false, name: `${tag}-a` });
    b.clock.advance(1);
    const approved = await b.runner(['standard-io@1'], { name: `${tag}-b` });
    b.clock.advance(1);
    const revoked = await b.runner(['standard-io@1'], { name: `${tag}-c` });
    await b.admin.call(ops.revokeRunner, { params: { id: revoked.id }, body: {} });
    const list = (query: Record<string, unknown>) => b.admin.call(ops.listRunners, { query: query as never });
    const names = (p: { items: RunnerRecord[] }) => p.items.map((r) => r.name);

    const all = await list({ search: tag });
    expect(names(all)).toEqual([`${tag}-c`, `${tag}-b`, `${tag}-a`]);
    expect(all).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    const second = await list({ search: tag, page: 2, pageSize: 2 });
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(names(second)).toEqual([`${tag}-a`]);
    expect(names(await list({ search: tag, state: 'pendingApproval' }))).toEqual([`${tag}-a`]);
    expect(names(await list({ search: tag, state: 'approved' }))).toEqual([`${tag}-b`]);
    expect(names(await list({ search: tag, state: 'revoked' }))).toEqual([`${tag}-c`]);
    expect(names(await list({ search: pending.fingerprint.slice(0, 20) }))).toEqual([`${tag}-a`]);
    expect(names(await list({ search: `${tag}-b` }))).toEqual([`${tag}-b`]);
    expect((await list({ search: 'no-such-runner-%' })).total).toBe(0);
    expect((await list({ pageSize: 500 })).pageSize).toBe(200);
    expect((await list({ pageSize: 0 })).pageSize).toBe(1);
    const everyone = await list({ pageSize: 200 });
    expect(everyone.total).toBe((await b.j.count('runners')));
    expect(everyone.items.find((r) => r.id === approved.id)).toEqual(await b.view(approved));
    await b.refused(() => sendJson(b.j.url, 'GET', '/runners?state=sleeping', b.admin.accessToken), 422, 'validation_failed');
    await b.refused(() => sendJson(b.j.url, 'GET', '/runners?page=first', b.admin.accessToken), 422, 'validation_failed');
  });

  it('reads one runner; an unknown or malformed id is 404', async () => {
    const r = await b.runner(['standard-io@1'], { approve: false });
    expect(await b.view(r)).toMatchObject({ id: r.id, name: r.name, state: 'pendingApproval', fingerprint: r.fingerprint });
    await b.refusedCall(() => b.view(UNKNOWN_UUID), 404, 'not_found');
    await b.refused(() => sendJson(b.j.url, 'GET', '/runners/nope', b.admin.accessToken), 404, 'not_found');
  });

  it('approving is idempotent; a revoked runner cannot be approved (409 runner.revoked)', async () => {
    const r = await b.runner(['standard-io@1'], { approve: false });
    const approve = (id = r.id) => b.admin.call(ops.approveRunner, { params: { id } });
    const first = await approve();
    expect(first).toMatchObject({ id: r.id, state: 'approved', approvedAt: b.clock.now().toISOString() });
    b.clock.advance(5);
    const again = await b.unchanged(() => approve());
    expect(again).toMatchObject({ state: 'approved', approvedAt: first.approvedAt });
    await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
    await b.refusedCall(() => approve(), 409, 'runner.revoked');
    await b.refusedCall(() => approve(UNKNOWN_UUID), 404, 'not_found');
  });

  it('revoking kills its tokens and puts its running job back in the queue', async () => {
    const s = await b.stage();
    const r = await b.runner([s.type]);
    const sub = await b.submit(s);
    const job = await r.job();
    const revoked = await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: { reason: 'disk failing' } });
    expect(revoked).toMatchObject({ id: r.id, state: 'revoked', revokedAt: b.clock.now().toISOString(), revokedReason: 'disk failing' });
    expect(revoked.currentJobId).toBeUndefined();
    expect(await b.attempt(job.jobId)).toMatchObject({ state: 'queued', runnerId: null, deliveries: 1 });
    expect((await b.admin.call(ops.getSubmission, { params: { id: sub.id } })).state).toBe('queued');
    // its token died with it; a new handshake is refused
    await b.refused(() => r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' }), 401, 'unauthenticated');
    const { nonce } = await r.challenge();
    await b.refused(() => r.exchange(nonce, r.sign(nonce)), 403, 'runner.notApproved');
    // the job goes to another runner
    const other = await b.runner([s.type]);
    expect((await other.job()).jobId).toBe(job.jobId);
    // revoking again changes nothing; a reason is at most 500 characters
    const again = await b.unchanged(() => b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: { reason: 'again' } }));
    expect(again).toMatchObject({ state: 'revoked', revokedReason: 'disk failing' });
    await b.refusedCall(() => b.admin.call(ops.revokeRunner, { params: { id: other.id }, body: { reason: 'x'.repeat(501) } }), 422, 'validation_failed');
    await b.refusedCall(() => b.admin.call(ops.revokeRunner, { params: { id: UNKNOWN_UUID }, body: {} }), 404, 'not_found');
    expect((await b.view(other)).state).toBe('approved');
  });

  it('names what a runner holds now: the submission with its activity, problem and progress, then a trial, and nothing once it is idle', async () => {
    const { s, r, sub, job } = await b.held();
    const busy = await b.view(r);
    expect(busy.currentJob).toEqual({
      kind: 'submission',
      id: job.jobId,
      since: b.clock.now().toISOString(),
      submissionId: sub.id,
      attempt: 1,
      activityId: s.activity.id,
      activitySlug: s.activity.slug,
      activityName: 'Contest',
      problemSlug: s.slug,
      problemName: 'Sum',
    });
    expect(busy.currentJobId).toBe(job.jobId);
    expect((await r.post(`/runner/jobs/${job.jobId}/progress`, { leaseToken: job.leaseToken, done: 2, total: 5 })).status).toBe(204);
    expect((await b.view(r)).currentJob?.progress).toEqual({ done: 2, total: 5 });
    // the list says the same as the runner's own page
    const listed = await b.admin.call(ops.listRunners, { query: { search: r.name } });
    expect(listed.items[0]!.currentJob).toEqual((await b.view(r)).currentJob);
    expect((await r.report(job.jobId, { leaseToken: job.leaseToken, verdict: 'AC' })).status).toBe(200);
    const idle = await b.view(r);
    expect(idle.currentJob).toBeUndefined();
    expect(idle.currentJobId).toBeUndefined();

    // a trial is work it holds too, named without a submission
    const pkg = await b.admin.upload('package.zip', b.zip, 'application/zip');
    const trial = await b.admin.call(ops.createTrial, { body: { problemType: s.type, packageFileId: pkg.id, activityIdOrSlug: s.activity.slug } });
    const claimed = await r.post('/runner/trials/claim', {});
    expect(claimed.body.trialId, claimed.text).toBe(trial.id);
    const trying = await b.view(r);
    expect(trying.currentJob).toEqual({ kind: 'trial', id: trial.id, since: b.clock.now().toISOString(), activityId: s.activity.id, activitySlug: s.activity.slug, activityName: 'Contest' });
    expect(trying.currentJobId).toBeUndefined();
    // a runner waiting for approval holds nothing
    expect((await b.view(await b.runner([s.type], { approve: false }))).currentJob).toBeUndefined();
  });

  it('sets tags (deduplicated); malformed tags are 422', async () => {
    const r = await b.runner(['standard-io@1'], { approve: false, tags: ['old'] });
    const tags = (body: unknown, id = r.id) => b.admin.call(ops.setRunnerTags, { params: { id }, body: body as never });
    expect(await tags({ tags: ['gpu', 'x86_64', 'gpu', 'zone:a'] })).toMatchObject({ id: r.id, tags: ['gpu', 'x86_64', 'zone:a'] });
    for (const body of [{}, { tags: 'gpu' }, { tags: ['has space'] }, { tags: [''] }, { tags: ['x'.repeat(65)] }, { tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }]) {
      await b.refusedCall(() => tags(body), 422, 'validation_failed');
    }
    await b.refusedCall(() => tags({ tags: ['gpu'] }, UNKNOWN_UUID), 404, 'not_found');
    expect(await tags({ tags: [] })).toMatchObject({ tags: [] });
  });

  it('deletes only revoked runners (409 runner.notRevoked), then it is gone and its key may register anew', async () => {
    const r = await b.runner(['standard-io@1']);
    const del = (id = r.id) => b.admin.call(ops.deleteRunner, { params: { id } });
    await b.refusedCall(() => del(), 409, 'runner.notRevoked');
    const pending = await b.runner(['standard-io@1'], { approve: false });
    await b.refusedCall(() => del(pending.id), 409, 'runner.notRevoked');
    await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
    const res = await sendJson(b.j.url, 'DELETE', `/runners/${r.id}`, b.admin.accessToken);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    await b.refusedCall(() => b.view(r), 404, 'not_found');
    await b.refusedCall(() => del(), 404, 'not_found');
    const oldId = r.id;
    const again = await r.register();
    expect(again.body).toMatchObject({ state: 'pendingApproval', fingerprint: r.fingerprint });
    expect(again.body.runnerId).not.toBe(oldId);
  });

  it('only holders of the runner keys may manage runners: users and activity managers are 403, a reader may only read', async () => {
    const plain = await b.j.signIn(await b.j.user(b.uniq('plain')));
    const activity = await world.activity();
    const managerUser = await b.j.user(b.uniq('manager'));
    await b.j.grant(managerUser.id, 'manager', activity.id);
    const manager = await b.j.signIn(managerUser);
    await b.admin.call(ops.createRole, { body: { name: 'Runner reader', permissions: ['runner:read'] } });
    const readerUser = await b.j.user(b.uniq('reader'));
    await b.j.grant(readerUser.id, 'Runner reader');
    const reader = await b.j.signIn(readerUser);

    const target = await b.runner(['standard-io@1'], { approve: false });
    const gone = await b.runner(['standard-io@1'], { approve: false });
    await b.admin.call(ops.revokeRunner, { params: { id: gone.id }, body: {} });
    const calls = (c: JudgeClient): [string, string | null, () => Promise<unknown>][] => [
      ['list', 'runner:read', () => c.call(ops.listRunners, { query: {} })],
      ['get', 'runner:read', () => c.call(ops.getRunner, { params: { id: target.id } })],
      ['approve', 'runner:approve', () => c.call(ops.approveRunner, { params: { id: target.id } })],
      ['tags', 'runner:update', () => c.call(ops.setRunnerTags, { params: { id: target.id }, body: { tags: ['x'] } })],
      ['revoke', 'runner:revoke', () => c.call(ops.revokeRunner, { params: { id: target.id }, body: {} })],
      ['delete', 'runner:revoke', () => c.call(ops.deleteRunner, { params: { id: gone.id } })],
    ];
    for (const c of [plain, manager]) {
      for (const [what, key, call] of calls(c)) {
        const p = await b.refusedCall(call, 403, 'forbidden');
        expect(p.detail, what).toContain(key);
      }
    }
    for (const [what, key, call] of calls(reader)) {
      if (key === 'runner:read') expect(await call(), what).toBeTruthy();
      else await b.refusedCall(call, 403, 'forbidden');
    }
    await b.refusedCall(() => b.j.anonymous().call(ops.listRunners, { query: {} }), 401, 'unauthenticated');
    // an administrator may do all of it
    for (const [what, , call] of calls(b.admin)) expect(await call(), what).not.toBeInstanceOf(Error);
    expect((await b.view(target)).state).toBe('revoked');
    await b.refusedCall(() => b.view(gone), 404, 'not_found');
  });

  it('runnerChanged reaches holders of runner:read on register, approve, tags, revoke and delete, and nobody else', async () => {
    const adminStream = await listen(b.j, { username: 'admin', password: ADMIN_PASSWORD });
    const readerUser = await b.j.user(b.uniq('watcher'));
    await b.j.grant(readerUser.id, 'Runner reader');
    const readerStream = await listen(b.j, readerUser);
    const plainStream = await listen(b.j, await b.j.user(b.uniq('bystander')));
    try {
      await world.barrier([adminStream, readerStream, plainStream]);
      const r = new Runner(b.j.url, 'announced', ['standard-io@1']);
      await r.register();
      await b.admin.call(ops.approveRunner, { params: { id: r.id } });
      await b.admin.call(ops.setRunnerTags, { params: { id: r.id }, body: { tags: ['gpu'] } });
      await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
      await b.admin.call(ops.deleteRunner, { params: { id: r.id } });
      const [forAdmin, forReader, forPlain] = await world.barrier([adminStream, readerStream, plainStream]);
      const expected = [
        { runner: expect.objectContaining({ id: r.id, name: 'announced', state: 'pendingApproval' }) },
        { runner: expect.objectContaining({ id: r.id, state: 'approved' }) },
        { runner: expect.objectContaining({ id: r.id, state: 'approved', tags: ['gpu'] }) },
        { runner: expect.objectContaining({ id: r.id, state: 'revoked' }) },
        { deletedId: r.id },
      ];
      expect(only(forAdmin!, 'runnerChanged')).toEqual(expected);
      expect(only(forReader!, 'runnerChanged')).toEqual(expected);
      expect(only(forPlain!, 'runnerChanged')).toEqual([]);
    } finally {
      for (const s of [adminStream, readerStream, plainStream]) s.close();
    }
  });
});

// =====================================================================================================

describe('runners: matchingRunners on activities and series', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await Bench.start();
  });
  afterAll(() => b.stop());

  it("counts approved runners holding the tags a job requires: the series', else the activity's", async () => {
    const activity = (runnerTags?: string[]) =>
      b.admin.call(ops.createActivity, {
        body: { slug: b.uniq('act'), name: 'Contest', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', ...(runnerTags ? { runnerTags } : {}) },
      });
    const series = (a: Activity, runnerTags?: string[]) =>
      b.admin.call(ops.createSeries, { params: { idOrSlug: a.slug }, body: { slug: b.uniq('s'), name: 'Round', ...(runnerTags ? { runnerTags } : {}) } });
    const tagged = await activity(['gpu']);
    const open = await activity();
    const inherits = await series(tagged);
    const fast = await series(tagged, ['fast']);
    const both = await series(tagged, ['gpu', 'fast']);
    const openSeries = await series(open);

    const counts = async () => {
      const seriesOf = async (a: Activity) =>
        Object.fromEntries((await b.admin.call(ops.listManagedSeries, { params: { idOrSlug: a.slug } })).map((s) => [s.id, s.matchingRunners]));
      const taggedSeries = await seriesOf(tagged);
      const openList = await seriesOf(open);
      return {
        tagged: (await b.admin.call(ops.getManagedActivity, { params: { idOrSlug: tagged.slug } })).matchingRunners,
        inherits: taggedSeries[inherits.id],
        fast: taggedSeries[fast.id],
        both: taggedSeries[both.id],
        open: (await b.admin.call(ops.getManagedActivity, { params: { idOrSlug: open.slug } })).matchingRunners,
        openSeries: openList[openSeries.id],
      };
    };
    expect(await counts()).toEqual({ tagged: 0, inherits: 0, fast: 0, both: 0, open: 0, openSeries: 0 });
    // a runner waiting for approval does not count, whatever its tags
    await b.runner(['standard-io@1'], { approve: false, tags: ['gpu', 'fast'] });
    expect(await counts()).toEqual({ tagged: 0, inherits: 0, fast: 0, both: 0, open: 0, openSeries: 0 });
    const gpu = await b.runner(['standard-io@1'], { tags: ['gpu'] });
    expect(await counts()).toEqual({ tagged: 1, inherits: 1, fast: 0, both: 0, open: 1, openSeries: 1 });
    await b.runner(['standard-io@1'], { tags: ['gpu', 'fast', 'ssd'] });
    expect(await counts()).toEqual({ tagged: 2, inherits: 2, fast: 1, both: 1, open: 2, openSeries: 2 });
    const plain = await b.runner(['standard-io@1']);
    expect(await counts()).toEqual({ tagged: 2, inherits: 2, fast: 1, both: 1, open: 3, openSeries: 3 });
    await b.admin.call(ops.setRunnerTags, { params: { id: plain.id }, body: { tags: ['fast'] } });
    expect(await counts()).toEqual({ tagged: 2, inherits: 2, fast: 2, both: 1, open: 3, openSeries: 3 });
    await b.admin.call(ops.revokeRunner, { params: { id: gpu.id }, body: {} });
    expect(await counts()).toEqual({ tagged: 1, inherits: 1, fast: 2, both: 1, open: 2, openSeries: 2 });
  });
});
