import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { refusedWith, sendJson } from './expect.js';
import { ManualClock } from './harness.js';
import { T0, at, type Party } from './series-fixtures.js';
import { Fixture, cell, rowOf } from './support/ranking.js';

/**
 * The public view of the ranking (RankingQuery.view=public): what a participant sees, asked for
 * by staff whose own view sees through the freeze, for a projector in the room. Computed by the
 * server as for a participant, so nothing the freeze hides reaches the browser that shows it.
 */

describe('the ranking: view=public', () => {
  const clock = new ManualClock(new Date(T0));
  let f: Fixture;
  let M: Party;
  let ann: Party, bob: Party;

  beforeAll(async () => {
    f = await Fixture.start(clock);
    M = f.M;
    ann = await f.person('ann', { firstName: 'Ann', lastName: 'Lee' });
    bob = await f.person('bob', { firstName: 'Bob', lastName: 'Stone' });
  });
  afterAll(() => f?.j.stop());
  beforeEach(() => clock.set(new Date(T0)));

  // (every instant here lies within the hour the bearer tokens of beforeAll live)
  it("gives a manager during the freeze exactly the participants' frozen standings: frozen cells carry no result, rows no username", async () => {
    const a = await f.activity([ann, bob]);
    const s = await f.series(a, { startDate: at(0), rankingFreezeAt: at(30), rankingRevealAt: at(55) });
    const [A, B] = [await f.task(s), await f.task(s)];
    await f.submit(a, A, ann, { minutes: 10, verdict: 'AC' });
    await f.submit(a, B, ann, { minutes: 35, verdict: 'AC' });
    await f.submit(a, A, bob, { minutes: 40, verdict: 'WA' });
    await f.submit(a, A, bob, { minutes: 41, verdict: 'AC' });
    clock.set(new Date(at(45)));

    const staff = await f.ranking(M, a);
    expect(staff.frozen).toBe(false);
    expect(rowOf(staff, ann)).toMatchObject({ solved: 2, username: ann.u.username });
    expect(rowOf(staff, bob)!.cells[0]).toEqual(cell(A, { attempts: 2, solved: true, penalty: 61, solvedAt: at(41) }));

    const projected = await f.ranking(M, a, undefined, 'public');
    expect(projected).toEqual(await f.ranking(ann, a));
    expect(projected.frozen).toBe(true);
    expect(rowOf(projected, bob)!.cells[0]).toEqual(cell(A, { frozen: 2 }));
    expect(rowOf(projected, ann)!.cells[1]).toEqual(cell(B, { frozen: 1 }));
    expect(projected.rows.map((r) => r.username)).toEqual([undefined, undefined]);
    // nothing of the hidden results is in the answer's text at all
    const raw = await sendJson(f.j.url, 'GET', `/activities/${a.slug}/ranking?view=public`, M.c.accessToken);
    expect(raw.status).toBe(200);
    expect(raw.text).not.toContain(at(41));
    expect(raw.text).not.toContain(at(35));
    expect(raw.text).not.toContain(ann.u.username);

    // own is the default; asked by name it is the caller's view
    expect(await f.ranking(M, a, undefined, 'own')).toEqual(staff);
    // after the reveal the public view is the full one, still without usernames
    clock.set(new Date(at(55)));
    const revealed = await f.ranking(M, a, undefined, 'public');
    expect(revealed.frozen).toBe(false);
    expect(rowOf(revealed, bob)!.cells[0]).toEqual(cell(A, { attempts: 2, solved: true, penalty: 61, solvedAt: at(41) }));
  });

  it('follows the ranking window and scoreVisibility as a participant would get them', async () => {
    const windowed = await f.activity([ann, bob]);
    const s = await f.series(windowed, { startDate: at(0), rankingVisibleFrom: at(30) });
    await f.task(s);
    clock.set(new Date(at(10)));
    expect((await f.ranking(M, windowed)).problems).toHaveLength(1);
    expect((await f.ranking(M, windowed, undefined, 'public')).problems).toEqual([]);

    const hidden = await f.activity([ann, bob], { scoreVisibility: 'managersOnly' });
    await f.task(await f.series(hidden));
    expect((await f.ranking(M, hidden)).rows).toHaveLength(2);
    expect((await f.ranking(M, hidden, undefined, 'public')).rows).toEqual([]);
  });

  it('a participant asking for it gets what they get anyway; it needs ranking:read; a view not known is 422', async () => {
    const a = await f.activity([ann]);
    await f.task(await f.series(a));
    expect(await f.ranking(ann, a, undefined, 'public')).toEqual(await f.ranking(ann, a));
    await f.w.admin.call(ops.createRole, { body: { name: 'Onlooker', permissions: ['activity:read'] } });
    const onlooker = await f.person('onlooker');
    await f.j.grant(onlooker.u.id, 'Onlooker', a.id);
    await refusedWith(onlooker.c.call(ops.getRanking, { params: { idOrSlug: a.slug }, query: { view: 'public' } }), 403, 'forbidden');
    const bad = await sendJson(f.j.url, 'GET', `/activities/${a.slug}/ranking?view=everything`, M.c.accessToken);
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 422, code: 'validation_failed' });
    expect(bad.body.errors).toHaveProperty('view');
  });
});
