import type { EventData, Permission, Ranking, RankingRow } from '@judge/contract';
import type { Actor } from '../../auth/permissions.js';
import { event, type Audience, type DomainEvent } from '../../events/bus.js';
import { notFound } from '@judge/contract';
import type { Deps } from '../../services.js';
import { compact, iso, literalRows, type Rows } from '../../util.js';
import { visibleActivity, type ActivityRow } from '../policy/index.js';
import { rescaled } from '../submissions/index.js';
import { ActivityModel, specOf, type Column, type Participant, type Ranked } from './model.js';
import { RankingQueries, type RankedAssignment, type RankedSeries } from './queries.js';
import { activeFreeze, windowOpen } from './windows.js';

/** Activities whose submissions stay in memory; the least recently ranked one is dropped first. */
const MODELS_KEPT = 32;

type RankingType = Ranking['rankingType'];
/** Whose eyes the standings are computed for (RankingQuery.view). */
export type RankingView = 'own' | 'public';
type ResultData = NonNullable<EventData<'rankingChanged'>['result']>;

/** What resultEvents reads of a submission: the row, its assignment's scale, its series' dates, its activity's rules. */
interface ResultRow {
  id: string;
  userId: string;
  activityId: string;
  seriesId: string;
  problemId: string;
  problemSlug: string;
  submittedAt: string;
  state: string;
  verdict: string | null;
  score: number | null;
  maxScore: number | null;
  excluded: number;
  maxPoints: number | null;
  startDate: string | null;
  rankingFreezeAt: string | null;
  rankingRevealAt: string | null;
  rankingVisibleFrom: string | null;
  rankingVisibleTo: string | null;
  scoreVisibility: string;
  publishedAt: string | null;
}

/**
 * The standings (decisions §9), computed by the server and kept incrementally: each activity's
 * counted submissions are loaded once into memory (one indexed query) and from then on replaced
 * one cell at a time as the judging flow reports changes. The structure (series, assignments,
 * participants) is read on every request, so nobody has to tell the ranking about it; rows are
 * cached per structure and moment ("spec") and recomputed only for the user whose submission changed.
 */
export class RankingService {
  private readonly q: RankingQueries;
  private readonly models = new Map<string, ActivityModel>();
  private readonly resultRow: Rows<[string], ResultRow>;

  constructor(private readonly d: Deps) {
    this.q = new RankingQueries(d.sqlite);
    this.resultRow = literalRows(d.sqlite.prepare<[string], ResultRow>(
      `SELECT s.id, s.user_id AS userId, s.activity_id AS activityId, s.series_id AS seriesId, s.series_problem_id AS problemId, sp.slug AS problemSlug,
              s.submitted_at AS submittedAt, s.state, s.verdict, s.score, s.max_score AS maxScore, s.excluded, sp.max_points AS maxPoints,
              se.start_date AS startDate, se.ranking_freeze_at AS rankingFreezeAt, se.ranking_reveal_at AS rankingRevealAt,
              se.ranking_visible_from AS rankingVisibleFrom, se.ranking_visible_to AS rankingVisibleTo,
              a.score_visibility AS scoreVisibility, a.published_at AS publishedAt
       FROM submissions s
       JOIN series_problems sp ON sp.id = s.series_problem_id
       JOIN series se ON se.id = s.series_id
       JOIN activities a ON a.id = s.activity_id
       WHERE s.id = ?`,
    ));
  }

  /** GET /activities/{idOrSlug}/ranking */
  async get(actor: Actor, idOrSlug: string, seriesId?: string, view: RankingView = 'own'): Promise<Ranking> {
    const s = await this.standings(actor, idOrSlug, seriesId, view);
    return { rankingType: s.type, frozen: s.ranked.frozen, problems: s.problems, rows: s.rows };
  }

  /**
   * The same answer as JSON text. The rows of a large contest are most of it, and every reader
   * who sees all of them gets the same text: it is made once per change of the standings rather
   * than once per request (a result tells every reader to fetch again).
   */
  async json(actor: Actor, idOrSlug: string, seriesId?: string, view: RankingView = 'own'): Promise<string> {
    const s = await this.standings(actor, idOrSlug, seriesId, view);
    // the rows hold no null members, so plain JSON is the wire form (decisions §2)
    const rows = s.rows === s.ranked.rows ? (s.ranked.rowsJson ??= JSON.stringify(s.rows)) : JSON.stringify(s.rows);
    return `{"rankingType":${JSON.stringify(s.type)},"frozen":${s.ranked.frozen},"problems":${JSON.stringify(s.problems)},"rows":${rows}}`;
  }

  /**
   * The standings the caller gets. The public view (a projector's) is computed as for a participant
   * holding nothing but ranking:read, whatever the caller holds, so that it hides exactly what the
   * freeze and the windows hide from participants; the caller still needs ranking:read to ask.
   */
  private async standings(
    actor: Actor,
    idOrSlug: string,
    seriesId: string | undefined,
    view: RankingView,
  ): Promise<{ type: RankingType; problems: Ranking['problems']; ranked: Ranked; rows: RankingRow[] }> {
    const a = await visibleActivity(this.d, actor, idOrSlug);
    const may = (key: Permission) => view === 'own' && this.d.permissions.has(actor.userId, key, a.id);
    this.d.permissions.require(actor, 'ranking:read', a.id);
    const all = this.q.seriesOf(a.id);
    const chosen = seriesId === undefined ? undefined : all.find((s) => s.id === seriesId);
    if (seriesId !== undefined && !chosen) throw notFound('series');

    const unfrozen = may('ranking:read:unfrozen');
    const now = iso(this.d.clock.now());
    // practice series (importanceScope none) only on their own; outside its window a series counts only for those who see through it
    const shown = (chosen ? [chosen] : all.filter((s) => s.importanceScope !== 'none')).filter((s) => unfrozen || windowOpen(s, now));
    const bySeries = new Map(shown.map((s) => [s.id, s]));
    const problems = this.q.assignmentsOf(a.id).filter((p) => bySeries.has(p.seriesId));
    // a series ranked on its own is not weighed against others: its importance does not apply
    const columns = problems.map((p) => column(p, bySeries.get(p.seriesId)!, a, unfrozen ? null : now, chosen ? 1 : null));
    const type: RankingType = a.rankingType === 'points' ? 'points' : 'icpc';
    const participants = this.q.participantsOf(a.id);
    const ranked = this.model(a.id).view(specOf(type, columns)).rank(participants);
    const readsAll = may('result:read:all');
    const rows = this.visibleRows(ranked.rows, a, actor.userId, readsAll);
    return {
      type,
      problems: problems.map((p) => compact({ id: p.id, slug: p.slug, name: p.name, seriesId: p.seriesId, maxPoints: p.maxPoints })),
      ranked,
      rows: readsAll ? withUsernames(rows, participants) : rows,
    };
  }

  /** scoreVisibility: managersOnly shows rows to result:read:all only; participantOnly shows others their own row. */
  private visibleRows(rows: RankingRow[], a: ActivityRow, userId: string, readsAll: boolean): RankingRow[] {
    if (readsAll || a.scoreVisibility === 'everyone') return rows;
    if (a.scoreVisibility === 'managersOnly') return [];
    return rows.filter((r) => r.userId === userId);
  }

  /** The activity's submissions in memory, loaded on first use. */
  /**
   * Loads the submissions of activities that are running now (published, not archived, a series
   * open), so that their first ranking request does not pay for the load. Called once at start.
   */
  warm(): number {
    const ongoing = this.d.sqlite
      .prepare<[number], { id: string }>(
        `SELECT a.id FROM activities a WHERE a.published_at IS NOT NULL AND a.archived_at IS NULL
           AND EXISTS (SELECT 1 FROM series se WHERE se.activity_id = a.id AND se.is_open = 1)
         ORDER BY a.created_at DESC LIMIT ?`,
      )
      .all(MODELS_KEPT);
    for (const a of ongoing) this.model(a.id);
    return ongoing.length;
  }

  private model(activityId: string): ActivityModel {
    let m = this.models.get(activityId);
    if (m) {
      this.models.delete(activityId);
    } else {
      m = new ActivityModel();
      this.q.load(activityId, m);
      const oldest = this.models.size >= MODELS_KEPT ? this.models.keys().next().value : undefined;
      if (oldest !== undefined) this.models.delete(oldest);
    }
    this.models.set(activityId, m);
    return m;
  }

  /**
   * After commit: a submission of `userId` on assignment `seriesProblemId` was created, judged,
   * rejudged, cancelled, excluded or included. Re-reads that one cell (submissions_assignment_user);
   * an activity not in memory is read whole when next ranked anyway.
   */
  submissionChanged(activityId: string, userId: string, seriesProblemId: string): void {
    this.models.get(activityId)?.replaceCell(userId, seriesProblemId, this.q.cellOf(seriesProblemId, userId));
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
  resultEvents(submissionId: string): DomainEvent[] {
    const r = this.resultRow.get(submissionId);
    if (!r || !this.q.isParticipant(r.activityId, r.userId)) return [];
    const now = iso(this.d.clock.now());
    const freeze = activeFreeze(r, now);
    const frozen = freeze !== null && r.submittedAt >= freeze;
    const hidden = frozen || !windowOpen(r, now);
    // the activity itself: only its managers see an unpublished one
    const narrow: Permission[] = r.publishedAt ? [] : ['activity:update'];
    if (r.scoreVisibility !== 'everyone') narrow.push('result:read:all');
    const author = (unless?: Permission) => {
      if (r.scoreVisibility !== 'participantOnly' || !r.publishedAt) return undefined;
      const may = (k: Permission) => this.d.permissions.has(r.userId, k, r.activityId);
      return may('ranking:read') && !(unless && may(unless)) ? [r.userId] : undefined;
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
      excluded: r.excluded === 1,
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
