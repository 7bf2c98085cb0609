import type Database from 'better-sqlite3';
import type { Outbox } from '../../db/transactor.js';
import type { Deps } from '../../services.js';
import { iso, literalRows, newId, type Rows } from '../../util.js';
import { Standings } from '../participant/index.js';
import { SUBMISSION_SELECT, type SubmissionRow } from '../submissions/index.js';
import { announceSettled, type RankingHooks } from './outcome.js';

interface Newest {
  state: string;
  verdict: string | null;
  score: number | null;
  maxScore: number | null;
  n: number;
}

/**
 * SubmissionOutcome.settle for callers still inside the synchronous transaction (`d.tx.run`: the
 * submissions area's submit, rejudge, cancel and exclusion), which cannot await: the same
 * derivation and the same events, read with statements on the one SQLite connection.
 * Transitional: it goes once those callers write with `d.tx.write` and await `settle(q, …)`.
 */
export class SynchronousSettle {
  private readonly newest: Rows<[string], Newest>;
  private readonly store: Database.Statement<[string, string | null, number | null, number | null, number, string]>;
  private readonly byId: Rows<[string], SubmissionRow>;
  private readonly order: Database.Statement<[string], number>;
  private readonly standings: Standings;

  constructor(
    private readonly d: Deps,
    private readonly ranking: RankingHooks,
  ) {
    const s = d.sqlite;
    this.newest = literalRows(
      s.prepare<[string], Newest>(
        `SELECT state, verdict, score, max_score AS maxScore, (SELECT count(*) FROM attempts WHERE submission_id = a.submission_id) AS n
         FROM attempts a WHERE submission_id = ? ORDER BY attempt DESC LIMIT 1`,
      ),
    );
    this.store = s.prepare('UPDATE submissions SET state = ?, verdict = ?, score = ?, max_score = ?, attempts = ? WHERE id = ?');
    this.byId = literalRows(s.prepare<[string], SubmissionRow>(`${SUBMISSION_SELECT} WHERE s.id = ?`));
    this.order = s.prepare<[string], number>('SELECT "order" FROM series_problems WHERE id = ?').pluck();
    this.standings = new Standings(s);
  }

  settle(submissionId: string, out: Outbox, opts: { stateChanged: boolean; resultChanged: boolean }): SubmissionRow {
    const n = this.newest.get(submissionId);
    if (n) this.store.run(n.state, n.verdict, n.score, n.maxScore, n.n, submissionId);
    const row = this.byId.get(submissionId)!;
    if (this.d.bus.listening) {
      announceSettled(row, out, opts, {
        standing: () => this.standings.ofAssignment(row.userId, row.activityId, row.seriesProblemId),
        order: this.order.get(row.seriesProblemId) ?? 0,
        resultEvents: () => this.ranking.resultEvents(row.id),
      });
    }
    out.then(() => this.ranking.submissionChanged(row.activityId, row.userId, row.seriesProblemId));
    return row;
  }
}

/**
 * TrialsService.calibrate for the problems area's synchronous transaction (a new version whose
 * package names no time limit): the same row, written on the one SQLite connection inside it.
 * Transitional: it goes once that caller writes with `d.tx.write` and awaits `calibrate(q, …)`.
 */
export function queueCalibrationNow(d: Deps, v: { versionId: string; problemType: string; packageFileId: string }): void {
  d.sqlite
    .prepare('INSERT INTO trials (id, state, problem_type, package_file_id, created_at, calibrates_version_id) VALUES (?, ?, ?, ?, ?, ?)')
    .run(newId(), 'queued', v.problemType, v.packageFileId, iso(d.clock.now()), v.versionId);
}
