import type { EventData, Permission, Ranking, RankingRow } from '@judge/contract';
import type { Actor } from '../../auth/permissions.js';
import { event, type Audience, type DomainEvent } from '../../events/bus.js';
import { notFound } from '@judge/contract';
import type { Deps } from '../../services.js';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { activities, series, seriesProblems, submissions } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { compact, iso } from '../../util.js';
import { readActivity, visibleActivity, type ActivityRow } from '../policy/index.js';
import { rescaled } from '../submissions/index.js';
import { ActivityModel, specOf, type Column, type Participant, type Ranked } from './model.js';
import { RankingQueries, type RankedAssignment, type RankedSeries } from './queries.js';
import { activeFreeze, windowOpen } from './windows.js';
import { resolve, type CeremonyRow, type CeremonyStep } from './resolver.js';

/** Activities whose submissions stay in memory; the least recently ranked one is dropped first. */
const MODELS_KEPT = 32;

type RankingType = Ranking['rankingType'];
/** Whose eyes the standings are computed for (RankingQuery.view). */
export type RankingView = 'own' | 'public';
type ResultData = NonNullable<EventData<'rankingChanged'>['result']>;

/** What resultEvents reads of a submission: the row, its assignment's scale, its series' dates, its activity's rules. */
function resultRow(q: Q, submissionId: string) {
  return q
    .select({
      id: submissions.id,
      userId: submissions.userId,
      activityId: submissions.activityId,
      seriesId: submissions.seriesId,
      problemId: submissions.seriesProblemId,
      problemSlug: seriesProblems.slug,
      submittedAt: submissions.submittedAt,
      state: submissions.state,
      verdict: submissions.verdict,
      score: submissions.score,
      maxScore: submissions.maxScore,
      excluded: submissions.excluded,
      maxPoints: seriesProblems.maxPoints,
      startDate: series.startDate,
      rankingFreezeAt: series.rankingFreezeAt,
      rankingRevealAt: series.rankingRevealAt,
      rankingVisibleFrom: series.rankingVisibleFrom,
      rankingVisibleTo: series.rankingVisibleTo,
      scoreVisibility: activities.scoreVisibility,
      publishedAt: activities.publishedAt,
    })
    .from(submissions)
    .innerJoin(seriesProblems, eq(seriesProblems.id, submissions.seriesProblemId))
    .innerJoin(series, eq(series.id, submissions.seriesId))
    .innerJoin(activities, eq(activities.id, submissions.activityId))
    .where(eq(submissions.id, submissionId))
    .limit(1);
}
type ResultRow = Awaited<ReturnType<typeof resultRow>>[number];

/**
 * The standings (decisions §9), computed by the server and kept incrementally: each activity's
 * counted submissions are loaded once into memory (one indexed query) and from then on replaced
 * one cell at a time as the judging flow reports changes. The structure (series, assignments,
 * participants) is read on every request, so nobody has to tell the ranking about it; rows are
 * cached per structure and moment ("spec") and recomputed only for the user whose submission changed.
 */
export class RankingService {
  private readonly q = new RankingQueries();
  private readonly models = new Map<string, ActivityModel>();
  /** Activities being loaded, so that requests at once load each once, and changes meanwhile are not lost. */
  private readonly loading = new Map<string, { model: Promise<ActivityModel>; changed: [string, string][] }>();
  /** The newest read of each cell asked for (see submissionChanged). */
  private readonly latestRead = new Map<string, number>();
  private cellReads = 0;
  constructor(private readonly d: Deps) {}

  /** GET /activities/{idOrSlug}/ranking; signed out, the public view of a public scoreboard (else 404). */
  async get(actor: Actor | undefined, idOrSlug: string, seriesId?: string, view: RankingView = 'own'): Promise<Ranking> {
    return toRanking(await this.standings(await this.reader(actor, idOrSlug, view), seriesId));
  }

  /**
   * The same answer as JSON text. The rows of a large contest are most of it, and every reader
   * who sees all of them gets the same text: it is made once per change of the standings rather
   * than once per request (a result tells every reader to fetch again).
   */
  async json(actor: Actor | undefined, idOrSlug: string, seriesId?: string, view: RankingView = 'own'): Promise<string> {
    const s = await this.standings(await this.reader(actor, idOrSlug, view), seriesId);
    // the rows hold no null members, so plain JSON is the wire form (decisions §2)
    const rows = s.rows === s.ranked.rows ? (s.ranked.rowsJson ??= JSON.stringify(s.rows)) : JSON.stringify(s.rows);
    return `{"rankingType":${JSON.stringify(s.type)},"frozen":${s.ranked.frozen},"problems":${JSON.stringify(s.problems)},"rows":${rows}}`;
  }

  /**
   * The public view of an activity the caller was already let see (a public scoreboard, a display
   * link: modules/scoreboards), with the series it counts. Computed as for a participant holding
   * nothing but ranking:read, so it hides exactly what the freeze and the windows hide from them.
   */
  async publicView(a: ActivityRow): Promise<{ ranking: Ranking; series: RankedSeries[] }> {
    const s = await this.standings({ a, userId: null, unfrozen: false, readsAll: false });
    return { ranking: toRanking(s), series: s.series };
  }

  /**
   * Who reads, and what they see through. The public view (a projector's) is computed as for a
   * participant holding nothing but ranking:read, whatever the caller holds; the caller still needs
   * ranking:read to ask. Signed out, only a published activity with a public scoreboard answers,
   * and only its public view (decisions §23); any other is 404, as to a caller who may not see it.
   */
  private async reader(actor: Actor | undefined, idOrSlug: string, view: RankingView): Promise<Reader> {
    if (!actor) {
      const a = await readActivity(this.d, idOrSlug);
      if (!a || !isPublicScoreboard(a)) throw notFound('activity');
      return { a, userId: null, unfrozen: false, readsAll: false };
    }
    const a = await visibleActivity(this.d, actor, idOrSlug);
    const held = await this.d.permissions.of(actor.userId);
    const may = (key: Permission) => view === 'own' && held.has(key, a.id);
    held.require('ranking:read', a.id);
    return { a, userId: actor.userId, unfrozen: may('ranking:read:unfrozen'), readsAll: may('result:read:all') };
  }

  /** The standings a reader gets: through the freeze and the windows when `unfrozen`, every row when `readsAll`. */
  private async standings(r: Reader, seriesId?: string): Promise<Standings> {
    const { a, unfrozen } = r;
    const model = this.model(a.id);
    const { all, assigned, participants } = await this.d.tx.read(async (q) => ({
      all: await this.q.seriesOf(q, a.id),
      assigned: await this.q.assignmentsOf(q, a.id),
      participants: await this.q.participantsOf(q, a.id),
    }));
    const chosen = seriesId === undefined ? undefined : all.find((s) => s.id === seriesId);
    if (seriesId !== undefined && !chosen) throw notFound('series');

    const now = iso(this.d.clock.now());
    // practice series (importanceScope none) only on their own; outside its window a series counts only for those who see through it
    const shown = (chosen ? [chosen] : all.filter((s) => s.importanceScope !== 'none')).filter((s) => unfrozen || windowOpen(s, now));
    const bySeries = new Map(shown.map((s) => [s.id, s]));
    const problems = assigned.filter((p) => bySeries.has(p.seriesId));
    // a series ranked on its own is not weighed against others: its importance does not apply
    const columns = problems.map((p) => column(p, bySeries.get(p.seriesId)!, a, unfrozen ? null : now, chosen ? 1 : null));
    const type: RankingType = a.rankingType === 'points' ? 'points' : 'icpc';
    const ranked = (await model).view(specOf(type, columns)).rank(participants);
    const rows = this.visibleRows(ranked.rows, a, r.userId, r.readsAll);
    return {
      type,
      problems: problems.map((p) => compact({ id: p.id, slug: p.slug, name: p.name, seriesId: p.seriesId, maxPoints: p.maxPoints })),
      ranked,
      rows: r.readsAll ? withUsernames(rows, participants) : rows,
      series: shown,
    };
  }

  /**
   * The standings as they stand for good (decisions §24): every ranked series with all results, as
   * a holder of ranking:read:unfrozen sees them, and every participant's row whatever the
   * activity's scoreVisibility. For the awards; the caller has checked who asks.
   */
  async finalStandings(a: ActivityRow): Promise<Ranking> {
    return toRanking(await this.standings({ a, userId: null, unfrozen: true, readsAll: true }));
  }

  /** Whether a freeze hides results of the activity's ranked series from participants now. */
  async freezeInForce(activityId: string): Promise<boolean> {
    const all = await this.d.tx.read((q) => this.q.seriesOf(q, activityId));
    const now = iso(this.d.clock.now());
    return all.some((s) => s.importanceScope !== 'none' && activeFreeze(s, now) !== null);
  }

  /** scoreVisibility: managersOnly shows rows to result:read:all only; participantOnly shows others their own row. */
  private visibleRows(rows: RankingRow[], a: ActivityRow, userId: string | null, readsAll: boolean): RankingRow[] {
    if (readsAll || a.scoreVisibility === 'everyone') return rows;
    if (a.scoreVisibility === 'managersOnly') return [];
    return rows.filter((r) => r.userId === userId);
  }

  /**
   * Loads the submissions of activities that are running now (published, not archived, a series
   * open), so that their first ranking request does not pay for the load. Called once at start.
   */
  async warm(): Promise<number> {
    const ongoing = await this.d.tx.read((q) =>
      q
        .select({ id: activities.id })
        .from(activities)
        .where(
          and(
            isNotNull(activities.publishedAt),
            sql`${activities.archivedAt} IS NULL`,
            inArray(activities.id, q.select({ id: series.activityId }).from(series).where(eq(series.isOpen, true))),
          ),
        )
        .orderBy(sql`${activities.createdAt} DESC`)
        .limit(MODELS_KEPT),
    );
    for (const a of ongoing) await this.model(a.id);
    return ongoing.length;
  }

  /** The activity's submissions in memory, loaded on first use (one load however many ask at once). */
  private model(activityId: string): Promise<ActivityModel> {
    const m = this.models.get(activityId);
    if (m) {
      // the most recently ranked goes last: the first is dropped when too many are kept
      this.models.delete(activityId);
      this.models.set(activityId, m);
      return Promise.resolve(m);
    }
    const pending = this.loading.get(activityId);
    if (pending) return pending.model;
    const changed: [string, string][] = [];
    const model = this.d.tx
      .read(async (q) => {
        const fresh = new ActivityModel();
        await this.q.load(q, activityId, fresh);
        return fresh;
      })
      .then(async (fresh) => {
        // cells changed while the load read may be older in it than in the database: read again
        if (changed.length) {
          await this.d.tx.read(async (q) => {
            for (const [userId, assignmentId] of changed) fresh.replaceCell(userId, assignmentId, await this.q.cellOf(q, assignmentId, userId));
          });
        }
        const oldest = this.models.size >= MODELS_KEPT ? this.models.keys().next().value : undefined;
        if (oldest !== undefined) this.models.delete(oldest);
        this.models.set(activityId, fresh);
        return fresh;
      })
      .finally(() => this.loading.delete(activityId));
    this.loading.set(activityId, { model, changed });
    return model;
  }

  /**
   * After commit: a submission of `userId` on assignment `seriesProblemId` was created, judged,
   * rejudged, cancelled, excluded or included. Re-reads that one cell (submissions_assignment_user);
   * an activity not in memory is read whole when next ranked anyway. Never rejects: a cell that
   * could not be read drops the activity from memory, so that it is read whole next time.
   */
  async submissionChanged(activityId: string, userId: string, seriesProblemId: string): Promise<void> {
    this.loading.get(activityId)?.changed.push([userId, seriesProblemId]);
    const m = this.models.get(activityId);
    if (!m) return;
    // two changes of one cell read at once may finish out of order (PostgreSQL reads in parallel): the later asked wins
    const key = `${activityId}\n${userId}\n${seriesProblemId}`;
    const asked = ++this.cellReads;
    this.latestRead.set(key, asked);
    try {
      const cell = await this.d.tx.read((q) => this.q.cellOf(q, seriesProblemId, userId));
      if (this.latestRead.get(key) !== asked) return;
      this.latestRead.delete(key);
      this.models.get(activityId)?.replaceCell(userId, seriesProblemId, cell);
    } catch (e) {
      this.latestRead.delete(key);
      this.models.delete(activityId);
      this.d.log.error({ err: e, activityId }, 'a ranking cell could not be read again');
    }
  }

  /**
   * The award ceremony's standings and steps (decisions §26), for a caller already let see through
   * the freeze: every ranked series cut at its freeze instant, whether or not it has been lifted
   * since, then resolved to the final standings. `awards`: the award keys each user holds.
   */
  async ceremony(a: ActivityRow, awards: ReadonlyMap<string, readonly string[]>): Promise<{ type: RankingType; problems: Ranking['problems']; rows: CeremonyRow[]; steps: CeremonyStep[] }> {
    const model = await this.model(a.id);
    const { all, assigned, participants } = await this.d.tx.read(async (q) => ({
      all: await this.q.seriesOf(q, a.id),
      assigned: await this.q.assignmentsOf(q, a.id),
      participants: await this.q.participantsOf(q, a.id),
    }));
    const bySeries = new Map(all.filter((s) => s.importanceScope !== 'none').map((s) => [s.id, s]));
    const problems = assigned.filter((p) => bySeries.has(p.seriesId));
    const columns = problems.map((p) => {
      const s = bySeries.get(p.seriesId)!;
      return { ...column(p, s, a, null, null), cutoff: s.rankingFreezeAt };
    });
    const type: RankingType = a.rankingType === 'points' ? 'points' : 'icpc';
    const resolved = resolve({ type, columns, participants, submissionsOf: (userId) => model.submissionsOf(userId), awards });
    return { type, problems: problems.map((p) => compact({ id: p.id, slug: p.slug, name: p.name, seriesId: p.seriesId, maxPoints: p.maxPoints })), ...resolved };
  }

  /**
   * Structure changed (series dates, freeze, importance, assignment maxPoints, membership): drops the
   * activity's computed rows. Without an activity, forgets everything, submissions included.
   */
  invalidate(activityId?: string): void {
    if (activityId === undefined) this.models.clear();
    else this.models.get(activityId)?.forgetViews();
  }

  /**
   * The rankingChanged events for a submission whose outcome just changed, each to those who could
   * read it in the ranking now (decisions §10): holders of ranking:read, narrowed by the activity's
   * scoreVisibility (result:read:all, or also the author under participantOnly), and by
   * ranking:read:unfrozen where the freeze or the ranking window hides the result. Those who hold
   * ranking:read but not ranking:read:unfrozen learn of a frozen submission without its result, so
   * that their frozen counts can follow. Submissions of non-participants are in no ranking: none.
   * Called inside the writer's transaction.
   */
  async resultEventsIn(q: Q, submissionId: string): Promise<DomainEvent[]> {
    const [r] = await resultRow(q, submissionId);
    if (!r || !(await this.q.isParticipant(q, r.activityId, r.userId))) return [];
    // only a participantOnly activity asks what its author holds (eventsFor's `author`)
    const author = r.scoreVisibility === 'participantOnly' && r.publishedAt ? await this.d.permissions.of(r.userId, q) : undefined;
    return this.eventsFor(r, (k) => author?.has(k, r.activityId) ?? false);
  }

  /** `authorMay`: whether the submission's author holds a key in its activity. */
  private eventsFor(r: ResultRow, authorMay: (key: Permission) => boolean): DomainEvent[] {
    const now = iso(this.d.clock.now());
    const freeze = activeFreeze(r, now);
    const frozen = freeze !== null && r.submittedAt >= freeze;
    const hidden = frozen || !windowOpen(r, now);
    // the activity itself: only its managers see an unpublished one
    const narrow: Permission[] = r.publishedAt ? [] : ['activity:update'];
    if (r.scoreVisibility !== 'everyone') narrow.push('result:read:all');
    const author = (unless?: Permission) => {
      if (r.scoreVisibility !== 'participantOnly' || !r.publishedAt) return undefined;
      return authorMay('ranking:read') && !(unless && authorMay(unless)) ? [r.userId] : undefined;
    };
    const audience = (extra: Partial<Extract<Audience, { kind: 'permission' }>>): Audience =>
      compact({ kind: 'permission' as const, key: 'ranking:read' as const, activityId: r.activityId, alsoRequires: narrow, ...extra }) as Audience;

    const base = { activityId: r.activityId, change: 'result' as const, seriesId: r.seriesId };
    const shown = rescaled(r.score, r.maxScore, r.maxPoints);
    const result = compact({
      submissionId: r.id,
      userId: r.userId,
      problemId: r.problemId,
      submittedAt: r.submittedAt,
      state: r.state,
      verdict: r.verdict,
      ...shown,
      excluded: r.excluded,
      // the same under the names of the peer's ContestantResult, which its client reads
      id: r.id,
      contestantId: r.userId,
      seriesId: r.seriesId,
      problemSlug: r.problemSlug,
      points: shown.score,
    }) as ResultData;
    if (!hidden) return [event('rankingChanged', { ...base, result }, audience({ alsoUsers: author() }))];
    const out = [event('rankingChanged', { ...base, result }, audience({ alsoRequires: [...narrow, 'ranking:read:unfrozen'] }))];
    if (frozen && windowOpen(r, now)) out.push(event('rankingChanged', base, audience({ unless: 'ranking:read:unfrozen', alsoUsers: author('ranking:read:unfrozen') })));
    return out;
  }
}

/** Who reads the standings: signed out (`userId` null) or not, and what they see through. */
interface Reader {
  a: ActivityRow;
  userId: string | null;
  /** Sees through the freeze and the ranking windows (ranking:read:unfrozen, own view). */
  unfrozen: boolean;
  /** Sees every row with its login (result:read:all, own view). */
  readsAll: boolean;
}

interface Standings {
  type: RankingType;
  problems: Ranking['problems'];
  ranked: Ranked;
  rows: RankingRow[];
  /** The series counted. */
  series: RankedSeries[];
}

function toRanking(s: Standings): Ranking {
  return { rankingType: s.type, frozen: s.ranked.frozen, problems: s.problems, rows: s.rows };
}

/** Whether anybody, signed in or not, may read the activity's public standings (decisions §23). */
export function isPublicScoreboard(a: ActivityRow): boolean {
  return a.publicScoreboard && a.publishedAt !== null;
}

/**
 * The rows with each participant's login, for staff who tell two people of one name apart or
 * export the standings to a gradebook. New row objects: the shared rows (and their JSON) stay as
 * participants get them.
 */
function withUsernames(rows: RankingRow[], participants: readonly Participant[]): RankingRow[] {
  const login = new Map(participants.map((p) => [p.userId, p.username]));
  return rows.map((r) => ({ ...r, username: login.get(r.userId) ?? r.userName }));
}

/**
 * One problem column: where its penalty minutes start, the freeze cut-off the caller sees, its
 * weight. `frozenNow` is the moment a freeze is judged at, or null for a caller who sees through it.
 */
function column(p: RankedAssignment, s: RankedSeries, a: ActivityRow, frozenNow: string | null, weight: number | null): Column {
  const start = s.startDate ?? a.startDate ?? s.openedAt;
  const cutoff = frozenNow === null ? null : activeFreeze(s, frozenNow);
  return {
    assignmentId: p.id,
    maxPoints: p.maxPoints,
    startMs: start ? Date.parse(start) : null,
    cutoff,
    weight: weight ?? s.importance,
  };
}
