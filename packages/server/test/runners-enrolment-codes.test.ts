import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type CreatedEnrolmentCode } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD } from './harness.js';
import { listen, only } from './series-fixtures.js';
import { barrier } from './support/socket.js';
import { Runner, Bench } from './support/runner-bench.js';
import { asc } from 'drizzle-orm';
import { runnerEnrolmentCodes } from '../src/db/schema.js';

/**
 * Enrolment codes (extension of decisions §8): an administrator makes a one-time code, and a runner
 * registering with it is approved at once with the code's name and tags. A code that cannot be used
 * registers nothing. Over real HTTP on a real server; fixtures in support/runner-bench.ts.
 */

describe('runners: enrolment codes', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await Bench.start();
  });
  afterAll(() => b.stop());

  const codes = () => b.j.app.deps.tx.read((q) => q.select().from(runnerEnrolmentCodes).orderBy(asc(runnerEnrolmentCodes.createdAt), asc(runnerEnrolmentCodes.id)));
  const make = (body: { name?: string; tags?: string[]; expiresInSeconds?: number; uses?: number } = {}, c: JudgeClient = b.admin) =>
    c.call(ops.createRunnerEnrolmentCode, { body });
  /** A registration with a code that must be refused (403 runner.enrolmentCode) and leave runners and codes as they were. */
  const refusedCode = async (code: string, detail: RegExp, r = new Runner(b.j.url, b.uniq('lab'), ['standard-io@1'])) => {
    const before = JSON.stringify(await codes());
    const res = await b.refused(() => r.register({ enrolmentCode: code }), 403, 'runner.enrolmentCode');
    expect(res.body.detail).toMatch(detail);
    expect(JSON.stringify(await codes())).toBe(before);
    return res;
  };

  it('a code approves a new runner at once, gives it the code\'s name and tags, and is spent', async () => {
    const made = await make({ name: 'lab-07', tags: ['lab', 'cpp'] });
    expect(made).toMatchObject({ id: expect.any(String), name: 'lab-07', tags: ['lab', 'cpp'], uses: 1, used: 0, createdBy: expect.any(String), createdByName: 'admin' });
    expect(made.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
    expect(Date.parse(made.expiresAt) - Date.parse(made.createdAt)).toBe(3600_000);
    // only the SHA-256 is stored: the code itself appears nowhere in the table
    expect(JSON.stringify(await codes())).not.toContain(made.code.replace(/-/g, ''));
    expect(JSON.stringify(await codes())).not.toContain(made.code);

    const r = new Runner(b.j.url, 'hostname-7', ['standard-io@1'], ['own']);
    // case and dashes do not matter to someone typing it
    const res = await r.register({ enrolmentCode: made.code.toLowerCase().replace(/-/g, ' ') });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ runnerId: r.id, fingerprint: r.fingerprint, state: 'approved', name: 'lab-07', tags: ['lab', 'cpp'] });
    expect(await b.view(r)).toMatchObject({ state: 'approved', name: 'lab-07', tags: ['lab', 'cpp'], approvedAt: b.clock.now().toISOString() });
    await r.authenticate();
    const listed = (await b.admin.call(ops.listRunnerEnrolmentCodes, {})).items.find((c) => c.id === made.id);
    expect(listed).toMatchObject({ used: 1, uses: 1, lastUsedAt: b.clock.now().toISOString() });
    expect(listed).not.toHaveProperty('code');

    // the same code again: already used, nothing registered
    await refusedCode(made.code, /already used/);
  });

  it('a code without a name or tags keeps the runner\'s own; a code of several uses enrols that many', async () => {
    const made = await make({ uses: 2 });
    const first = new Runner(b.j.url, 'pc-1', ['standard-io@1'], ['room-a']);
    const second = new Runner(b.j.url, 'pc-2', ['standard-io@1']);
    expect((await first.register({ enrolmentCode: made.code })).body).toMatchObject({ state: 'approved', name: 'pc-1', tags: ['room-a'] });
    expect((await second.register({ enrolmentCode: made.code })).body).toMatchObject({ state: 'approved', name: 'pc-2', tags: [] });
    await refusedCode(made.code, /already used 2 times/);
  });

  it('approves a key that was waiting; a key already approved neither needs nor spends a code', async () => {
    const waiting = new Runner(b.j.url, 'waiting', ['standard-io@1']);
    expect((await waiting.register()).body.state).toBe('pendingApproval');
    const made = await make({ tags: ['late'] });
    expect((await waiting.register({ enrolmentCode: made.code })).body).toMatchObject({ runnerId: waiting.id, state: 'approved', tags: ['late'] });

    const approved = await b.runner(['standard-io@1']);
    const spare = await make();
    const again = await approved.register({ enrolmentCode: spare.code });
    expect(again.body).toEqual({ runnerId: approved.id, fingerprint: approved.fingerprint, state: 'approved' });
    expect((await b.admin.call(ops.listRunnerEnrolmentCodes, {})).items.find((c) => c.id === spare.id)?.used).toBe(0);
    // the enrolment command run again on an enrolled machine: its spent code is not held against it
    const rows = (await b.j.count('runners'));
    expect((await waiting.register({ enrolmentCode: made.code })).body).toEqual({ runnerId: waiting.id, fingerprint: waiting.fingerprint, state: 'approved' });
    expect((await approved.register({ enrolmentCode: 'AAAAA-BBBBB-CCCCC-DDDDD' })).status).toBe(200);
    expect((await b.j.count('runners'))).toBe(rows);
  });

  it('refuses an unknown, an expired and a withdrawn code, and registers nothing', async () => {
    await refusedCode('AAAAA-BBBBB-CCCCC-DDDDD', /unknown or was withdrawn/);
    await refusedCode('', /unknown/);

    const soon = await make({ expiresInSeconds: 60 });
    b.clock.advance(60);
    await refusedCode(soon.code, /expired at/);
    // an expired code is no longer listed
    expect((await b.admin.call(ops.listRunnerEnrolmentCodes, {})).items.map((c) => c.id)).not.toContain(soon.id);

    const withdrawn = await make();
    await b.admin.call(ops.revokeRunnerEnrolmentCode, { params: { id: withdrawn.id } });
    expect((await b.admin.call(ops.listRunnerEnrolmentCodes, {})).items.map((c) => c.id)).not.toContain(withdrawn.id);
    await refusedCode(withdrawn.code, /unknown or was withdrawn/);
    await b.refusedCall(() => b.admin.call(ops.revokeRunnerEnrolmentCode, { params: { id: withdrawn.id } }), 404, 'not_found');

    // a waiting key with a bad code stays waiting, and a revoked key is refused as revoked first
    const waiting = new Runner(b.j.url, 'still-waiting', ['standard-io@1']);
    await waiting.register();
    await refusedCode('AAAAA-BBBBB-CCCCC-DDDDD', /unknown/, waiting);
    expect((await b.view(waiting)).state).toBe('pendingApproval');
    const gone = await b.runner(['standard-io@1'], { approve: false });
    await b.admin.call(ops.revokeRunner, { params: { id: gone.id }, body: {} });
    const fresh = await make();
    await b.refused(() => gone.register({ enrolmentCode: fresh.code }), 409, 'runner.revoked');
  });

  it('lists unexpired codes newest first, with what was used', async () => {
    b.clock.advance(1);
    const older = await make({ name: 'older' });
    b.clock.advance(1);
    const newer = await make({ name: 'newer', expiresInSeconds: 7 * 24 * 3600, uses: 30 });
    const { items } = await b.admin.call(ops.listRunnerEnrolmentCodes, {});
    expect(items.slice(0, 2).map((c) => c.id)).toEqual([newer.id, older.id]);
    expect(items[0]).toMatchObject({ name: 'newer', uses: 30, used: 0, expiresAt: new Date(b.clock.now().getTime() + 7 * 24 * 3600_000).toISOString() });
  });

  it('refuses bad input and changes nothing', async () => {
    const before = JSON.stringify(await codes());
    for (const body of [{ expiresInSeconds: 7 * 24 * 3600 + 1 }, { expiresInSeconds: 59 }, { uses: 0 }, { uses: 1.5 }, { tags: ['not a tag'] }, { name: '' }]) {
      await b.refusedCall(() => make(body as never), 422, 'validation_failed');
    }
    expect(JSON.stringify(await codes())).toBe(before);
  });

  it('only holders of runner:approve make, list and withdraw codes', async () => {
    const target: CreatedEnrolmentCode = await make();
    await b.admin.call(ops.createRole, { body: { name: 'Runner reader', permissions: ['runner:read'] } });
    const readerUser = await b.j.user(b.uniq('reader'));
    await b.j.grant(readerUser.id, 'Runner reader');
    const plain = await b.j.signIn(await b.j.user(b.uniq('plain')));
    const reader = await b.j.signIn(readerUser);
    for (const c of [plain, reader, b.pupil.c]) {
      const before = JSON.stringify(await codes());
      for (const call of [() => make({}, c), () => c.call(ops.listRunnerEnrolmentCodes, {}), () => c.call(ops.revokeRunnerEnrolmentCode, { params: { id: target.id } })]) {
        const p = await b.refusedCall(call, 403, 'forbidden');
        expect(p.detail).toContain('runner:approve');
      }
      expect(JSON.stringify(await codes())).toBe(before);
    }
    await b.refusedCall(() => b.j.anonymous().call(ops.listRunnerEnrolmentCodes, {}), 401, 'unauthenticated');

    await b.admin.call(ops.createRole, { body: { name: 'Runner approver', permissions: ['runner:approve'] } });
    const approverUser = await b.j.user(b.uniq('approver'));
    await b.j.grant(approverUser.id, 'Runner approver');
    const approver = await b.j.signIn(approverUser);
    expect((await make({ name: 'by-approver' }, approver)).createdByName).toBe(approverUser.username);
    await approver.call(ops.revokeRunnerEnrolmentCode, { params: { id: target.id } });
  });

  it('runnerChanged tells the runner managers that a runner enrolled with a code', async () => {
    const adminStream = await listen(b.j, { username: 'admin', password: ADMIN_PASSWORD });
    try {
      await barrier(b.admin, [adminStream]);
      const made = await make({ name: 'announced-lab' });
      const r = new Runner(b.j.url, 'x', ['standard-io@1']);
      await r.register({ enrolmentCode: made.code });
      const [frames] = await barrier(b.admin, [adminStream]);
      expect(only(frames!, 'runnerChanged')).toEqual([{ runner: expect.objectContaining({ id: r.id, name: 'announced-lab', state: 'approved' }) }]);
    } finally {
      adminStream.close();
    }
  });
});
