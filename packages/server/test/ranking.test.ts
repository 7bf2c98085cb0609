import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ops, type Ranking } from '@judge/contract';
import { refusedWith, sendJson } from './expect.js';
import { ManualClock } from './harness.js';
import { T0, UNKNOWN_UUID, at, type Party } from './series-fixtures.js';
import { Fixture, cell, problem, rowOf } from './support/ranking.js';

/**
 * The ranking over real HTTP: its rows, cells and order for each ranking type. Fixtures in
 * support/ranking.ts.
 */

describe('the ranking', () => {
  const clock = new ManualClock(new Date(T0));
  let f: Fixture;
  let M: Party;
  /** Five participants; the names decide the display order among tied rows. */
  let ann: Party, bob: Party, cid: Party, dee: Party, eve: Party;
  let everyone: Party[];
  /** Signed in, member of nothing. */
  let U: Party;

  beforeAll(async () => {
    f = await Fixture.start(clock);
    M = f.M;
    ann = await f.person('ann', { firstName: 'Ann', lastName: 'Lee' });
    bob = await f.person('bob', { firstName: 'Bob', lastName: 'Stone' });
    cid = await f.person('cid'); // no name: the login is shown
    dee = await f.person('dee', { firstName: ' Dee ', lastName: 'Park' });
    eve = await f.person('eve', { firstName: 'Eve', lastName: 'Adams' });
    everyone = [ann, bob, cid, dee, eve];
    U = await f.person('outsider');
  });
  afterAll(() => f?.j.stop());
  beforeEach(() => clock.set(new Date(T0)));

  it('icpc: penalties with the 20-minute rule, CE and JE free, ties sharing a rank, order by the last accepted time', async () => {
    const a = await f.activity(everyone);
    const s = await f.series(a, { startDate: at(0) });
    const [A, B, C] = [await f.task(s), await f.task(s), await f.task(s)];
    // Ann: A at 25.5 min after a WA (25 + 20); B at 30 after a CE (free); C only wrong. 2 solved, 75, last at 30.
    await f.submit(a, A, ann, { minutes: 10, verdict: 'WA', score: 0, maxScore: 1 });
    await f.submit(a, A, ann, { minutes: 25.5, verdict: 'AC', score: 1, maxScore: 1 });
    await f.submit(a, B, ann, { minutes: 5, verdict: 'CE' });
    await f.submit(a, B, ann, { minutes: 30, verdict: 'AC' });
    await f.submit(a, C, ann, { minutes: 40, verdict: 'WA' });
    // Bob: A at 15 (a later WA is ignored), B at 60 by full score without a verdict. 2 solved, 75, last at 60.
    await f.submit(a, A, bob, { minutes: 15, verdict: 'AC' });
    await f.submit(a, A, bob, { minutes: 16, verdict: 'WA' });
    await f.submit(a, B, bob, { minutes: 60, score: 100, maxScore: 100 });
    // Cid and Dee: A at 50, nothing else that counts: the same place
    await f.submit(a, A, cid, { minutes: 50, verdict: 'AC' });
    await f.submit(a, A, dee, { minutes: 40, verdict: 'JE' });
    await f.submit(a, A, dee, { minutes: 50, verdict: 'AC' });
    await f.submit(a, B, dee, { minutes: 55, state: 'queued' });
    await f.submit(a, C, dee, { minutes: 1, verdict: 'AC', excluded: true });
    await f.submit(a, C, dee, { minutes: 2, state: 'failed' });
    await f.submit(a, C, dee, { minutes: 3, state: 'cancelled', verdict: 'AC' });
    // the manager's own tests are in nobody's row
    await f.submit(a, A, M, { minutes: 1, verdict: 'AC' });

    const expected: Ranking = {
      rankingType: 'icpc',
      frozen: false,
      problems: [problem(A), problem(B), problem(C)],
      rows: [
        {
          rank: 1,
          userId: ann.u.id,
          userName: 'Ann Lee',
          solved: 2,
          penalty: 75,
          cells: [cell(A, { attempts: 2, solved: true, penalty: 45, solvedAt: at(25.5) }), cell(B, { attempts: 1, solved: true, penalty: 30, solvedAt: at(30) }), cell(C, { attempts: 1 })],
        },
        {
          rank: 2,
          userId: bob.u.id,
          userName: 'Bob Stone',
          solved: 2,
          penalty: 75,
          cells: [cell(A, { attempts: 1, solved: true, penalty: 15, solvedAt: at(15) }), cell(B, { attempts: 1, solved: true, penalty: 60, solvedAt: at(60) }), cell(C)],
        },
        { rank: 3, userId: cid.u.id, userName: cid.u.username, solved: 1, penalty: 50, cells: [cell(A, { attempts: 1, solved: true, penalty: 50, solvedAt: at(50) }), cell(B), cell(C)] },
        {
          rank: 3,
          userId: dee.u.id,
          userName: 'Dee Park',
          solved: 1,
          penalty: 50,
          cells: [cell(A, { attempts: 1, solved: true, penalty: 50, solvedAt: at(50) }), cell(B, { pending: 1 }), cell(C)],
        },
        { rank: 5, userId: eve.u.id, userName: 'Eve Adams', solved: 0, penalty: 0, cells: [cell(A), cell(B), cell(C)] },
      ],
    };
    // staff read each participant's login beside the name; participants do not
    const login = new Map(everyone.map((p) => [p.u.id, p.u.username]));
    const forStaff = { ...expected, rows: expected.rows.map((r) => ({ ...r, username: login.get(r.userId) })) };
    expect(await f.ranking(M, a)).toEqual(forStaff);
    expect(await f.ranking(ann, a)).toEqual(expected);
    expect(await f.ranking(M, a, s.id)).toEqual(forStaff);
  });

  it('icpc: penalty minutes count from the activity start, else from when the series opened; practice series only on their own', async () => {
    const a = await f.activity([ann, bob], { startDate: at(-60) });
    const s = await f.series(a);
    const A = await f.task(s);
    const practice = await f.series(a, { importanceScope: 'none' });
    const P = await f.task(practice);
    await f.submit(a, A, ann, { minutes: 10, verdict: 'AC' }); // 70 minutes after the activity's start
    await f.submit(a, P, bob, { minutes: 5, verdict: 'AC' });

    const r = await f.ranking(bob, a);
    expect(r.problems).toEqual([problem(A)]);
    expect(r.rows.map((x) => [x.rank, x.userName, x.solved, x.penalty])).toEqual([
      [1, 'Ann Lee', 1, 70],
      [2, 'Bob Stone', 0, 0],
    ]);

    const own = await f.ranking(bob, a, practice.id);
    expect(own.problems).toEqual([problem(P)]);
    expect(own.rows.map((x) => [x.rank, x.userName, x.solved, x.penalty])).toEqual([
      [1, 'Bob Stone', 1, 65],
      [2, 'Ann Lee', 0, 0],
    ]);

    // without any start date, minutes count from when the series opened (it opened when created, at T0)
    const b = await f.activity([ann]);
    const open = await f.series(b);
    const Q = await f.task(open);
    await f.submit(b, Q, ann, { minutes: 12.9, verdict: 'AC' });
    expect(rowOf(await f.ranking(ann, b), ann)).toMatchObject({ solved: 1, penalty: 12 });
  });

  it('points: best outcome per problem rescaled to maxPoints, weighted by importance; practice only on its own', async () => {
    const a = await f.activity(everyone, { rankingType: 'points' });
    const w1 = await f.series(a, { startDate: at(0) });
    const P1 = await f.task(w1, 100);
    const P2 = await f.task(w1); // no maxPoints: the runner's own score
    const w2 = await f.series(a, { startDate: at(0), importance: 2 });
    const P3 = await f.task(w2, 10);
    const practice = await f.series(a, { importanceScope: 'none' });
    const P4 = await f.task(practice);

    // Ann: 80 + 7 + round(7.5) × 2 = 103
    await f.submit(a, P1, ann, { minutes: 1, verdict: 'WA', score: 50, maxScore: 100 });
    await f.submit(a, P1, ann, { minutes: 2, verdict: 'WA', score: 80, maxScore: 100 });
    await f.submit(a, P1, ann, { minutes: 3, verdict: 'WA', score: 30, maxScore: 100 });
    await f.submit(a, P2, ann, { minutes: 4, verdict: 'WA', score: 7, maxScore: 10 });
    await f.submit(a, P3, ann, { minutes: 5, verdict: 'WA', score: 3, maxScore: 4 });
    // Bob: 100 + round(6.67) × 2 = 114, one still judging, practice not counted
    await f.submit(a, P1, bob, { minutes: 6, verdict: 'AC', score: 1, maxScore: 1 });
    await f.submit(a, P2, bob, { minutes: 7, state: 'queued' });
    await f.submit(a, P3, bob, { minutes: 8, verdict: 'WA', score: 2, maxScore: 3 });
    await f.submit(a, P4, bob, { minutes: 9, verdict: 'AC', score: 1, maxScore: 1 });
    // Cid: 100 + 3 = 103 (a CE is an attempt worth nothing)
    await f.submit(a, P1, cid, { minutes: 9, verdict: 'AC', score: 100, maxScore: 100 });
    await f.submit(a, P2, cid, { minutes: 10, verdict: 'CE' });
    await f.submit(a, P2, cid, { minutes: 11, verdict: 'WA', score: 3, maxScore: 10 });
    // Dee: excluded, so nothing
    await f.submit(a, P1, dee, { minutes: 12, verdict: 'AC', score: 100, maxScore: 100, excluded: true });

    expect(await f.ranking(ann, a)).toEqual({
      rankingType: 'points',
      frozen: false,
      problems: [problem(P1, 100), problem(P2), problem(P3, 10)],
      rows: [
        {
          rank: 1,
          userId: bob.u.id,
          userName: 'Bob Stone',
          solved: 1,
          points: 114,
          cells: [cell(P1, { attempts: 1, solved: true, points: 100, solvedAt: at(6) }), cell(P2, { pending: 1 }), cell(P3, { attempts: 1, points: 7 })],
        },
        {
          rank: 2,
          userId: ann.u.id,
          userName: 'Ann Lee',
          solved: 0,
          points: 103,
          cells: [cell(P1, { attempts: 3, points: 80 }), cell(P2, { attempts: 1, points: 7 }), cell(P3, { attempts: 1, points: 8 })],
        },
        {
          rank: 2,
          userId: cid.u.id,
          userName: cid.u.username,
          solved: 1,
          points: 103,
          cells: [cell(P1, { attempts: 1, solved: true, points: 100, solvedAt: at(9) }), cell(P2, { attempts: 2, points: 3 }), cell(P3)],
        },
        { rank: 4, userId: dee.u.id, userName: 'Dee Park', solved: 0, points: 0, cells: [cell(P1), cell(P2), cell(P3)] },
        { rank: 4, userId: eve.u.id, userName: 'Eve Adams', solved: 0, points: 0, cells: [cell(P1), cell(P2), cell(P3)] },
      ],
    });

    // a series on its own is not weighed: Ann 8, Bob 7
    const second = await f.ranking(ann, a, w2.id);
    expect(second.problems).toEqual([problem(P3, 10)]);
    expect(second.rows.map((x) => [x.rank, x.userName, x.points])).toEqual([
      [1, 'Ann Lee', 8],
      [2, 'Bob Stone', 7],
      [3, cid.u.username, 0],
      [3, 'Dee Park', 0],
      [3, 'Eve Adams', 0],
    ]);
    const own = await f.ranking(ann, a, practice.id);
    expect(own.problems).toEqual([problem(P4)]);
    expect(own.rows.map((x) => [x.rank, x.userName, x.solved, x.points])[0]).toEqual([1, 'Bob Stone', 1, 1]);
  });

  it('freeze: participants see results made before rankingFreezeAt only, until rankingRevealAt; managers see through it', async () => {
    // (every instant here lies within the hour the bearer tokens of beforeAll live)
    const a = await f.activity(everyone);
    const s = await f.series(a, { startDate: at(0), rankingFreezeAt: at(30), rankingRevealAt: at(50) });
    const [A, B, C] = [await f.task(s), await f.task(s), await f.task(s)];
    await f.submit(a, A, ann, { minutes: 10, verdict: 'AC' });
    await f.submit(a, B, ann, { minutes: 20, verdict: 'WA' });
    await f.submit(a, B, ann, { minutes: 35, verdict: 'AC' });
    await f.submit(a, C, ann, { minutes: 38, state: 'queued' });
    await f.submit(a, A, bob, { minutes: 30, verdict: 'AC' });
    clock.set(new Date(at(40)));

    const frozen = await f.ranking(bob, a);
    expect(frozen.frozen).toBe(true);
    expect(frozen.rows.map((x) => [x.rank, x.userName, x.solved, x.penalty])).toEqual([
      [1, 'Ann Lee', 1, 10],
      [2, 'Bob Stone', 0, 0],
      [2, cid.u.username, 0, 0],
      [2, 'Dee Park', 0, 0],
      [2, 'Eve Adams', 0, 0],
    ]);
    expect(rowOf(frozen, ann)!.cells).toEqual([cell(A, { attempts: 1, solved: true, penalty: 10, solvedAt: at(10) }), cell(B, { attempts: 1, frozen: 1 }), cell(C, { frozen: 1 })]);
    expect(rowOf(frozen, bob)!.cells).toEqual([cell(A, { frozen: 1 }), cell(B), cell(C)]);

    const seen = await f.ranking(M, a);
    expect(seen.frozen).toBe(false);
    expect(seen.rows.slice(0, 2).map((x) => [x.rank, x.userName, x.solved, x.penalty])).toEqual([
      [1, 'Ann Lee', 2, 65],
      [2, 'Bob Stone', 1, 30],
    ]);
    expect(rowOf(seen, ann)!.cells).toEqual([
      cell(A, { attempts: 1, solved: true, penalty: 10, solvedAt: at(10) }),
      cell(B, { attempts: 2, solved: true, penalty: 55, solvedAt: at(35) }),
      cell(C, { pending: 1 }),
    ]);

    // a minute before the reveal nothing changed; at the reveal everyone sees what the managers saw
    clock.set(new Date(at(49.99)));
    expect((await f.ranking(bob, a)).frozen).toBe(true);
    clock.set(new Date(at(50)));
    const managers = await f.ranking(M, a);
    expect(await f.ranking(bob, a)).toEqual({ ...managers, rows: managers.rows.map(({ username: _, ...r }) => r) });
  });

  it('window: a series counts from rankingVisibleFrom (else its start) until rankingVisibleTo, except to managers', async () => {
    const a = await f.activity([ann, bob]);
    const windowed = await f.series(a, { startDate: at(0), rankingVisibleFrom: at(30), rankingVisibleTo: at(55) });
    const A = await f.task(windowed);
    const later = await f.series(a, { startDate: at(20) });
    const B = await f.task(later);
    const always = await f.series(a);
    const C = await f.task(always);
    await f.submit(a, A, ann, { minutes: 10, verdict: 'AC' });
    await f.submit(a, C, bob, { minutes: 11, verdict: 'AC' });

    clock.set(new Date(at(10)));
    let r = await f.ranking(ann, a);
    expect(r.problems).toEqual([problem(C)]);
    expect(r.rows.map((x) => [x.rank, x.userName, x.solved])).toEqual([
      [1, 'Bob Stone', 1],
      [2, 'Ann Lee', 0],
    ]);
    expect((await f.ranking(M, a)).problems).toEqual([problem(A), problem(B), problem(C)]);

    clock.set(new Date(at(20)));
    expect((await f.ranking(ann, a)).problems).toEqual([problem(B), problem(C)]);
    clock.set(new Date(at(30)));
    r = await f.ranking(ann, a);
    expect(r.problems).toEqual([problem(A), problem(B), problem(C)]);
    expect(r.rows.map((x) => [x.rank, x.userName, x.solved])).toEqual([
      [1, 'Ann Lee', 1],
      [2, 'Bob Stone', 1],
    ]);
    clock.set(new Date(at(55)));
    expect((await f.ranking(ann, a)).problems).toEqual([problem(B), problem(C)]);
    // asked for on its own, a series outside its window shows nothing to participants
    const own = await f.ranking(ann, a, windowed.id);
    expect(own.problems).toEqual([]);
    expect(own.rows.map((x) => x.cells)).toEqual([[], []]);
  });

  it('scoreVisibility: managersOnly shows no rows to participants; participantOnly shows each their own, ranked among everyone', async () => {
    const hidden = await f.activity([ann, bob], { scoreVisibility: 'managersOnly' });
    const s1 = await f.series(hidden);
    const A = await f.task(s1);
    await f.submit(hidden, A, ann, { minutes: 5, verdict: 'AC' });
    const toAnn = await f.ranking(ann, hidden);
    expect(toAnn.problems).toEqual([problem(A)]);
    expect(toAnn.rows).toEqual([]);
    expect((await f.ranking(M, hidden)).rows.map((x) => x.userName)).toEqual(['Ann Lee', 'Bob Stone']);

    const own = await f.activity([ann, bob, cid], { scoreVisibility: 'participantOnly' });
    const s2 = await f.series(own);
    const B = await f.task(s2);
    await f.submit(own, B, bob, { minutes: 5, verdict: 'AC' });
    await f.submit(own, B, ann, { minutes: 6, verdict: 'WA' });
    expect((await f.ranking(ann, own)).rows).toEqual([{ rank: 2, userId: ann.u.id, userName: 'Ann Lee', solved: 0, penalty: 0, cells: [cell(B, { attempts: 1 })] }]);
    expect((await f.ranking(bob, own)).rows.map((x) => [x.rank, x.userName])).toEqual([[1, 'Bob Stone']]);
    expect((await f.ranking(M, own)).rows.map((x) => [x.rank, x.userName])).toEqual([
      [1, 'Bob Stone'],
      [2, 'Ann Lee'],
      [2, cid.u.username],
    ]);
  });

  it('is kept incrementally: a reported change shows at once, structure changes need no report', async () => {
    const a = await f.activity([ann, bob], { rankingType: 'points' });
    const s = await f.series(a);
    const A = await f.task(s, 10);
    const B = await f.task(s);
    expect(rowOf(await f.ranking(ann, a), ann)).toMatchObject({ rank: 1, points: 0 });

    const id = await f.submit(a, A, ann, { minutes: 1, state: 'queued' });
    expect(rowOf(await f.ranking(ann, a), ann)!.cells[0]).toEqual(cell(A, { pending: 1 }));
    await f.change(a, A, ann, id, { state: 'running' });
    expect(rowOf(await f.ranking(ann, a), ann)!.cells[0]).toEqual(cell(A, { pending: 1 }));
    await f.change(a, A, ann, id, { state: 'completed', verdict: 'WA', score: 1, maxScore: 2 });
    let r = await f.ranking(ann, a);
    expect(r.rows.map((x) => [x.rank, x.userName, x.points])).toEqual([
      [1, 'Ann Lee', 5],
      [2, 'Bob Stone', 0],
    ]);
    // a rejudge that lost the result, then an exclusion
    await f.change(a, A, ann, id, { state: 'failed' });
    expect(rowOf(await f.ranking(ann, a), ann)!.points).toBe(0);
    await f.change(a, A, ann, id, { state: 'completed', verdict: 'AC', score: 2, maxScore: 2 });
    expect(rowOf(await f.ranking(ann, a), ann)).toMatchObject({ solved: 1, points: 10 });
    await f.change(a, A, ann, id, { excluded: true });
    expect(rowOf(await f.ranking(ann, a), ann)).toMatchObject({ solved: 0, points: 0 });

    // what is not reported is not seen: the submissions are held in memory, not read per request
    await f.submit(a, B, bob, { minutes: 2, verdict: 'AC', score: 4, maxScore: 4 }, false);
    expect(rowOf(await f.ranking(ann, a), bob)!.points).toBe(0);
    f.j.app.services.ranking.invalidate();
    expect(rowOf(await f.ranking(ann, a), bob)!.points).toBe(4);

    // maxPoints, importance, names and membership are read with every request
    await f.M.c.call(ops.updateAssignment, { params: { assignmentId: B.id }, body: { problemId: B.problemId, slug: B.slug, maxPoints: 50 } });
    await f.M.c.call(ops.updateSeries, { params: { seriesId: s.id }, body: { importance: 3 } });
    await f.j.grant(cid.u.id, 'participant', a.id);
    r = await f.ranking(ann, a);
    expect(r.problems).toEqual([problem(A, 10), problem(B, 50)]);
    expect(r.rows.map((x) => [x.rank, x.userName, x.points])).toEqual([
      [1, 'Bob Stone', 150],
      [2, 'Ann Lee', 0],
      [2, cid.u.username, 0],
    ]);
  });

  it('orders submissions made in the same millisecond by id, when loading as when updating', async () => {
    const a = await f.activity([ann, bob]);
    const s = await f.series(a, { startDate: at(0) });
    const A = await f.task(s);
    // stored wrong answer first, but the accepted one has the smaller id: it came first, so no penalty
    const first = '00000000-0000-7000-8000-000000000001';
    const second = '00000000-0000-7000-8000-000000000002';
    await f.submit(a, A, ann, { minutes: 7, verdict: 'WA' }, false, second);
    await f.submit(a, A, ann, { minutes: 7, verdict: 'AC' }, false, first);
    expect(rowOf(await f.ranking(ann, a), ann)!.cells).toEqual([cell(A, { attempts: 1, solved: true, penalty: 7, solvedAt: at(7) })]);
    // the same through the incremental path, in the other order of storage
    await f.submit(a, A, bob, { minutes: 9, verdict: 'AC' }, true, '00000000-0000-7000-8000-000000000004');
    await f.submit(a, A, bob, { minutes: 9, verdict: 'WA' }, true, '00000000-0000-7000-8000-000000000003');
    expect(rowOf(await f.ranking(ann, a), bob)!.cells).toEqual([cell(A, { attempts: 2, solved: true, penalty: 29, solvedAt: at(9) })]);
  });

  it('refuses: unknown activity, an outsider of a closed activity, a member without ranking:read, a bad or foreign seriesId', async () => {
    const a = await f.activity([ann]);
    const s = await f.series(a);
    const other = await f.activity([ann]);
    const foreign = await f.series(other);
    await f.w.admin.call(ops.createRole, { body: { name: 'Spectator', permissions: ['activity:read'] } });
    const spectator = await f.person('spectator');
    await f.j.grant(spectator.u.id, 'Spectator', a.id);
    const get = (p: Party, idOrSlug: string, seriesId?: string) => p.c.call(ops.getRanking, { params: { idOrSlug }, query: seriesId ? { seriesId } : {} });

    await refusedWith(get(ann, 'no-such-activity'), 404, 'not_found');
    await refusedWith(get(ann, UNKNOWN_UUID), 404, 'not_found');
    await refusedWith(get(U, a.slug), 404, 'not_found');
    await refusedWith(get(U, a.id), 404, 'not_found');
    const e = await refusedWith(get(spectator, a.slug), 403, 'forbidden');
    expect(e.detail).toContain('ranking:read');
    await refusedWith(get(ann, a.slug, UNKNOWN_UUID), 404, 'not_found');
    await refusedWith(get(ann, a.slug, foreign.id), 404, 'not_found');
    // signed out: only a public scoreboard answers (decisions §23); this one is not public
    await refusedWith(f.j.anonymous().call(ops.getRanking, { params: { idOrSlug: a.slug }, query: {} }), 404, 'not_found');
    const bad = await sendJson(f.j.url, 'GET', `/activities/${a.slug}/ranking?seriesId=not-a-uuid`, ann.c.accessToken);
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 422, code: 'validation_failed' });
    expect(bad.body.errors).toHaveProperty('seriesId');
    // the series itself is fine; the spectator manages nothing, so is ranked like any participant
    expect((await get(ann, a.slug, s.id)).rows.map((r) => r.userId).sort()).toEqual([ann.u.id, spectator.u.id].sort());
  });
});
