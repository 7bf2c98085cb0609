import type Database from 'better-sqlite3';
import type { Outbox } from '../../db/transactor.js';
import { event, type DomainEvent } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { literalRows, type Rows } from '../../util.js';
import { Standings, standingOf } from '../participant/index.js';
import { SUBMISSION_SELECT, toSummary, type SubmissionRow } from '../submissions/index.js';

/** What the judging flow asks of the ranking: refresh one cell after commit, and who to tell of a result. */
export interface RankingHooks {
  submissionChanged(activityId: string, userId: string, seriesProblemId: string): void;
  resultEvents(submissionId: string): DomainEvent[];
}

interface Newest {
  state: string;
  verdict: string | null;
  score: number | null;
  maxScore: number | null;
  n: number;
}

/**
 * Keeps a submission's row in step with its newest attempt (decisions §6: a submission's state is
 * its newest attempt's) and tells who must know: the author (`submissionStateChanged`, and
 * `problemStatusChanged` when the outcome changed), the managers (`submissionChanged`) and the
 * ranking's readers (`rankingChanged`). Runs inside the caller's transaction; events leave after commit.
 */
export class SubmissionOutcome {
  private readonly newest: Rows<[string], Newest>;
  private readonly store: Database.Statement<[string, string | null, number | null, number | null, number, string]>;
  private readonly byId: Rows<[string], SubmissionRow>;
  private readonly keys: Database.Statement<[string], [string, string, string]>;
  private readonly order: Database.Statement<[string], number>;
  private readonly standings: Standings;
  private readonly bus: Deps['bus'];

  constructor(
    d: Deps,
    private readonly ranking: RankingHooks,
  ) {
    this.bus = d.bus;
    this.newest = literalRows(
      d.sqlite.prepare<[string], Newest>(
        `SELECT state, verdict, score, max_score AS maxScore, (SELECT count(*) FROM attempts WHERE submission_id = a.submission_id) AS n
         FROM attempts a WHERE submission_id = ? ORDER BY attempt DESC LIMIT 1`,
      ),
    );
    this.store = d.sqlite.prepare('UPDATE submissions SET state = ?, verdict = ?, score = ?, max_score = ?, attempts = ? WHERE id = ?');
    this.byId = literalRows(d.sqlite.prepare<[string], SubmissionRow>(`${SUBMISSION_SELECT} WHERE s.id = ?`));
    this.keys = d.sqlite.prepare<[string], [string, string, string]>('SELECT activity_id, user_id, series_problem_id FROM submissions WHERE id = ?').raw(true);
    this.standings = new Standings(d.sqlite);
    this.order = d.sqlite.prepare<[string], number>('SELECT "order" FROM series_problems WHERE id = ?').pluck();
  }

  row(submissionId: string): SubmissionRow | undefined {
    return this.byId.get(submissionId);
  }

  /**
   * Re-derives the submission from its attempts and announces it. `stateChanged`: an attempt was
   * queued, claimed, finished or cancelled (the author hears of it); `resultChanged`: what counts
   * for standings and ranking may differ now (a result, an exclusion).
   */
  settle(submissionId: string, out: Outbox, opts: { stateChanged: boolean; resultChanged: boolean }): SubmissionRow {
    this.derive(submissionId);
    const row = this.byId.get(submissionId)!;
    // the events' payloads (the summary, the author's standing, the ranking's audiences) are
    // several reads a job: not made when no socket is open to receive them
    if (this.bus.listening) this.announce(row, out, opts);
    out.then(() => this.ranking.submissionChanged(row.activityId, row.userId, row.seriesProblemId));
    return row;
  }

  /**
   * settle for a caller that does not need the submission back (the runner protocol's claim,
   * report and requeue): with nobody listening, only the three ids the caches are told of are
   * read, not the submission with its names.
   */
  update(submissionId: string, out: Outbox, opts: { stateChanged: boolean; resultChanged: boolean }): void {
    if (this.bus.listening) {
      this.settle(submissionId, out, opts);
      return;
    }
    this.derive(submissionId);
    const [activityId, userId, assignmentId] = this.keys.get(submissionId)!;
    out.then(() => this.ranking.submissionChanged(activityId, userId, assignmentId));
  }

  /**
   * A runner reported progress on the submission's running attempt: the author and the managers
   * hear of it (the summary carries `progress`); nothing that counts changed, so no caches move.
   */
  progressed(submissionId: string, out: Outbox): void {
    if (!this.bus.listening) return;
    const row = this.byId.get(submissionId);
    if (!row || row.state !== 'running') return;
    this.announce(row, out, { stateChanged: true, resultChanged: false });
  }

  /** The submission's state and result as its newest attempt's. */
  private derive(submissionId: string): void {
    const n = this.newest.get(submissionId);
    if (n) this.store.run(n.state, n.verdict, n.score, n.maxScore, n.n, submissionId);
  }

  private announce(row: SubmissionRow, out: Outbox, opts: { stateChanged: boolean; resultChanged: boolean }): void {
    const submission = toSummary(row);
    const author = { kind: 'users' as const, userIds: [row.userId] };
    // problemId: the assignment, as the peer's participant summary names it
    if (opts.stateChanged) out.emit(event('submissionStateChanged', { activityId: row.activityId, submission: { ...submission, problemId: row.seriesProblemId } }, author));
    out.emit(event('submissionChanged', { activityId: row.activityId, submission }, { kind: 'permission', key: 'submission:read:all', activityId: row.activityId }));
    if (opts.resultChanged) {
      const standing = standingOf(this.standings.ofAssignment(row.userId, row.activityId, row.seriesProblemId), row.maxPoints);
      out.emit(
        event(
          'problemStatusChanged',
          {
            activityId: row.activityId,
            seriesId: row.seriesId,
            // the problem as the author's series list shows it
            problem: { id: row.seriesProblemId, slug: row.problemSlug, name: row.problemName, order: this.order.get(row.seriesProblemId) ?? 0, ...standing },
          },
          author,
        ),
      );
      for (const e of this.ranking.resultEvents(row.id)) out.emit(e);
    }
  }
}
