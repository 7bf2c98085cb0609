import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type OperationInput, type ParticipantActivity } from '@judge/contract';
import type { ApiProblem, EventStream, Frame, JudgeClient } from '@judge/sdk';
import { and, eq } from 'drizzle-orm';
import { activities, grants, roles, users } from '../src/db/schema.js';
import { refusedWith, sendJson } from './expect.js';
import { ManualClock, TestJudge, type Party } from './harness.js';
import { tableSnapshot } from './support/db-snapshot.js';

/**
 * The participant's side of activities (decisions §9): what a signed-in user may list and read,
 * and enrolment by join policy. Every "may not" is proven by trying it: a user who is not
 * enrolled, or enrolled elsewhere, finds a closed or unpublished activity exactly as if it did
 * not exist.
 */

type CreateBody = OperationInput<typeof ops.createActivity>['body'];

const T0 = new Date('2026-11-22T08:00:00.000Z');
const DAY = 86_400_000;
const at = (days: number) => new Date(T0.getTime() + days * DAY).toISOString();
const clock = new ManualClock(new Date(T0));

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;

describe('activities: the participants side', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  /** M creates and manages; P takes part in `closed`; Q takes part in `elsewhere` only; U is signed in only. */
  let M: Party, MB: Party, P: Party, Q: Party, U: Party;
  let fx: Record<'closed' | 'open' | 'hidden' | 'password' | 'draft' | 'archived' | 'undated' | 'elsewhere', Activity>;

  const snapshot = () => tableSnapshot(j, [activities, grants]);
  async function refused(call: Promise<unknown>, status: number, code: string): Promise<ApiProblem> {
    // the call is under way already: its refusal, if it comes while the snapshot is read, is handled (refusedWith looks at it)
    call.catch(() => undefined);
    const before = await snapshot();
    const e = await refusedWith(call, status, code);
    expect(await snapshot()).toBe(before);
    return e;
  }

  async function account(prefix: string, how: 'bearer' | 'cookie' = 'bearer'): Promise<Party> {
    const u = await j.user(uniq(prefix));
    return { u, c: await j.signIn(u, how) };
  }
  const create = (c: JudgeClient, body: Partial<CreateBody>): Promise<Activity> =>
    c.call(ops.createActivity, { body: { slug: uniq('act'), name: 'Activity', type: 'course@1', rankingType: 'points', timeZone: 'UTC', ...body } });
  const list = (c: JudgeClient, query: OperationInput<typeof ops.listActivities>['query'] = {}) => c.call(ops.listActivities, { query: { search: 'vis-', ...query } });
  const names = (p: { items: ParticipantActivity[] }) => p.items.map((a) => a.name);
  const read = (c: JudgeClient, idOrSlug: string) => c.call(ops.getActivity, { params: { idOrSlug } });
  const enrol = (c: JudgeClient, idOrSlug: string, body: { password?: string } = {}) => c.call(ops.enrol, { params: { idOrSlug }, body });
  const grantsOf = (userId: string, activityId: string) =>
    j.app.deps.tx.read((q) =>
      q
        .select({ role: roles.builtInKey })
        .from(grants)
        .innerJoin(roles, eq(roles.id, grants.roleId))
        .where(and(eq(grants.userId, userId), eq(grants.activityId, activityId))),
    );

  beforeAll(async () => {
    j = await TestJudge.start({ clock });
    admin = await j.admin();
    await admin.call(ops.createRole, { body: { name: 'Creator', permissions: ['activity:create'] } });
    [M, MB, P, Q, U] = await Promise.all([account('manager'), account('manager-b'), account('participant'), account('elsewhere'), account('user')]);
    await j.grant(M.u.id, 'Creator');
    await j.grant(MB.u.id, 'Creator');
    const listedOpen = { joinPolicy: 'open', unlisted: false } as const;
    fx = {
      closed: await create(M.c, { slug: uniq('vis-closed'), name: 'Vis Closed', startDate: at(-1), endDate: at(1) }),
      open: await create(M.c, { slug: uniq('vis-open'), name: 'Vis Open', startDate: at(1), ...listedOpen }),
      hidden: await create(M.c, { slug: uniq('vis-hidden'), name: 'Vis Hidden', joinPolicy: 'open', unlisted: true }),
      password: await create(M.c, { slug: uniq('vis-password'), name: 'Vis Password', startDate: at(-2), endDate: at(-1), joinPolicy: 'password', joinPassword: 'sesame', unlisted: false }),
      draft: await create(M.c, { slug: uniq('vis-draft'), name: 'Vis Draft', startDate: at(-1), ...listedOpen }),
      archived: await create(M.c, { slug: uniq('vis-archived'), name: 'Vis Archived', ...listedOpen }),
      undated: await create(M.c, { slug: uniq('vis-undated'), name: 'Vis Undated', ...listedOpen }),
      elsewhere: await create(MB.c, { slug: uniq('vis-elsewhere'), name: 'Vis Elsewhere' }),
    };
    await M.c.call(ops.setActivityPublished, { params: { id: fx.draft.id }, body: { published: false } });
    await M.c.call(ops.setActivityArchived, { params: { idOrSlug: fx.archived.id }, body: { archived: true } });
    await j.grant(P.u.id, 'participant', fx.closed.id);
    // a member of an unpublished activity sees it no more than anyone else
    await j.grant(P.u.id, 'participant', fx.draft.id);
    await j.grant(Q.u.id, 'participant', fx.elsewhere.id);
  });
  afterAll(() => j.stop());

  // ---------------------------------------------------------------- GET /activities

  describe('GET /activities', () => {
    it('lists to a user without memberships only what is published, unarchived, listed and not closed', async () => {
      const page = await list(U.c);
      expect(names(page)).toEqual(['Vis Open', 'Vis Password', 'Vis Undated']);
      expect(page).toMatchObject({ total: 3, page: 1, pageSize: 20 });
      // an administrator manages everything but is a member of nothing: the same list
      expect(names(await list(admin))).toEqual(['Vis Open', 'Vis Password', 'Vis Undated']);
    });

    it('adds the published, unarchived activities the caller belongs to, and only those', async () => {
      expect(names(await list(P.c))).toEqual(['Vis Open', 'Vis Closed', 'Vis Password', 'Vis Undated']);
      expect(names(await list(Q.c))).toEqual(['Vis Open', 'Vis Password', 'Vis Elsewhere', 'Vis Undated']);
      // the creator is a member of every one it made: unlisted included, unpublished and archived not
      expect(names(await list(M.c))).toEqual(['Vis Open', 'Vis Closed', 'Vis Password', 'Vis Hidden', 'Vis Undated']);
    });

    it('shows each as a participant sees it: state, membership, no join password', async () => {
      const page = await list(P.c);
      const closed = page.items.find((a) => a.id === fx.closed.id)!;
      expect(closed).toEqual({
        id: fx.closed.id,
        slug: fx.closed.slug,
        name: 'Vis Closed',
        type: 'course@1',
        rankingType: 'points',
        timeZone: 'UTC',
        state: 'ongoing',
        startDate: at(-1),
        endDate: at(1),
        enrolled: true,
        canManage: false,
        joinPolicy: 'closed',
        scoreVisibility: 'everyone',
        hideEndedSeriesProblems: false,
        modules: { questions: true, printouts: false, sampleRuns: true },
        documents: [],
      });
      expect(page.items.map((a) => [a.name, a.state, a.enrolled])).toEqual([
        ['Vis Open', 'upcoming', false],
        ['Vis Closed', 'ongoing', true],
        ['Vis Password', 'finished', false],
        ['Vis Undated', 'ongoing', false],
      ]);
      expect(JSON.stringify(await list(U.c))).not.toContain('sesame');
      expect((await list(M.c)).items.every((a) => a.canManage && a.enrolled)).toBe(true);
    });

    it('filters by state at the current time, and searches slug and name', async () => {
      expect(names(await list(P.c, { state: 'upcoming' }))).toEqual(['Vis Open']);
      expect(names(await list(P.c, { state: 'ongoing' }))).toEqual(['Vis Closed', 'Vis Undated']);
      expect(names(await list(P.c, { state: 'finished' }))).toEqual(['Vis Password']);
      expect(names(await list(P.c, { state: 'finished,upcoming' }))).toEqual(['Vis Open', 'Vis Password']);
      expect(names(await list(P.c, { search: 'VIS CLOSED' }))).toEqual(['Vis Closed']);
      expect(names(await list(P.c, { search: fx.password.slug.toUpperCase() }))).toEqual(['Vis Password']);
      // at its start an activity is ongoing, at its end finished
      clock.set(new Date(at(1)));
      try {
        const late = await j.signIn(P.u); // a day on, the morning's access token has lapsed
        expect(names(await list(late, { state: 'ongoing' }))).toEqual(['Vis Open', 'Vis Undated']);
        expect(names(await list(late, { state: 'finished' }))).toEqual(['Vis Closed', 'Vis Password']);
        expect((await read(late, fx.closed.id)).state).toBe('finished');
      } finally {
        clock.set(new Date(T0));
      }
    });

    it('pages', async () => {
      const second = await list(P.c, { page: 2, pageSize: 3 });
      expect(second).toMatchObject({ total: 4, page: 2, pageSize: 3 });
      expect(names(second)).toEqual(['Vis Undated']);
      expect(await list(P.c, { pageSize: 500 })).toMatchObject({ pageSize: 200 });
    });

    it('refuses a malformed query with 422', async () => {
      for (const q of ['state=soon', 'state=upcoming,,ongoing', 'state=,', 'page=first', 'pageSize=1.5']) {
        const res = await sendJson(j.url, 'GET', `/activities?${q}`, U.c.accessToken);
        expect({ q, status: res.status, code: res.body.code }).toEqual({ q, status: 422, code: 'validation_failed' });
      }
      // an empty value is no filter (decisions §2), not a malformed one
      expect((await sendJson(j.url, 'GET', '/activities?state=', U.c.accessToken)).status).toBe(200);
    });
  });

  // ---------------------------------------------------------------- GET /activities/{idOrSlug}

  describe('GET /activities/{idOrSlug}', () => {
    it('reads a member activity by id or by slug in any case', async () => {
      const byId = await read(P.c, fx.closed.id);
      expect(await read(P.c, fx.closed.slug.toUpperCase())).toEqual(byId);
      expect(byId).toMatchObject({ id: fx.closed.id, enrolled: true, canManage: false, state: 'ongoing' });
    });

    it('is 404 for a closed activity to who is not enrolled, or enrolled elsewhere', async () => {
      for (const c of [U.c, Q.c, MB.c]) {
        await refusedWith(read(c, fx.closed.id), 404, 'not_found');
        await refusedWith(read(c, fx.closed.slug), 404, 'not_found');
      }
      await refusedWith(read(P.c, fx.elsewhere.slug), 404, 'not_found');
      await refusedWith(read(P.c, 'no-such-activity'), 404, 'not_found');
    });

    it('is 404 for an unpublished activity to everyone but its managers, members included', async () => {
      for (const c of [P.c, U.c, Q.c]) await refusedWith(read(c, fx.draft.id), 404, 'not_found');
      expect(await read(M.c, fx.draft.slug)).toMatchObject({ id: fx.draft.id, canManage: true, enrolled: true });
      expect(await read(admin, fx.draft.id)).toMatchObject({ canManage: true, enrolled: false });
    });

    it('reaches an unlisted open activity and a password one, to join them, never showing the password', async () => {
      expect(await read(U.c, fx.hidden.slug)).toMatchObject({ id: fx.hidden.id, joinPolicy: 'open', enrolled: false, canManage: false });
      const pw = await read(U.c, fx.password.id);
      expect(pw).toMatchObject({ joinPolicy: 'password', state: 'finished' });
      expect(JSON.stringify(pw)).not.toContain('sesame');
    });

    it('keeps an archived activity readable to its members and managers', async () => {
      await j.grant(P.u.id, 'participant', fx.archived.id);
      expect((await read(P.c, fx.archived.id)).archivedAt).toBeDefined();
      expect((await read(M.c, fx.archived.slug)).archivedAt).toBeDefined();
    });

    it('tells an administrator who stood down that they do not manage it there', async () => {
      const sd = await account('stood-down');
      await j.grant(sd.u.id, 'administrator');
      const participantRole = (await admin.call(ops.listRoles, { query: {} })).find((r) => r.builtInKey === 'participant')!;
      expect((await read(sd.c, fx.closed.id)).canManage).toBe(true);
      await sd.c.call(ops.createGrant, { body: { userId: sd.u.id, roleId: participantRole.id, activityId: fx.closed.id, overrideSystem: true } });
      expect(await read(sd.c, fx.closed.id)).toMatchObject({ canManage: false, enrolled: true });
      // and, having stood down, reads an unpublished one no more than any participant
      await sd.c.call(ops.createGrant, { body: { userId: sd.u.id, roleId: participantRole.id, activityId: fx.draft.id, overrideSystem: true } });
      await refusedWith(read(sd.c, fx.draft.id), 404, 'not_found');
    });
  });

  // ---------------------------------------------------------------- POST /activities/{idOrSlug}/enrolment

  describe('POST /activities/{idOrSlug}/enrolment', () => {
    it('enrols in an open activity as a participant; enrolling again changes nothing', async () => {
      const a = await create(M.c, { slug: uniq('join-open'), joinPolicy: 'open', unlisted: false });
      const x = await account('joiner');
      const joined = await enrol(x.c, a.slug);
      expect(joined).toMatchObject({ id: a.id, enrolled: true, canManage: false, joinPolicy: 'open' });
      expect(await grantsOf(x.u.id, a.id)).toEqual([{ role: 'participant' }]);
      expect(await x.c.call(ops.myPermissions, { query: { activityId: a.id } })).toContain('submission:create');
      expect((await M.c.call(ops.getManagedActivity, { params: { idOrSlug: a.id } })).participantCount).toBe(1);
      expect((await list(x.c, { search: a.slug })).items[0]!.enrolled).toBe(true);

      const before = await snapshot();
      expect(await enrol(x.c, a.id, { password: 'ignored' })).toEqual(joined);
      expect(await snapshot()).toBe(before);
    });

    it('leaves a manager who enrols a manager', async () => {
      const a = await create(M.c, { joinPolicy: 'open', unlisted: false });
      const before = await snapshot();
      expect(await enrol(M.c, a.id)).toMatchObject({ enrolled: true, canManage: true });
      expect(await snapshot()).toBe(before);
      expect(await grantsOf(M.u.id, a.id)).toEqual([{ role: 'manager' }]);
    });

    it('joins an unlisted open activity by its slug', async () => {
      const x = await account('hidden-joiner');
      expect((await enrol(x.c, fx.hidden.slug)).enrolled).toBe(true);
      expect(names(await list(x.c))).toContain('Vis Hidden');
    });

    it('takes the password of a password activity, and refuses a missing or wrong one (403 enrolment.password)', async () => {
      const x = await account('pw-joiner');
      await refused(enrol(x.c, fx.password.id), 403, 'enrolment.password');
      await refused(enrol(x.c, fx.password.id, { password: 'sesamE' }), 403, 'enrolment.password');
      await refused(enrol(x.c, fx.password.id, { password: 'sesame ' }), 403, 'enrolment.password');
      await refused(enrol(x.c, fx.password.id, { password: '' }), 403, 'enrolment.password');
      expect(await enrol(x.c, fx.password.slug, { password: 'sesame' })).toMatchObject({ id: fx.password.id, enrolled: true });
      expect(await grantsOf(x.u.id, fx.password.id)).toEqual([{ role: 'participant' }]);
    });

    it('refuses a closed activity (403 enrolment.closed) to who sees it, and hides it (404) from who does not', async () => {
      const outsider = await account('outsider');
      await refused(enrol(admin, fx.closed.id), 403, 'enrolment.closed');
      await refused(enrol(outsider.c, fx.closed.id), 404, 'not_found');
      await refused(enrol(Q.c, fx.closed.slug), 404, 'not_found');
    });

    it('hides an unpublished activity (404), even from its members', async () => {
      const x = await account('draft-joiner');
      await refused(enrol(x.c, fx.draft.id), 404, 'not_found');
      await refused(enrol(x.c, 'no-such-activity'), 404, 'not_found');
    });

    it('refuses an archived activity (409 activity.archived)', async () => {
      const x = await account('late-joiner');
      await refused(enrol(x.c, fx.archived.slug), 409, 'activity.archived');
    });

    it('refuses an account awaiting approval (403 account.notApproved) until it is approved', async () => {
      const a = await create(M.c, { joinPolicy: 'open', unlisted: false });
      const x = await account('unapproved');
      await j.app.deps.tx.write((q) => q.update(users).set({ approvedAt: null }).where(eq(users.id, x.u.id)));
      await refused(enrol(x.c, a.id), 403, 'account.notApproved');
      // approval has no endpoint yet (self-registration brings it): the column it sets, set directly
      await j.app.deps.tx.write((q) => q.update(users).set({ approvedAt: T0.toISOString() }).where(eq(users.id, x.u.id)));
      expect((await enrol(x.c, a.id)).enrolled).toBe(true);
    });

    it('refuses malformed bodies', async () => {
      const x = await account('malformed');
      for (const body of [{ password: 5 }, { password: 'x'.repeat(129) }, '{"password": ']) {
        const before = await snapshot();
        const res = await sendJson(j.url, 'POST', `/activities/${fx.open.id}/enrolment`, x.c.accessToken, body);
        expect(res.status).toBe(typeof body === 'string' ? 400 : 422);
        expect(await snapshot()).toBe(before);
      }
    });

    it('tells the new participant of the grant and the managers of the count, nobody else', async () => {
      const a = await create(M.c, { joinPolicy: 'open', unlisted: false });
      const [m, x, y] = [await j.signIn(M.u, 'cookie'), await account('ev-joiner', 'cookie'), await account('ev-bystander', 'cookie')];
      const streams: EventStream[] = [m.events(), x.c.events(), y.c.events()];
      await Promise.all(streams.map((s) => s.opened));
      let barriers = 0;
      const settle = async (): Promise<Frame[][]> => {
        const name = `Barrier ${++barriers}`;
        await admin.call(ops.updateInstance, { body: { name } });
        const out: Frame[][] = [];
        for (const s of streams) {
          await s.next('instanceChanged', 5000);
          out.push(s.frames.splice(0).filter((f) => f.type !== 'ping'));
        }
        return out;
      };
      try {
        await settle();
        await enrol(x.c, a.id);
        const [toManager, toJoiner, toBystander] = await settle();
        expect(toManager!.map((f) => f.type).sort()).toEqual(['activityChanged', 'grantChanged']);
        expect((toManager!.find((f) => f.type === 'activityChanged')!.data as { activity: Activity }).activity).toMatchObject({ id: a.id, participantCount: 1 });
        expect(toJoiner!.map((f) => f.type)).toEqual(['grantChanged']);
        expect(toJoiner![0]!.data).toMatchObject({ grant: { userId: x.u.id, activityId: a.id, roleName: 'Participant' } });
        expect(toBystander).toEqual([]);
      } finally {
        streams.forEach((s) => s.close());
      }
    });
  });
});
