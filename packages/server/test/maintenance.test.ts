import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ops, type MaintenanceState } from '@judge/contract';
import type { EventStream, JudgeClient } from '@judge/sdk';
import { refusedWith } from './expect.js';
import { ADMIN_PASSWORD, raw, TestJudge } from './harness.js';
import { codeForm } from './support/forms.js';
import { barrier, handshake, open as openStream, types } from './support/socket.js';
import { act, admin, alice, j, manager, open, participant, refused, runner, submit, task, useSubmissionWorld, w } from './support/submissions.js';

/**
 * Maintenance levels (decisions §1, §3, §10): `draining` stops new judging work while the queue
 * empties, `closed` answers 503 to all but health, sign-in and administrators, each change is
 * told to every session once, and the level survives a restart.
 */

const setLevel = (c: JudgeClient, level: MaintenanceState['level'], reason?: string) => c.call(ops.setMaintenance, { body: { level, ...(reason ? { reason } : {}) } });
const health = async (url: string) => (await raw(`${url}/api/v1/health`)).body as { status: string; maintenance?: string };
const get = (path: string, token?: string) => raw(`${j.url}/api/v1${path}`, token ? { token } : {});

async function adminByCookie(): Promise<JudgeClient> {
  const c = j.anonymous();
  await c.loginWithCookie('admin', ADMIN_PASSWORD);
  return c;
}

/** Asserts each stream heard exactly one maintenanceChanged, to `level`, before the barrier. */
async function toldOnce(streams: EventStream[], level: string): Promise<void> {
  for (const frames of await barrier(admin, streams)) {
    const told = frames.filter((f) => f.type === 'maintenanceChanged');
    expect(told).toHaveLength(1);
    expect((told[0]!.data as { maintenance: MaintenanceState }).maintenance.level).toBe(level);
  }
}

describe('maintenance', () => {
  useSubmissionWorld();

  it('only administrators read or set the level; bad input changes nothing', async () => {
    expect(await admin.call(ops.getMaintenance)).toEqual({ level: 'open' });
    await refusedWith(manager.c.call(ops.getMaintenance), 403, 'forbidden');
    await refusedWith(alice.c.call(ops.setMaintenance, { body: { level: 'closed' } }), 403, 'forbidden');
    await refusedWith(manager.c.call(ops.setMaintenance, { body: { level: 'draining' } }), 403, 'forbidden');
    await refusedWith(j.anonymous().call(ops.setMaintenance, { body: { level: 'closed' } }), 401, 'unauthenticated');
    const bad = await raw(`${j.url}/api/v1/admin/maintenance`, { method: 'PUT', token: admin.accessToken!, headers: { 'content-type': 'application/json' }, body: '{"level":"shut"}' });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 422, code: 'validation_failed' });
    expect(await admin.call(ops.getMaintenance)).toEqual({ level: 'open' });
    expect((await health(j.url)).maintenance).toBeUndefined();
  });

  it('closed answers 503 with Retry-After to all but health, sign-in and administrators, until turned off', async () => {
    const pupil = await participant(act, 'closed-pupil', 'cookie');
    const boss = await w.party('closed-manager', { how: 'cookie' });
    await j.grant(boss.u.id, 'manager', act.id);
    const adminCookie = await adminByCookie();
    const streams = [await openStream(pupil.c), await openStream(boss.c), await openStream(adminCookie)];
    await barrier(admin, streams);

    const set = await setLevel(admin, 'closed', 'upgrading the judge');
    expect(set).toEqual({ level: 'closed', since: expect.any(String), reason: 'upgrading the judge' });
    expect(await health(j.url)).toMatchObject({ status: 'ok', maintenance: 'closed' });

    for (const [path, token] of [['/account', alice.c.accessToken], ['/instance', undefined], ['/activities', manager.c.accessToken], ['/no/such/route', undefined]] as const) {
      const r = await get(path, token);
      expect({ path, status: r.status, code: r.body?.code }).toEqual({ path, status: 503, code: 'server.maintenance' });
      expect(r.headers.get('retry-after')).toBe('30');
    }
    // an administrator's own work waits too: only what turns maintenance off again is served
    expect((await get('/activities', admin.accessToken!)).status).toBe(503);
    await refusedWith(submit(alice.c, 'none', codeForm('int main(){}')), 503, 'server.maintenance');
    expect((await raw(`${j.url}/api/v1/runner/jobs/claim`, { method: 'POST', token: 'x'.repeat(43) })).status).toBe(503);
    // sign-in: administrators only, and a refused one opens no session
    const sessions = (await j.count('sessions'));
    await refusedWith(j.anonymous().login(alice.u.username, alice.u.password), 503, 'server.maintenance');
    expect((await j.count('sessions'))).toBe(sessions);
    const fresh = await j.admin();
    expect(await fresh.call(ops.getMaintenance)).toMatchObject({ level: 'closed', reason: 'upgrading the judge' });
    expect(await fresh.call(ops.getAccount)).toMatchObject({ username: 'admin' });

    // a new socket only for administrators; the ones already open stay, to hear of the reopening
    const origin = new URL(j.url).origin;
    expect(await handshake(j, { cookie: `judge_session=${pupil.c.cookie}`, origin })).toMatchObject({ status: 503, body: { code: 'server.maintenance' } });
    expect(await handshake(j, { cookie: `judge_session=${adminCookie.cookie}`, origin })).toEqual({ status: 101 });

    // setting the same level again tells nobody; the change itself was told once to everyone
    await setLevel(admin, 'closed');
    await toldOnce(streams, 'closed');

    expect(await setLevel(fresh, 'open')).toEqual({ level: 'open' });
    await toldOnce(streams, 'open');
    expect((await health(j.url)).maintenance).toBeUndefined();
    expect(await alice.c.call(ops.getAccount)).toMatchObject({ username: alice.u.username });
    expect(await handshake(j, { cookie: `judge_session=${pupil.c.cookie}`, origin })).toEqual({ status: 101 });
    for (const s of streams) s.close();
  });

  it('draining refuses new submissions, trials and rejudges while a runner claims and reports', async () => {
    const t = await task(open);
    const queued = await submit(alice.c, t.slug, codeForm('int main(){}'));
    const pupil = await participant(act, 'drain-pupil', 'cookie');
    const stream = await openStream(pupil.c);

    expect(await setLevel(admin, 'draining')).toMatchObject({ level: 'draining', since: expect.any(String) });
    expect((await health(j.url)).maintenance).toBe('draining');
    await toldOnce([stream], 'draining');

    const e = await refused(submit(alice.c, t.slug, codeForm('int main(){return 0;}')), 503, 'server.draining');
    expect(e.detail).toMatch(/draining/);
    const rawSubmit = await raw(`${j.url}/api/v1/activities/${act.slug}/problems/${t.slug}/submissions`, { method: 'POST', token: alice.c.accessToken!, body: codeForm('x') });
    expect(rawSubmit.headers.get('retry-after')).toBe('30');
    await refusedWith(manager.c.call(ops.rejudgeSubmission, { params: { id: queued.id } }), 503, 'server.draining');

    // judging goes on: the queued submission is claimed and reported, and reads back judged
    const job = await runner.judge('AC');
    expect(job.submissionId).toBe(queued.id);
    const own = await alice.c.call(ops.getOwnSubmission, { params: { idOrSlug: act.slug, id: queued.id } });
    expect(own).toMatchObject({ state: 'completed', verdict: 'AC' });
    // and everything else is served
    expect((await manager.c.call(ops.listSubmissions, { query: { activityId: act.id } })).total).toBeGreaterThan(0);

    await setLevel(admin, 'open');
    await toldOnce([stream], 'open');
    expect(await submit(alice.c, t.slug, codeForm('int main(){return 1;}'))).toMatchObject({ state: 'queued' });
    stream.close();
  });
});

describe('the maintenance level across a restart', () => {
  it('is read back from the data directory, with when and why', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'judge-maint-'));
    try {
      const first = await TestJudge.start({ dataDir });
      const set = await (await first.admin()).call(ops.setMaintenance, { body: { level: 'draining', reason: 'moving the box' } });
      await first.stop();

      const second = await TestJudge.start({ dataDir });
      try {
        expect((await health(second.url)).maintenance).toBe('draining');
        const a = await second.admin();
        expect(await a.call(ops.getMaintenance)).toEqual(set);
        await a.call(ops.setMaintenance, { body: { level: 'closed' } });
      } finally {
        await second.stop();
      }
      const third = await TestJudge.start({ dataDir });
      try {
        expect((await health(third.url)).maintenance).toBe('closed');
        // the instance settings do not show it
        expect(await (await third.admin()).call(ops.getInstance)).not.toHaveProperty('level');
      } finally {
        await third.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('system messages', () => {
  useSubmissionWorld();

  it('reach every session: participant, manager, administrator', async () => {
    const pupil = await participant(act, 'msg-pupil', 'cookie');
    const boss = await w.party('msg-manager', { how: 'cookie' });
    await j.grant(boss.u.id, 'manager', act.id);
    const streams = [await openStream(pupil.c), await openStream(boss.c), await openStream(await adminByCookie())];
    await admin.call(ops.sendSystemMessage, { body: { type: 'warning', text: 'The contest ends in 10 minutes' } });
    await admin.call(ops.sendSystemMessage, { body: { text: '  Lunch is served  ' } });
    for (const frames of await barrier(admin, streams)) {
      expect(frames.filter((f) => f.type === 'systemMessage').map((f) => f.data)).toEqual([
        { type: 'warning', message: 'The contest ends in 10 minutes' },
        { type: 'info', message: 'Lunch is served' },
      ]);
    }
    for (const s of streams) s.close();
  });

  it('is refused to anybody but administrators, and for bad input; nothing is sent', async () => {
    const pupil = await participant(act, 'msg-pupil2', 'cookie');
    const stream = await openStream(pupil.c);
    await refusedWith(manager.c.call(ops.sendSystemMessage, { body: { type: 'info', text: 'hi' } }), 403, 'forbidden');
    await refusedWith(alice.c.call(ops.sendSystemMessage, { body: { type: 'info', text: 'hi' } }), 403, 'forbidden');
    await refusedWith(j.anonymous().call(ops.sendSystemMessage, { body: { type: 'info', text: 'hi' } }), 401, 'unauthenticated');
    for (const body of ['{"type":"info","text":"   "}', '{"type":"critical","text":"x"}', '{"type":"info"}', `{"text":"${'x'.repeat(2001)}"}`]) {
      const r = await raw(`${j.url}/api/v1/admin/system-message`, { method: 'POST', token: admin.accessToken!, headers: { 'content-type': 'application/json' }, body });
      expect({ body, status: r.status, code: r.body.code }).toEqual({ body, status: 422, code: 'validation_failed' });
    }
    const [frames] = await barrier(admin, [stream]);
    expect(types(frames!)).not.toContain('systemMessage');
    stream.close();
  });
});
