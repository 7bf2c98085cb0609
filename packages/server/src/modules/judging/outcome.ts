import { eq, sql, type AnyColumn } from 'drizzle-orm';
import { attempts, seriesProblems, submissions } from '../../db/schema.js';
import { prepared, type Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { event, type DomainEvent } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { standingOf, standingOnAssignment } from '../participant/index.js';
import { toSummary, type SubmissionRow } from '../submissions/index.js';
import { submissionRow } from './submission-row.js';

/** What the judging flow asks of the ranking: refresh one cell after commit, and who to tell of a result. */
export interface RankingHooks {
  submissionChanged(activityId: string, userId: string, seriesProblemId: string): void;
  /** The ranking's events for a submission's new result, read inside the caller's transaction (`q`). */
  resultEvents(q: Q, submissionId: string): Promise<DomainEvent[]>;
}

type Changes = { stateChanged: boolean; resultChanged: boolean };

/** A column of the updated submission's newest attempt (attempts_number answers it from the index). */
const newest = (column: AnyColumn) =>
  sql`(select ${column} from ${attempts} where ${attempts.submissionId} = ${submissions.id} order by ${attempts.attempt} desc limit 1)`;

/**
 * Keeps a submission's row in step with its newest attempt (decisions §6: a submission's state is
 * its newest attempt's) and tells who must know: the author (`submissionStateChanged`, and
 * `problemStatusChanged` when the outcome changed), the managers (`submissionChanged`) and the
 * ranking's readers (`rankingChanged`). Runs inside the caller's transaction (its `q`); events
 * leave after commit.
 */
export class SubmissionOutcome {
  private readonly bus: Deps['bus'];

  constructor(
    d: Deps,
    private readonly ranking: RankingHooks,
  ) {
    this.bus = d.bus;
  }

  /**
   * Re-derives the submission from its attempts and announces it. `stateChanged`: an attempt was
   * queued, claimed, finished or cancelled (the author hears of it); `resultChanged`: what counts
   * for standings and ranking may differ now (a result, an exclusion).
   */
  async settle(q: Q, submissionId: string, out: Outbox, opts: Changes): Promise<SubmissionRow> {
    await this.derive(q, submissionId);
    const row = (await submissionRow(q, submissionId))!;
    // the events' payloads (the summary, the author's standing, the ranking's audiences) are
    // several reads a job: not made when no socket is open to receive them
    if (this.bus.listening) await this.announce(q, row, out, opts);
    out.then(() => this.ranking.submissionChanged(row.activityId, row.userId, row.seriesProblemId));
    out.note({ what: 'submission', activityId: row.activityId, userId: row.userId, seriesProblemId: row.seriesProblemId });
    return row;
  }

  /**
   * settle for a caller that does not need the submission back (the runner protocol's claim,
   * report and requeue): with nobody listening, only the three ids the caches are told of are
   * read, not the submission with its names.
   */
  async update(q: Q, submissionId: string, out: Outbox, opts: Changes): Promise<void> {
    if (this.bus.listening) {
      await this.settle(q, submissionId, out, opts);
      return;
    }
    const keys = await this.derive(q, submissionId);
    if (!keys) return;
    out.then(() => this.ranking.submissionChanged(keys.activityId, keys.userId, keys.seriesProblemId));
    out.note({ what: 'submission', ...keys });
  }

  /**
   * A runner reported progress on the submission's running attempt: the author and the managers
   * hear of it (the summary carries `progress`); nothing that counts changed, so no caches move.
   */
  async progressed(q: Q, submissionId: string, out: Outbox): Promise<void> {
    if (!this.bus.listening) return;
    const row = await submissionRow(q, submissionId);
    if (!row || row.state !== 'running') return;
    await this.announce(q, row, out, { stateChanged: true, resultChanged: false });
  }

  /**
   * The submission's state and result as its newest attempt's, in one statement; the ids its
   * caches are keyed by. Attempts are numbered 1, 2, … without gaps (attempts_number), so the
   * newest one's number is how many there are.
   */
  private async derive(q: Q, submissionId: string): Promise<{ activityId: string; userId: string; seriesProblemId: string } | undefined> {
    const [keys] = await deriveOutcome(q, { id: submissionId });
    return keys;
  }

  /**
   * The events a settled submission gives: the author's and the managers' always; when what counts
   * changed, the author's new standing on the problem (its place in their series list) and the
   * ranking's.
   */
  private async announce(q: Q, row: SubmissionRow, out: Outbox, opts: Changes): Promise<void> {
    const submission = toSummary(row);
    const author = { kind: 'users' as const, userIds: [row.userId] };
    // problemId: the assignment, as the peer's participant summary names it
    if (opts.stateChanged) out.emit(event('submissionStateChanged', { activityId: row.activityId, submission: { ...submission, problemId: row.seriesProblemId } }, author));
    out.emit(event('submissionChanged', { activityId: row.activityId, submission }, { kind: 'permission', key: 'submission:read:all', activityId: row.activityId }));
    if (!opts.resultChanged) return;
    const [assignment] = await q.select({ order: seriesProblems.order }).from(seriesProblems).where(eq(seriesProblems.id, row.seriesProblemId)).limit(1);
    const standing = standingOf(await standingOnAssignment(q, row.userId, row.activityId, row.seriesProblemId), row.maxPoints);
    out.emit(
      event(
        'problemStatusChanged',
        {
          activityId: row.activityId,
          seriesId: row.seriesId,
          // the problem as the author's series list shows it
          problem: { id: row.seriesProblemId, slug: row.problemSlug, name: row.problemName, order: assignment?.order ?? 0, ...standing },
        },
        author,
      ),
    );
    for (const e of await this.ranking.resultEvents(q, row.id)) out.emit(e);
  }
}

/* Run on every claim and report: built once per `q` (storage.ts, prepared()). */
const deriveOutcome = prepared((q) =>
  q
    .update(submissions)
    .set({
      state: sql`coalesce(${newest(attempts.state)}, ${submissions.state})`,
      verdict: sql`${newest(attempts.verdict)}`,
      score: sql`${newest(attempts.score)}`,
      maxScore: sql`${newest(attempts.maxScore)}`,
      attempts: sql`coalesce(${newest(attempts.attempt)}, ${submissions.attempts})`,
    })
    .where(eq(submissions.id, sql.placeholder('id')))
    .returning({ activityId: submissions.activityId, userId: submissions.userId, seriesProblemId: submissions.seriesProblemId })
    .prepare(),
);
