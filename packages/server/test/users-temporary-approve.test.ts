import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops, type Activity } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { grants, problems, problemVersions, series, seriesProblems, submissions, users } from '../src/db/schema.js';
import { refusedWith } from './expect.js';
import { ManualClock, TestJudge } from './harness.js';
import { tableSnapshot } from './support/db-snapshot.js';
import { expectProblem, login, req } from './support/identity.js';

/**
 * POST /users/temporary and POST /users/{id}/approve over real HTTP: numbered guest accounts that
 * lapse on their own (enrolled in an activity when one is named) and are removed a month later
 * unless they submitted; approving a self-registered account so that it may enrol. Who may and who
 * may not, and refusals that create nothing.
 */

const T0 = new Date('2026-11-22T08:00:00.000Z');
const DAY = 86_400_000;

describe('temporary accounts and approval', () => {
  const clock = new ManualClock(new Date(T0));
  let j: TestJudge;
  let admin: JudgeClient;
  let n = 0;
  const snapshot = () => tableSnapshot(j, [users, grants]);

  beforeAll(async () => {
    j = await TestJudge.start({ clock });
    admin = await j.admin();
    await admin.call(ops.createRole, { body: { name: 'Creator', permissions: ['activity:create'] } });
  });
  afterAll(() => j.stop());

  const temporary = (c: JudgeClient, body: { prefix: string; count: number; expiresAt?: string; activityId?: string }) => c.call(ops.createTemporaryUsers, { body });
  async function party(opts: { creator?: boolean } = {}) {
    const u = await j.user(`staff${++n}`);
    if (opts.creator) await j.grant(u.id, 'Creator');
    return { u, c: await j.signIn(u) };
  }
  const activity = (c: JudgeClient): Promise<Activity> =>
    c.call(ops.createActivity, { body: { slug: `event-${++n}`, name: 'Event', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC' } });
  async function refused(call: Promise<unknown>, status: number, code: string) {
    call.catch(() => undefined);
    const before = await snapshot();
    await refusedWith(call, status, code);
    expect(await snapshot()).toBe(before);
  }

  describe('POST /users/temporary', () => {
    it('numbers the logins on from the highest taken, with passwords that sign in until expiresAt', async () => {
      const first = await temporary(admin, { prefix: 'guest', count: 3 });
      expect(first.map((i) => i.username)).toEqual(['guest01', 'guest02', 'guest03']);
      await j.user('guest10');
      const second = await temporary(admin, { prefix: 'guest', count: 2, expiresAt: new Date(T0.getTime() + DAY).toISOString() });
      expect(second.map((i) => i.username)).toEqual(['guest11', 'guest12']);
      for (const i of [...first, ...second]) expect(i.password.length).toBeGreaterThanOrEqual(10);
      const managed = await admin.call(ops.getManagedUser, { params: { id: first[0]!.userId } });
      expect(managed).toMatchObject({ username: 'guest01', isTemporary: true, expiresAt: new Date(T0.getTime() + 7 * DAY).toISOString() });
      expect((await login(j, 'guest12', second[1]!.password)).status).toBe(200);
      // past its end a temporary account signs in no more
      clock.set(new Date(T0.getTime() + DAY + 1000));
      try {
        expectProblem(await login(j, 'guest12', second[1]!.password), 401, 'unauthenticated', 'NotAllowed');
        expect((await login(j, 'guest01', first[0]!.password)).status).toBe(200);
      } finally {
        clock.set(new Date(T0));
      }
      admin = await j.admin();
    });

    it("enrols them as participants of an activity, where that activity's manager may make them", async () => {
      const m = await party({ creator: true });
      const a = await activity(m.c);
      const made = await temporary(m.c, { prefix: 'visitor', count: 2, activityId: a.id });
      const guest = await j.signIn({ username: made[0]!.username, password: made[0]!.password });
      expect((await guest.call(ops.getActivity, { params: { idOrSlug: a.id } })).id).toBe(a.id);
      const held = await j.app.deps.tx.read((q) => q.select().from(grants).where(eq(grants.userId, made[1]!.userId)));
      expect(held.map((g) => g.activityId)).toEqual([a.id]);
      // the manager may not make them elsewhere, nor system-wide
      const other = await activity(admin);
      await refused(temporary(m.c, { prefix: 'visitor', count: 1, activityId: other.id }), 403, 'forbidden');
      await refused(temporary(m.c, { prefix: 'visitor', count: 1 }), 403, 'forbidden');
      await refused(temporary(admin, { prefix: 'visitor', count: 1, activityId: 'no-such-activity' }), 404, 'not_found');
      await admin.call(ops.setActivityArchived, { params: { idOrSlug: other.id }, body: { archived: true } });
      await refused(temporary(admin, { prefix: 'visitor', count: 1, activityId: other.id }), 409, 'activity.archived');
    });

    it('refuses callers without the permission and malformed requests, creating nothing', async () => {
      const plain = await party();
      await refused(temporary(plain.c, { prefix: 'x', count: 1 }), 403, 'forbidden');
      await refused(j.anonymous().call(ops.createTemporaryUsers, { body: { prefix: 'x', count: 1 } }), 401, 'unauthenticated');
      for (const body of [{ prefix: 'x', count: 0 }, { prefix: 'x', count: 501 }, { prefix: '-x', count: 1 }, { prefix: '', count: 1 }, { prefix: 'x', count: 1.5 }, { prefix: 'x', count: 1, expiresAt: 'soon' }]) {
        await refused(temporary(admin, body as never), 422, 'validation_failed');
      }
      await refused(temporary(admin, { prefix: 'x', count: 1, expiresAt: new Date(T0.getTime() - 1000).toISOString() }), 422, 'validation_failed');
    });

    it('are removed by retention a month after they lapsed, unless they submitted', async () => {
      const end = new Date(T0.getTime() + 2 * DAY).toISOString();
      const [idle, active] = await temporary(admin, { prefix: 'lapsing', count: 2, expiresAt: end });
      await submitAs(active!.userId);
      const temporaryIds = async () => (await j.app.deps.tx.read((q) => q.select({ id: users.id }).from(users).where(eq(users.isTemporary, true)))).map((u) => u.id);
      await j.app.retention.tick(new Date(T0.getTime() + 31 * DAY));
      expect(await temporaryIds()).toEqual(expect.arrayContaining([idle!.userId, active!.userId]));
      expect((await j.app.retention.tick(new Date(T0.getTime() + 33 * DAY))).temporaryUsers).toBeGreaterThanOrEqual(1);
      const left = await temporaryIds();
      expect(left).toContain(active!.userId);
      expect(left).not.toContain(idle!.userId);
      // the same ticks removed sessions that had lapsed by then, the administrator's among them
      admin = await j.admin();
    });
  });

  describe('POST /users/{id}/approve', () => {
    it('lets a self-registered account that awaited approval enrol; approving again changes nothing', async () => {
      await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true, requireApproval: true } });
      try {
        const email = `self${++n}@school.example`;
        const password = 'a long enough password';
        expect((await req(j, 'POST', '/identity/register', { body: { email, password } })).status).toBe(204);
        const self = j.anonymous();
        await self.login(email, password);
        const me = await self.call(ops.getAccount);
        const m = await party({ creator: true });
        const a = await activity(m.c);
        await admin.call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, joinPolicy: 'open' } as never });
        await admin.call(ops.setActivityPublished, { params: { id: a.id }, body: { published: true } });
        await expect(self.call(ops.enrol, { params: { idOrSlug: a.id }, body: {} })).rejects.toMatchObject({ status: 403, code: 'account.notApproved' });

        // only holders of user:update approve
        await refused(m.c.call(ops.approveUser, { params: { id: me.userId } }), 403, 'forbidden');
        await refused(admin.call(ops.approveUser, { params: { id: 'no-such-user' } }), 404, 'not_found');
        const when = clock.now().toISOString();
        const approved = await admin.call(ops.approveUser, { params: { id: me.userId } });
        expect(approved.approvedAt).toBe(when);
        await self.call(ops.enrol, { params: { idOrSlug: a.id }, body: {} });
        clock.advance(60);
        expect((await admin.call(ops.approveUser, { params: { id: me.userId } })).approvedAt).toBe(when);
      } finally {
        await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: false, requireApproval: false } });
      }
    });
  });

  /** A submission row written straight to the database: this file tests accounts, not judging. */
  async function submitAs(userId: string) {
    const m = await party({ creator: true });
    const a = await activity(m.c);
    const [seriesId, problemId, versionId, spId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const at = T0.toISOString();
    await j.app.deps.tx.write(async (q) => {
      await q.insert(series).values({ id: seriesId, activityId: a.id, slug: `s${n}`, slugKey: `s${n}`, name: 'S', order: 1, createdAt: at });
      await q.insert(problems).values({ id: problemId, slug: `p${n}`, slugKey: `p${n}`, name: 'P', type: 'standard-io@1', createdAt: at });
      await q.insert(problemVersions).values({ id: versionId, problemId, version: 1, createdAt: at });
      await q.insert(seriesProblems).values({ id: spId, seriesId, activityId: a.id, problemId, slug: `t${n}`, slugKey: `t${n}`, order: 1, createdAt: at });
      await q.insert(submissions).values({ id: randomUUID(), activityId: a.id, seriesId, seriesProblemId: spId, problemVersionId: versionId, userId, submittedAt: at });
    });
  }
});
