import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Ranking as RankingSchema, ops, type Activity, type OperationInput, type Ranking, type RankingCell, type Series } from '@judge/contract';
import type { EventStream } from '@judge/sdk';
import { submissions } from '../src/db/schema.js';
import { refusedWith, sendJson } from './expect.js';
import { ManualClock, TestJudge } from './harness.js';
import { T0, UNKNOWN_UUID, World, at, listen, only, type Party } from './series-fixtures.js';

/**
 * The ranking (CONTRACT §9) over real HTTP and a real SQLite file: hand-computed icpc and points
 * standings, the freeze and the ranking window as participants and managers see them, the
 * activity's scoreVisibility, the incremental path (a changed submission reported with
 * submissionChanged), every refusal; then the rankingChanged events on real sockets, from the
 * announcer worker and from resultEvents.
 *
 * Submissions are written straight to the database with their outcome, as the judging flow
 * leaves them, and reported to the ranking the way that flow does.
 */

type ActivityBody = OperationInput<typeof ops.createActivity>['body'];
type SeriesBody = OperationInput<typeof ops.createSeries>['body'];
type Name = { firstName?: string; lastName?: string };

/** An assignment as the tests use it. */
interface Task {
  id: string;
  problemId: string;
  seriesId: string;
  versionId: string;
  slug: string;
  name: string;
}

/** A submission's outcome; completed unless `state` says otherwise. */
interface Outcome {
  minutes: number;
  state?: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  verdict?: string;
  score?: number;
  maxScore?: number;
  excluded?: boolean;
}

/** What each test file needs: a judge, a world, a manager who authors problems, and helpers around them. */
class Fixture {
  constructor(
    readonly j: TestJudge,
    readonly w: World,
    readonly M: Party,
  ) {}

  static async start(clock: ManualClock): Promise<Fixture> {
    const j = await TestJudge.start({ clock });
    // the tests move time and tick the workers themselves
    j.app.scheduler.stop();
    j.app.rankingAnnouncer.stop();
    const w = await World.create(j, clock);
    return new Fixture(j, w, await w.party('manager', { author: true }));
  }

  async person(prefix: string, name: Name = {}, how: 'bearer' | 'cookie' = 'bearer'): Promise<Party> {
    const u = await this.j.user(this.w.uniq(prefix), name);
    return { u, c: await this.j.signIn(u, how) };
  }

  /** A published activity closed to joining, managed by M, with these participants. */
  async activity(members: Party[], body: Partial<ActivityBody> = {}): Promise<Activity> {
    const a = await this.w.activity(body);
    await this.j.grant(this.M.u.id, 'manager', a.id);
    for (const p of members) await this.j.grant(p.u.id, 'participant', a.id);
    return a;
  }

  series(a: Activity, body: Partial<SeriesBody> = {}): Promise<Series> {
    return this.M.c.call(ops.createSeries, { params: { idOrSlug: a.id }, body: { slug: this.w.uniq('s'), name: 'Round', ...body } });
  }

  async task(s: Series, maxPoints?: number): Promise<Task> {
    const { problem, version } = await this.w.problem(this.M.c);
    const slug = this.w.uniq('task');
    const after = await this.M.c.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId: problem.id, slug, ...(maxPoints ? { maxPoints } : {}) } });
    return { id: after.problems.find((p) => p.slug === slug)!.id, problemId: problem.id, seriesId: s.id, versionId: version.id, slug, name: problem.name };
  }

  /** Writes a submission row with its outcome; reports it to the ranking unless told not to. */
  submit(a: Activity, t: Task, p: Party, o: Outcome, report = true, id = randomUUID()): string {
    this.j.app.deps.db
      .insert(submissions)
      .values({
        id,
        activityId: a.id,
        seriesId: t.seriesId,
        seriesProblemId: t.id,
        problemVersionId: t.versionId,
        userId: p.u.id,
        submittedAt: at(o.minutes),
        state: o.state ?? 'completed',
        verdict: o.verdict ?? null,
        score: o.score ?? null,
        maxScore: o.maxScore ?? null,
        excluded: o.excluded ?? false,
      })
      .run();
    if (report) this.j.app.services.ranking.submissionChanged(a.id, p.u.id, t.id);
    return id;
  }

  /** Changes a stored submission as a judging or an exclusion would, and reports it. */
  change(a: Activity, t: Task, p: Party, id: string, set: Partial<typeof submissions.$inferInsert>): void {
    this.j.app.deps.db.update(submissions).set(set).where(eq(submissions.id, id)).run();
    this.j.app.services.ranking.submissionChanged(a.id, p.u.id, t.id);
  }

  async ranking(p: Party, a: Activity, seriesId?: string): Promise<Ranking> {
    const r = await p.c.call(ops.getRanking, { params: { idOrSlug: a.slug }, query: seriesId ? { seriesId } : {} });
    // the answer is what the contract describes
    RankingSchema.strict().parse(r);
    return r;
  }
}

const cell = (t: Task, c: Partial<RankingCell> = {}): RankingCell => ({ problemId: t.id, attempts: 0, solved: false, pending: 0, frozen: 0, ...c });
const problem = (t: Task, maxPoints?: number) => ({ id: t.id, slug: t.slug, name: t.name, seriesId: t.seriesId, ...(maxPoints ? { maxPoints } : {}) });
const rowOf = (r: Ranking, p: Party) => r.rows.find((x) => x.userId === p.u.id);

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
    f.submit(a, A, ann, { minutes: 10, verdict: 'WA', score: 0, maxScore: 1 });
    f.submit(a, A, ann, { minutes: 25.5, verdict: 'AC', score: 1, maxScore: 1 });
    f.submit(a, B, ann, { minutes: 5, verdict: 'CE' });
    f.submit(a, B, ann, { minutes: 30, verdict: 'AC' });
    f.submit(a, C, ann, { minutes: 40, verdict: 'WA' });
    // Bob: A at 15 (a later WA is ignored), B at 60 by full score without a verdict. 2 solved, 75, last at 60.
    f.submit(a, A, bob, { minutes: 15, verdict: 'AC' });
    f.submit(a, A, bob, { minutes: 16, verdict: 'WA' });
    f.submit(a, B, bob, { minutes: 60, score: 100, maxScore: 100 });
    // Cid and Dee: A at 50, nothing else that counts: the same place
    f.submit(a, A, cid, { minutes: 50, verdict: 'AC' });
    f.submit(a, A, dee, { minutes: 40, verdict: 'JE' });
    f.submit(a, A, dee, { minutes: 50, verdict: 'AC' });
    f.submit(a, B, dee, { minutes: 55, state: 'queued' });
    f.submit(a, C, dee, { minutes: 1, verdict: 'AC', excluded: true });
    f.submit(a, C, dee, { minutes: 2, state: 'failed' });
    f.submit(a, C, dee, { minutes: 3, state: 'cancelled', verdict: 'AC' });
    // the manager's own tests are in nobody's row
    f.submit(a, A, M, { minutes: 1, verdict: 'AC' });

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
    expect(await f.ranking(M, a)).toEqual(expected);
    expect(await f.ranking(ann, a)).toEqual(expected);
    expect(await f.ranking(M, a, s.id)).toEqual(expected);
  });

  it('icpc: penalty minutes count from the activity start, else from when the series opened; practice series only on their own', async () => {
    const a = await f.activity([ann, bob], { startDate: at(-60) });
    const s = await f.series(a);
    const A = await f.task(s);
    const practice = await f.series(a, { importanceScope: 'none' });
    const P = await f.task(practice);
    f.submit(a, A, ann, { minutes: 10, verdict: 'AC' }); // 70 minutes after the activity's start
    f.submit(a, P, bob, { minutes: 5, verdict: 'AC' });

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
    f.submit(b, Q, ann, { minutes: 12.9, verdict: 'AC' });
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
    f.submit(a, P1, ann, { minutes: 1, verdict: 'WA', score: 50, maxScore: 100 });
    f.submit(a, P1, ann, { minutes: 2, verdict: 'WA', score: 80, maxScore: 100 });
    f.submit(a, P1, ann, { minutes: 3, verdict: 'WA', score: 30, maxScore: 100 });
    f.submit(a, P2, ann, { minutes: 4, verdict: 'WA', score: 7, maxScore: 10 });
    f.submit(a, P3, ann, { minutes: 5, verdict: 'WA', score: 3, maxScore: 4 });
    // Bob: 100 + round(6.67) × 2 = 114, one still judging, practice not counted
    f.submit(a, P1, bob, { minutes: 6, verdict: 'AC', score: 1, maxScore: 1 });
    f.submit(a, P2, bob, { minutes: 7, state: 'queued' });
    f.submit(a, P3, bob, { minutes: 8, verdict: 'WA', score: 2, maxScore: 3 });
    f.submit(a, P4, bob, { minutes: 9, verdict: 'AC', score: 1, maxScore: 1 });
    // Cid: 100 + 3 = 103 (a CE is an attempt worth nothing)
    f.submit(a, P1, cid, { minutes: 9, verdict: 'AC', score: 100, maxScore: 100 });
    f.submit(a, P2, cid, { minutes: 10, verdict: 'CE' });
    f.submit(a, P2, cid, { minutes: 11, verdict: 'WA', score: 3, maxScore: 10 });
    // Dee: excluded, so nothing
    f.submit(a, P1, dee, { minutes: 12, verdict: 'AC', score: 100, maxScore: 100, excluded: true });

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
    f.submit(a, A, ann, { minutes: 10, verdict: 'AC' });
    f.submit(a, B, ann, { minutes: 20, verdict: 'WA' });
    f.submit(a, B, ann, { minutes: 35, verdict: 'AC' });
    f.submit(a, C, ann, { minutes: 38, state: 'queued' });
    f.submit(a, A, bob, { minutes: 30, verdict: 'AC' });
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
    expect(await f.ranking(bob, a)).toEqual(await f.ranking(M, a));
  });

  it('window: a series counts from rankingVisibleFrom (else its start) until rankingVisibleTo, except to managers', async () => {
    const a = await f.activity([ann, bob]);
    const windowed = await f.series(a, { startDate: at(0), rankingVisibleFrom: at(30), rankingVisibleTo: at(55) });
    const A = await f.task(windowed);
    const later = await f.series(a, { startDate: at(20) });
    const B = await f.task(later);
    const always = await f.series(a);
    const C = await f.task(always);
    f.submit(a, A, ann, { minutes: 10, verdict: 'AC' });
    f.submit(a, C, bob, { minutes: 11, verdict: 'AC' });

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
    f.submit(hidden, A, ann, { minutes: 5, verdict: 'AC' });
    const toAnn = await f.ranking(ann, hidden);
    expect(toAnn.problems).toEqual([problem(A)]);
    expect(toAnn.rows).toEqual([]);
    expect((await f.ranking(M, hidden)).rows.map((x) => x.userName)).toEqual(['Ann Lee', 'Bob Stone']);

    const own = await f.activity([ann, bob, cid], { scoreVisibility: 'participantOnly' });
    const s2 = await f.series(own);
    const B = await f.task(s2);
    f.submit(own, B, bob, { minutes: 5, verdict: 'AC' });
    f.submit(own, B, ann, { minutes: 6, verdict: 'WA' });
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

    const id = f.submit(a, A, ann, { minutes: 1, state: 'queued' });
    expect(rowOf(await f.ranking(ann, a), ann)!.cells[0]).toEqual(cell(A, { pending: 1 }));
    f.change(a, A, ann, id, { state: 'running' });
    expect(rowOf(await f.ranking(ann, a), ann)!.cells[0]).toEqual(cell(A, { pending: 1 }));
    f.change(a, A, ann, id, { state: 'completed', verdict: 'WA', score: 1, maxScore: 2 });
    let r = await f.ranking(ann, a);
    expect(r.rows.map((x) => [x.rank, x.userName, x.points])).toEqual([
      [1, 'Ann Lee', 5],
      [2, 'Bob Stone', 0],
    ]);
    // a rejudge that lost the result, then an exclusion
    f.change(a, A, ann, id, { state: 'failed' });
    expect(rowOf(await f.ranking(ann, a), ann)!.points).toBe(0);
    f.change(a, A, ann, id, { state: 'completed', verdict: 'AC', score: 2, maxScore: 2 });
    expect(rowOf(await f.ranking(ann, a), ann)).toMatchObject({ solved: 1, points: 10 });
    f.change(a, A, ann, id, { excluded: true });
    expect(rowOf(await f.ranking(ann, a), ann)).toMatchObject({ solved: 0, points: 0 });

    // what is not reported is not seen: the submissions are held in memory, not read per request
    f.submit(a, B, bob, { minutes: 2, verdict: 'AC', score: 4, maxScore: 4 }, false);
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
    f.submit(a, A, ann, { minutes: 7, verdict: 'WA' }, false, second);
    f.submit(a, A, ann, { minutes: 7, verdict: 'AC' }, false, first);
    expect(rowOf(await f.ranking(ann, a), ann)!.cells).toEqual([cell(A, { attempts: 1, solved: true, penalty: 7, solvedAt: at(7) })]);
    // the same through the incremental path, in the other order of storage
    f.submit(a, A, bob, { minutes: 9, verdict: 'AC' }, true, '00000000-0000-7000-8000-000000000004');
    f.submit(a, A, bob, { minutes: 9, verdict: 'WA' }, true, '00000000-0000-7000-8000-000000000003');
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
    await refusedWith(f.j.anonymous().call(ops.getRanking, { params: { idOrSlug: a.slug }, query: {} }), 401, 'unauthenticated');
    const bad = await sendJson(f.j.url, 'GET', `/activities/${a.slug}/ranking?seriesId=not-a-uuid`, ann.c.accessToken);
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 422, code: 'validation_failed' });
    expect(bad.body.errors).toHaveProperty('seriesId');
    // the series itself is fine; the spectator manages nothing, so is ranked like any participant
    expect((await get(ann, a.slug, s.id)).rows.map((r) => r.userId).sort()).toEqual([ann.u.id, spectator.u.id].sort());
  });
});

describe('rankingChanged events', () => {
  const clock = new ManualClock(new Date(T0));
  let f: Fixture;
  /** P and Q take part in the activities made here; PB in another one; U in none. */
  let P: Party, Q: Party, PB: Party, U: Party;
  let streams: Record<'M' | 'P' | 'Q' | 'PB' | 'U', EventStream>;
  const PARTIES = ['M', 'P', 'Q', 'PB', 'U'] as const;
  /** The rankingChanged data each party received. */
  type Heard = Record<(typeof PARTIES)[number], Record<string, unknown>[]>;

  async function heard(): Promise<Heard> {
    const got = await f.w.barrier(PARTIES.map((k) => streams[k]));
    return Object.fromEntries(PARTIES.map((k, i) => [k, only(got[i]!, 'rankingChanged')])) as Heard;
  }
  const tick = (minutes: number) => f.j.app.rankingAnnouncer.tick(new Date(at(minutes)));
  /** What the judging flow does with resultEvents: emits them in its write transaction. */
  const announce = (submissionId: string) =>
    f.j.app.deps.tx.run((out) => {
      for (const e of f.j.app.services.ranking.resultEvents(submissionId)) out.emit(e);
    });

  beforeAll(async () => {
    f = await Fixture.start(clock);
    [P, Q, PB, U] = [await f.person('p', {}, 'cookie'), await f.person('q', {}, 'cookie'), await f.person('pb', {}, 'cookie'), await f.person('u', {}, 'cookie')];
    const elsewhere = await f.activity([PB]);
    void elsewhere;
    streams = { M: await listen(f.j, f.M.u), P: await listen(f.j, P.u), Q: await listen(f.j, Q.u), PB: await listen(f.j, PB.u), U: await listen(f.j, U.u) };
  });
  afterAll(async () => {
    for (const s of Object.values(streams ?? {})) s.close();
    await f?.j.stop();
  });

  it('the announcer tells the ranking readers when a window opens and when a freeze is revealed, once each', async () => {
    clock.set(new Date(T0));
    // the worker started at T0 and noted it; a new tick at or before that instant announces nothing
    expect(tick(0)).toEqual([]);
    const a = await f.activity([P, Q]);
    const s = await f.series(a, { startDate: at(0), rankingVisibleFrom: at(5), rankingFreezeAt: at(10), rankingRevealAt: at(20) });
    const byStart = await f.series(a, { startDate: at(7) });
    const unpublished = await f.activity([P]);
    await f.series(unpublished, { startDate: at(0), rankingVisibleFrom: at(5), rankingFreezeAt: at(10), rankingRevealAt: at(20) });
    await f.w.published(unpublished.id, false);
    const noFreeze = await f.series(a, { startDate: at(-10), rankingRevealAt: at(20) });
    void noFreeze;
    await heard();

    expect(tick(4.99)).toEqual([]);
    expect(tick(5)).toEqual([{ activityId: a.id, seriesId: s.id, change: 'windowOpened' }]);
    expect(tick(5)).toEqual([]);
    expect(tick(8)).toEqual([{ activityId: a.id, seriesId: byStart.id, change: 'windowOpened' }]);
    expect(tick(19.99)).toEqual([]);
    expect(tick(20)).toEqual([{ activityId: a.id, seriesId: s.id, change: 'unfrozen' }]);
    expect(tick(600)).toEqual([]);

    const got = await heard();
    const told = [
      { activityId: a.id, change: 'windowOpened', seriesId: s.id },
      { activityId: a.id, change: 'windowOpened', seriesId: byStart.id },
      { activityId: a.id, change: 'unfrozen', seriesId: s.id },
    ];
    for (const k of ['M', 'P', 'Q'] as const) expect(got[k]).toEqual(told);
    for (const k of ['PB', 'U'] as const) expect(got[k]).toEqual([]);
  });

  it('a restarted announcer only notes the time on its first tick', async () => {
    const { RankingAnnouncer } = await import('../src/workers/ranking-announcer.js');
    const a = await f.activity([P]);
    const s = await f.series(a, { startDate: at(1000), rankingFreezeAt: at(1010), rankingRevealAt: at(1020) });
    const fresh = new RankingAnnouncer(f.j.app.deps);
    expect(fresh.tick(new Date(at(1015)))).toEqual([]);
    expect(fresh.tick(new Date(at(1030)))).toEqual([{ activityId: a.id, seriesId: s.id, change: 'unfrozen' }]);
    // a clock set back does not repeat it
    expect(fresh.tick(new Date(at(1010)))).toEqual([]);
    expect(fresh.tick(new Date(at(1030)))).toEqual([]);
    const got = await heard();
    expect(got.P).toEqual([{ activityId: a.id, change: 'unfrozen', seriesId: s.id }]);
    expect(got.Q).toEqual([]);
  });

  it('results go to those who may see them: everyone, frozen, out of window, participantOnly, managersOnly, non-participants', async () => {
    clock.set(new Date(at(20)));
    const a = await f.activity([P, Q]);
    const open = await f.series(a, { startDate: at(0) });
    const A = await f.task(open, 50);
    const frozen = await f.series(a, { startDate: at(0), rankingFreezeAt: at(10), rankingRevealAt: at(100) });
    const B = await f.task(frozen);
    const notYet = await f.series(a, { startDate: at(0), rankingVisibleFrom: at(50) });
    const C = await f.task(notYet);
    await heard();

    // visible to everyone who reads the ranking; the score as every surface shows it (rescaled to maxPoints)
    const id = f.submit(a, A, P, { minutes: 15, verdict: 'AC', score: 1, maxScore: 1 });
    announce(id);
    let got = await heard();
    const result = { submissionId: id, userId: P.u.id, problemId: A.id, submittedAt: at(15), state: 'completed', verdict: 'AC', score: 50, maxScore: 50, excluded: false };
    for (const k of ['M', 'P', 'Q'] as const) expect(got[k]).toEqual([{ activityId: a.id, change: 'result', seriesId: open.id, result }]);
    for (const k of ['PB', 'U'] as const) expect(got[k]).toEqual([]);

    // made after the freeze: the result only to those who see through it, the bare change to the others
    const late = f.submit(a, B, P, { minutes: 15, state: 'queued' });
    announce(late);
    got = await heard();
    expect(got.M).toEqual([{ activityId: a.id, change: 'result', seriesId: frozen.id, result: { submissionId: late, userId: P.u.id, problemId: B.id, submittedAt: at(15), state: 'queued', excluded: false } }]);
    for (const k of ['P', 'Q'] as const) expect(got[k]).toEqual([{ activityId: a.id, change: 'result', seriesId: frozen.id }]);
    for (const k of ['PB', 'U'] as const) expect(got[k]).toEqual([]);

    // a series outside its window: managers only
    announce(f.submit(a, C, Q, { minutes: 15, verdict: 'WA' }));
    got = await heard();
    expect(got.M).toHaveLength(1);
    expect(got.M[0]).toMatchObject({ change: 'result', seriesId: notYet.id, result: { userId: Q.u.id, verdict: 'WA' } });
    for (const k of ['P', 'Q', 'PB', 'U'] as const) expect(got[k]).toEqual([]);

    // the manager's own submission is in nobody's ranking
    announce(f.submit(a, A, f.M, { minutes: 15, verdict: 'AC' }));
    for (const frames of Object.values(await heard())) expect(frames).toEqual([]);

    // participantOnly: the managers and the author; managersOnly: the managers
    const mine = await f.activity([P, Q], { scoreVisibility: 'participantOnly' });
    const D = await f.task(await f.series(mine));
    const ownId = f.submit(mine, D, P, { minutes: 15, verdict: 'WA' });
    announce(ownId);
    got = await heard();
    for (const k of ['M', 'P'] as const) expect(got[k]).toEqual([expect.objectContaining({ activityId: mine.id, result: expect.objectContaining({ submissionId: ownId }) })]);
    for (const k of ['Q', 'PB', 'U'] as const) expect(got[k]).toEqual([]);

    const managers = await f.activity([P, Q], { scoreVisibility: 'managersOnly' });
    const E = await f.task(await f.series(managers));
    announce(f.submit(managers, E, P, { minutes: 15, verdict: 'AC' }));
    got = await heard();
    expect(got.M).toHaveLength(1);
    for (const k of ['P', 'Q', 'PB', 'U'] as const) expect(got[k]).toEqual([]);
  });
});
