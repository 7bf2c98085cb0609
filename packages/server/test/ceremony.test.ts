import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ceremony as CeremonySchema, ops, type Activity, type Ceremony, type CeremonyRow } from '@judge/contract';
import type { EventStream } from '@judge/sdk';
import { refusedWith, sendJson } from './expect.js';
import { ManualClock } from './harness.js';
import { T0, at, type Party } from './series-fixtures.js';
import { Fixture, type Task } from './support/ranking.js';
import { barrier, open, types } from './support/socket.js';

/**
 * The award ceremony over real HTTP (decisions §26): one staff-only payload whose steps take the
 * frozen standings to exactly the final ones, pausing on award holders, and the presenter's step
 * kept and sent to the screens that follow.
 */

/** What a screen does with the steps: the row at `at` is replaced and moved to `to`. */
function replay(c: Ceremony, n = c.steps.length): CeremonyRow[] {
  const rows = [...c.rows];
  for (const s of c.steps.slice(0, n)) {
    if (s.kind !== 'reveal') continue;
    rows.splice(s.at, 1);
    rows.splice(s.to, 0, s.row);
  }
  return rows;
}

describe('the award ceremony', () => {
  const clock = new ManualClock(new Date(T0));
  let f: Fixture;
  let host: Party, ann: Party, bob: Party, cid: Party;
  let a: Activity;
  let A: Task, B: Task;
  const get = (p: Party) => p.c.call(ops.getCeremony, { params: { idOrSlug: a.slug } });

  beforeAll(async () => {
    f = await Fixture.start(clock);
    host = await f.person('host', {}, 'cookie');
    ann = await f.person('ann', { firstName: 'Ann' }, 'cookie');
    bob = await f.person('bob', { firstName: 'Bob' });
    cid = await f.person('cid', { firstName: 'Cid' });
    a = await f.activity([ann, bob, cid], { startDate: at(0), endDate: at(50) });
    await f.j.grant(host.u.id, 'manager', a.id);
    const s = await f.series(a, { startDate: at(0), endDate: at(50), rankingFreezeAt: at(15), rankingRevealAt: at(600) });
    [A, B] = [await f.task(s), await f.task(s)];
    await f.submit(a, A, ann, { minutes: 5, verdict: 'AC' });
    await f.submit(a, A, bob, { minutes: 10, verdict: 'WA' });
    // hidden by the freeze: bob and cid overtake ann
    await f.submit(a, A, bob, { minutes: 20, verdict: 'AC' });
    await f.submit(a, B, bob, { minutes: 30, verdict: 'AC' });
    await f.submit(a, B, cid, { minutes: 25, verdict: 'AC' });
    await f.submit(a, A, cid, { minutes: 27, verdict: 'WA' });
    await f.submit(a, A, cid, { minutes: 28, verdict: 'AC' });
    // (within the hour the bearer tokens of beforeAll live)
    clock.set(new Date(at(55)));
  });
  afterAll(() => f?.j.stop());

  it('starts from the frozen standings and its steps reach exactly the final ones', async () => {
    const c = CeremonySchema.strict().parse(await get(host));
    expect(c.rows.map((r) => r.userId)).toEqual([ann.u.id, bob.u.id, cid.u.id]);
    expect(c.rows[2]!.cells.map((x) => x.frozen)).toEqual([2, 1]);
    // the lowest row first, its leftmost hidden cell first
    expect(c.steps[0]).toMatchObject({ kind: 'reveal', at: 2, userId: cid.u.id, problemId: A.id });
    const final = await f.ranking(f.M, a);
    const replayed = replay(c);
    expect(replayed.map((r) => r.userId)).toEqual(final.rows.map((r) => r.userId));
    replayed.forEach((r, i) => expect(r.cells).toEqual(final.rows[i]!.cells));
    expect(c.step).toBe(0);
    expect(c.finalized).toBe(false);
  });

  it('after finalisation pauses on each finished row that holds an award', async () => {
    await host.c.call(ops.finalizeActivity, { params: { idOrSlug: a.slug } });
    const c = await get(host);
    expect(c.finalized).toBe(true);
    const pauses = c.steps.filter((s) => s.kind === 'award');
    expect(pauses.length).toBeGreaterThan(0);
    const winner = c.awards.find((w) => w.key === 'winner')!;
    // the last step is the winner's pause, on the top row
    expect(c.steps.at(-1)).toMatchObject({ kind: 'award', at: 0, userId: winner.userIds[0] });
    expect((c.steps.at(-1) as { awards: string[] }).awards).toContain('winner');
    // every pause comes after that row's last reveal
    for (const p of pauses) {
      const i = c.steps.indexOf(p);
      expect(c.steps.slice(i + 1).some((s) => s.kind === 'reveal' && s.userId === p.userId)).toBe(false);
    }
  });

  it('is for those who see through the freeze only', async () => {
    await refusedWith(get(ann), 403, 'forbidden');
    const anonymous = await sendJson(f.j.url, 'GET', `/activities/${a.slug}/ceremony`, undefined);
    expect(anonymous.status).toBe(401);
    await refusedWith(host.c.call(ops.getCeremony, { params: { idOrSlug: 'no-such-activity' } }), 404, 'not_found');
  });

  it("keeps the presenter's step and sends it to staff screens only", async () => {
    let staff: EventStream | undefined, participant: EventStream | undefined;
    try {
      [staff, participant] = [await open(host.c), await open(ann.c)];
      expect(await host.c.call(ops.setCeremonyStep, { params: { idOrSlug: a.slug }, body: { step: 3 } })).toEqual({ step: 3 });
      const f1 = await staff.next('ceremonyStepChanged', 5000);
      expect(f1.data).toEqual({ activityId: a.id, step: 3 });
      const [, toParticipant] = await barrier(f.w.admin, [staff, participant]);
      expect(types(toParticipant!)).not.toContain('ceremonyStepChanged');
      expect((await get(host)).step).toBe(3);

      // refused: a participant, a bad step; the step stays
      await refusedWith(ann.c.call(ops.setCeremonyStep, { params: { idOrSlug: a.slug }, body: { step: 1 } }), 403, 'forbidden');
      for (const body of [{ step: -1 }, { step: 1.5 }, { step: 'next' }, {}]) {
        const r = await sendJson(f.j.url, 'PUT', `/activities/${a.slug}/ceremony/step`, f.M.c.accessToken, body);
        expect(r.status).toBe(422);
      }
      expect((await get(host)).step).toBe(3);
    } finally {
      staff?.close();
      participant?.close();
    }
  });
});
