import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Ranking as RankingSchema, ops, type Activity, type OperationInput, type Ranking, type RankingCell, type Series } from '@judge/contract';
import { submissions } from '../../src/db/schema.js';
import type { ConfigOverrides } from '@judge/server';
import { ManualClock, TestJudge } from '../harness.js';
import { World, at, type Party } from '../series-fixtures.js';

/**
 * What the ranking tests share: a Fixture that builds activities, series, tasks and judged
 * outcomes, and the shapes of the cells and problems a ranking shows.
 */

export type ActivityBody = OperationInput<typeof ops.createActivity>['body'];
export type SeriesBody = OperationInput<typeof ops.createSeries>['body'];
export type Name = { firstName?: string; lastName?: string };

/** An assignment as the tests use it. */
export interface Task {
  id: string;
  problemId: string;
  seriesId: string;
  versionId: string;
  slug: string;
  name: string;
}

/** A submission's outcome; completed unless `state` says otherwise. */
export interface Outcome {
  minutes: number;
  state?: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  verdict?: string;
  score?: number;
  maxScore?: number;
  excluded?: boolean;
}

/**
 * What each test file needs: a judge, a world, a manager who authors problems, and helpers around
 * them.
 */
export class Fixture {
  constructor(
    readonly j: TestJudge,
    readonly w: World,
    readonly M: Party,
  ) {}

  static async start(clock: ManualClock, config?: ConfigOverrides): Promise<Fixture> {
    const j = await TestJudge.start({ clock, ...(config ? { config } : {}) });
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
  async submit(a: Activity, t: Task, p: Party, o: Outcome, report = true, id = randomUUID()): Promise<string> {
    await this.j.app.deps.tx.write((q) =>
      q
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
      }),
    );
    if (report) await this.j.app.services.ranking.submissionChanged(a.id, p.u.id, t.id);
    return id;
  }

  /** Changes a stored submission as a judging or an exclusion would, and reports it. */
  async change(a: Activity, t: Task, p: Party, id: string, set: Partial<typeof submissions.$inferInsert>): Promise<void> {
    await this.j.app.deps.tx.write((q) => q.update(submissions).set(set).where(eq(submissions.id, id)));
    await this.j.app.services.ranking.submissionChanged(a.id, p.u.id, t.id);
  }

  async ranking(p: Party, a: Activity, seriesId?: string, view?: 'own' | 'public'): Promise<Ranking> {
    const r = await p.c.call(ops.getRanking, { params: { idOrSlug: a.slug }, query: { ...(seriesId ? { seriesId } : {}), ...(view ? { view } : {}) } });
    // the answer is what the contract describes
    RankingSchema.strict().parse(r);
    return r;
  }
}

export const cell = (t: Task, c: Partial<RankingCell> = {}): RankingCell => ({ problemId: t.id, attempts: 0, solved: false, pending: 0, frozen: 0, ...c });
export const problem = (t: Task, maxPoints?: number) => ({ id: t.id, slug: t.slug, name: t.name, seriesId: t.seriesId, ...(maxPoints ? { maxPoints } : {}) });
export const rowOf = (r: Ranking, p: Party) => r.rows.find((x) => x.userId === p.u.id);
