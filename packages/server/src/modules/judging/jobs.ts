import type { ClaimedJob, OperationInput, ops } from '@judge/contract';
import type Database from 'better-sqlite3';
import type { RunnerActor } from '../../auth/runner-tokens.js';
import type { Outbox } from '../../db/transactor.js';
import { ApiError } from '@judge/contract';
import type { Deps } from '../../services.js';
import { compact, iso, literalRows, newId, newSecret, sha256Hex, statements, type Rows } from '../../util.js';
import { jobMaxima } from '../../config.js';
import type { SubmissionOutcome } from './outcome.js';
import { DetailReader } from '../submissions/index.js';
import { requiredTags, tagsSatisfied } from '../runners/index.js';
import { WorkSignal, afterReturn, extendedLease, leaseSeconds, requireHeld, type Return } from './lease.js';

type ReportBody = OperationInput<typeof ops.reportJob>['body'];

interface Candidate {
  id: string;
  seriesTags: string;
  activityTags: string;
}

interface JobRow {
  id: string;
  submissionId: string;
  attempt: number;
  state: string;
  runnerId: string | null;
  leaseHash: string | null;
  leaseExpiresAt: string | null;
  deliveries: number;
  resultId: string | null;
  failedLeaseHash: string | null;
  failedReportId: string | null;
}

interface Claimed {
  submissionId: string;
  attempt: number;
  problemType: string;
  problemVersionId: string;
  props: string | null;
  versionProps: string | null;
  config: string | null;
  packageFileId: string | null;
  packageSha256: string | null;
  packageInfo: string | null;
}

/** What a long poll ends with when no job came but a sample run waits for the runner. */
const EARLY = Symbol('a sample run waits');

/** Queued jobs are read this many at a time while looking for one whose tags the runner has. */
const CANDIDATES = 64;

/**
 * The job side of the runner protocol (decisions §7, §8): claiming under a lease with long polls,
 * renewing, progress, release, reports (one result per job; repeats are duplicates), the files of
 * held jobs, and the reaper's requeue. Every claim and report is one transaction, so two runners
 * can never hold the same job.
 */
export class JobsService {
  readonly signal = new WorkSignal();
  private readonly candidates: Database.Statement<[string, number], Candidate>;
  private readonly take: Database.Statement<[string, string, string, string, string, string]>;
  private readonly claimed: Rows<[string], Claimed>;
  private readonly job: Rows<[string], JobRow>;
  private readonly heldFile: Database.Statement<[string, string, string, string, string, string, string]>;
  private readonly q;
  private readonly details: DetailReader;

  constructor(
    private readonly d: Deps,
    private readonly outcome: SubmissionOutcome,
  ) {
    const s = d.sqlite;
    this.q = statements(s);
    this.details = new DetailReader(s);
    // attempts_queue (state, priority, created_at) hands them out in order; the type filter is a probe per row.
    // The LIMIT is written out: a bound LIMIT made SQLite prepare the statement again on every claim.
    this.candidates = s.prepare(
      `SELECT a.id, se.runner_tags AS seriesTags, ac.runner_tags AS activityTags
       FROM attempts a JOIN submissions sb ON sb.id = a.submission_id JOIN series se ON se.id = sb.series_id JOIN activities ac ON ac.id = sb.activity_id
       WHERE a.state = 'queued' AND a.problem_type IN (SELECT value FROM json_each(?))
       ORDER BY a.priority, a.created_at, a.id LIMIT ${CANDIDATES} OFFSET ?`,
    );
    this.take = s.prepare(
      `UPDATE attempts SET state = 'running', runner_id = ?, runner_name = ?, lease_hash = ?, lease_expires_at = ?, claimed_at = ?,
              deliveries = deliveries + 1, progress_done = NULL, progress_total = NULL
       WHERE id = ? AND state = 'queued'`,
    );
    this.claimed = literalRows(s.prepare<[string], Claimed>(
      `SELECT a.submission_id AS submissionId, a.attempt, a.problem_type AS problemType, a.problem_version_id AS problemVersionId,
              sb.props, pv.props AS versionProps, sp.config,
              pkg.file_id AS packageFileId, f.sha256 AS packageSha256, pv.package_info AS packageInfo
       FROM attempts a JOIN submissions sb ON sb.id = a.submission_id JOIN series_problems sp ON sp.id = sb.series_problem_id
       JOIN problem_versions pv ON pv.id = a.problem_version_id
       LEFT JOIN problem_version_files pkg ON pkg.version_id = pv.id AND pkg.role = 'package'
       LEFT JOIN files f ON f.id = pkg.file_id
       WHERE a.id = ?`,
    ));
    this.job = literalRows(s.prepare<[string], JobRow>(
      `SELECT id, submission_id AS submissionId, attempt, state, runner_id AS runnerId, lease_hash AS leaseHash, lease_expires_at AS leaseExpiresAt,
              deliveries, result_id AS resultId, failed_lease_hash AS failedLeaseHash, failed_report_id AS failedReportId
       FROM attempts WHERE id = ?`,
    ));
    // a file a runner may fetch: of a job it holds (the version's files, the submission's files) or the package of a trial it holds
    this.heldFile = s.prepare(
      `SELECT 1 FROM attempts a WHERE a.runner_id = ? AND a.state = 'running' AND (
         EXISTS (SELECT 1 FROM submission_files sf WHERE sf.submission_id = a.submission_id AND sf.file_id = ?)
         OR EXISTS (SELECT 1 FROM problem_version_files pvf WHERE pvf.version_id = a.problem_version_id AND pvf.file_id = ?))
       UNION ALL SELECT 1 FROM trials t WHERE t.runner_id = ? AND t.state = 'running' AND t.package_file_id = ?
       UNION ALL SELECT 1 FROM sample_runs r JOIN problem_version_files pkg ON pkg.version_id = r.problem_version_id AND pkg.role = 'package'
         WHERE r.runner_id = ? AND r.state = 'running' AND pkg.file_id = ? LIMIT 1`,
    );
  }

  // ---- claiming ----

  /**
   * Whether other work (a queued trial) waits for this runner: a runner asks for jobs first, with a
   * long poll, and for trials only when none came, so the long poll must end when a trial is queued
   * or a trial would wait out the whole poll with the runner idle.
   */
  otherWork: (runner: RunnerActor) => boolean = () => false;
  /**
   * Whether work that goes before jobs waits for this runner: a calibration trial, since until it
   * reports every submission of its version is judged at the runner's default limit instead of the
   * package's own.
   */
  workFirst: (runner: RunnerActor) => boolean = () => false;
  /**
   * Whether a sample run this runner could take is waiting: set by Judging. A runner that takes
   * sample runs ends its job long poll early for one (it claims it next), since they share runners.
   */
  sampleRunWaiting: (runner: RunnerActor) => boolean = () => false;

  /**
   * The next job for this runner, waiting up to `waitSeconds` for one to be queued; null when none
   * came, when other work waits (a trial), or (`sampleRuns`) when none is queued but a sample run
   * this runner could take is.
   */
  async claim(runner: RunnerActor, body: { leaseSeconds?: number; waitSeconds?: number; sampleRuns?: boolean }, abort?: AbortSignal): Promise<ClaimedJob | null> {
    const lease = leaseSeconds(body.leaseSeconds);
    const take = () => (this.workFirst(runner) ? null : (this.claimNow(runner, lease) ?? (body.sampleRuns && this.sampleRunWaiting(runner) ? EARLY : null)));
    const got = await this.signal.poll(take, body.waitSeconds ?? 0, abort, () => this.otherWork(runner));
    return got === EARLY ? null : got;
  }

  /** Whether a queued job is one this runner could claim now: sample runs wait behind every such job. */
  jobWaiting(runner: RunnerActor): boolean {
    return this.firstFit(runner) !== undefined;
  }

  private firstFit(runner: RunnerActor): string | undefined {
    if (!runner.problemTypes.length) return undefined;
    const types = JSON.stringify(runner.problemTypes);
    for (let offset = 0; ; offset += CANDIDATES) {
      // stepped one row at a time and left at the first fit: usually the first row is the job,
      // and reading (and joining) the whole batch would cost several times the rest of the claim
      let read = 0;
      for (const c of this.candidates.iterate(types, offset)) {
        read++;
        if (tagsSatisfied(requiredTags(JSON.parse(c.seriesTags) as string[], JSON.parse(c.activityTags) as string[]), runner.tags)) return c.id;
      }
      if (read < CANDIDATES) return undefined;
    }
  }

  private claimNow(runner: RunnerActor, lease: number): ClaimedJob | null {
    return this.d.tx.run((out) => {
      const pick = this.firstFit(runner);
      return pick ? this.hand(pick, runner, lease, out) : null;
    });
  }

  private hand(jobId: string, runner: RunnerActor, lease: number, out: Outbox): ClaimedJob {
    const now = this.d.clock.now();
    const token = newSecret();
    const expires = iso(new Date(now.getTime() + lease * 1000));
    this.take.run(runner.runnerId, runner.name, sha256Hex(token), expires, iso(now), jobId);
    // a new delivery starts clean: files an earlier delivery attached without giving the result
    // (infrastructure failure, release, lapse) must not take the names this one attaches
    this.q('DELETE FROM attempt_files WHERE attempt_id = ?').run(jobId);
    const c = this.claimed.get(jobId)!;
    this.outcome.update(c.submissionId, out, { stateChanged: true, resultChanged: false });
    return compact({
      jobId,
      submissionId: c.submissionId,
      attempt: c.attempt,
      leaseToken: token,
      leaseExpiresAt: expires,
      problemType: c.problemType,
      problemVersionId: c.problemVersionId,
      packageFileId: c.packageFileId ?? '',
      packageSha256: c.packageSha256 ?? '',
      files: this.details.files(c.submissionId),
      props: c.props ? (JSON.parse(c.props) as Record<string, unknown>) : null,
      problemVersionProps: c.versionProps ? (JSON.parse(c.versionProps) as Record<string, unknown>) : null,
      config: c.config ? (JSON.parse(c.config) as Record<string, unknown>) : null,
      maxima: jobMaxima(this.d.config),
      timeLimitSeconds: computedTimeLimit(c.packageInfo),
    }) as ClaimedJob;
  }

  // ---- holding ----

  renew(runner: RunnerActor, jobId: string, leaseToken: string, asked?: number): { jobId: string; leaseToken: string; leaseExpiresAt: string } {
    return this.d.tx.run(() => {
      const j = requireHeld(this.job.get(jobId), runner.runnerId, leaseToken, 'job');
      const expires = extendedLease(j.leaseExpiresAt, this.d.clock.now(), leaseSeconds(asked));
      this.q('UPDATE attempts SET lease_expires_at = ? WHERE id = ?').run(expires, jobId);
      return { jobId, leaseToken, leaseExpiresAt: expires };
    });
  }

  progress(runner: RunnerActor, jobId: string, body: { leaseToken: string; done?: number; total?: number }): void {
    this.d.tx.run((out) => {
      const j = requireHeld(this.job.get(jobId), runner.runnerId, body.leaseToken, 'job');
      const expires = extendedLease(j.leaseExpiresAt, this.d.clock.now(), leaseSeconds(undefined));
      this.q('UPDATE attempts SET lease_expires_at = ?, progress_done = coalesce(?, progress_done), progress_total = coalesce(?, progress_total) WHERE id = ?')
        .run(expires, body.done ?? null, body.total ?? null, jobId);
      // a bare lease renewal through progress tells nobody anything
      if (body.done !== undefined || body.total !== undefined) this.outcome.progressed(j.submissionId, out);
    });
  }

  /** Gives a held job back at once. A polite release is not a failed delivery. */
  release(runner: RunnerActor, jobId: string, leaseToken: string): void {
    this.d.tx.run((out) => {
      const j = requireHeld(this.job.get(jobId), runner.runnerId, leaseToken, 'job');
      this.giveBack(j.id, out, { released: true });
    });
  }

  /**
   * The only way a running job leaves its runner without a result (released, infrastructure
   * failure, lease lapsed, runner revoked or its process gone): back in the queue, or, after
   * MAX_DELIVERIES failed deliveries, given up with the reason (lease.ts afterReturn).
   */
  private giveBack(jobId: string, out: Outbox, why: Return): void {
    const j = this.job.get(jobId);
    if (!j || j.state !== 'running') return;
    const next = afterReturn(j.deliveries, why);
    if (!next.requeue) return this.giveUp(jobId, next.failure, out);
    // a failed delivery waits behind first attempts, as a rejudge does: a submission that brings
    // its runner down is judged again only after the ones submitted since, which it cannot hold up
    this.q(
        `UPDATE attempts SET state = 'queued', runner_id = NULL, lease_hash = NULL, lease_expires_at = NULL, claimed_at = NULL,
                progress_done = NULL, progress_total = NULL, deliveries = deliveries - ?, priority = max(priority, ?)
         WHERE id = ? AND state = 'running'`,
      )
      .run(next.countDelivery ? 0 : 1, next.countDelivery ? 1 : 0, jobId);
    this.outcome.update(j.submissionId, out, { stateChanged: true, resultChanged: false });
    out.then(() => this.signal.notify());
  }

  /** A job that was handed out too often without a result: given up as failed. */
  private giveUp(jobId: string, reason: string, out: Outbox): void {
    this.q(
        `UPDATE attempts SET state = 'failed', failure_reason = ?, finished_at = ?, runner_id = NULL, lease_hash = NULL, lease_expires_at = NULL, result_id = ?
         WHERE id = ? AND state IN ('queued', 'running')`,
      )
      .run(reason, iso(this.d.clock.now()), newId(), jobId);
    const j = this.job.get(jobId)!;
    this.outcome.update(j.submissionId, out, { stateChanged: true, resultChanged: true });
  }

  // ---- reporting ----

  report(runner: RunnerActor, jobId: string, body: ReportBody): { resultId: string; state: 'completed' | 'failed'; duplicate: boolean } {
    return this.d.tx.run((out) => {
      const found = this.job.get(jobId);
      const hash = sha256Hex(body.leaseToken);
      // one result per job: the same delivery reporting again is told so, and nothing changes
      if (found?.resultId && found.leaseHash === hash && found.runnerId === runner.runnerId) {
        return { resultId: found.resultId, state: found.state === 'completed' ? 'completed' : 'failed', duplicate: true };
      }
      if (found?.failedReportId && found.failedLeaseHash === hash) return { resultId: found.failedReportId, state: 'failed', duplicate: true };
      const j = requireHeld(found, runner.runnerId, body.leaseToken, 'job');
      const now = iso(this.d.clock.now());
      const resultId = newId();
      if (body.infrastructureFailure) {
        const reason = body.failureReason?.trim() || 'The runner reported an infrastructure failure';
        this.attachFiles(runner, j.id, body.files ?? []);
        this.q('UPDATE attempts SET failed_lease_hash = ?, failed_report_id = ?, failure_reason = ? WHERE id = ?').run(hash, resultId, reason, j.id);
        this.giveBack(j.id, out, { reason });
        // given up: the final result keeps this delivery's token, so a repeat of this report is a duplicate
        if (this.job.get(j.id)!.state === 'failed') {
          this.q('UPDATE attempts SET result_id = ?, lease_hash = ?, runner_id = ? WHERE id = ?').run(resultId, hash, runner.runnerId, j.id);
        }
        return { resultId, state: 'failed', duplicate: false };
      }
      if (!body.verdict) throw ApiError.of('result.verdict.missing', 'A report needs a verdict unless it is an infrastructure failure', { verdict: ['required'] });
      this.attachFiles(runner, j.id, body.files ?? []);
      this.q(
          `UPDATE attempts SET state = 'completed', verdict = ?, score = ?, max_score = ?, extra = ?, props = ?, runner_version = ?,
                  finished_at = ?, lease_expires_at = NULL, result_id = ?, failure_reason = NULL
           WHERE id = ?`,
        )
        .run(
          body.verdict,
          body.score ?? null,
          body.maxScore ?? null,
          body.extra ? JSON.stringify(body.extra) : null,
          body.props ? JSON.stringify(body.props) : null,
          body.runnerVersion ?? null,
          now,
          resultId,
          j.id,
        );
      this.q('UPDATE runners SET completed_jobs = completed_jobs + 1 WHERE id = ?').run(runner.runnerId);
      this.outcome.update(j.submissionId, out, { stateChanged: true, resultChanged: true });
      return { resultId, state: 'completed', duplicate: false };
    });
  }

  /** Attaches a runner's uploads to an attempt; only files this runner uploaded, one per name. */
  private attachFiles(runner: RunnerActor, attemptId: string, list: { name: string; fileId: string }[]): void {
    if (!list.length) return;
    const names = new Set<string>();
    for (const f of list) {
      if (names.has(f.name)) throw ApiError.of('attempt.file.duplicate', `The report names the file ${f.name} twice`);
      names.add(f.name);
    }
    const own = this.q<[string, string], { id: string }>('SELECT id FROM files WHERE id = ? AND uploaded_by_runner = ?');
    const taken = this.q<[string, string], { n: number }>('SELECT count(*) AS n FROM attempt_files WHERE attempt_id = ? AND name = ?');
    const insert = this.q('INSERT INTO attempt_files (attempt_id, name, file_id) VALUES (?, ?, ?)');
    for (const f of list) {
      if (!own.get(f.fileId, runner.runnerId)) throw ApiError.of('file.missing', `No file ${f.fileId} uploaded by this runner`, { fileId: ['unknown'] });
      if (taken.get(attemptId, f.name)!.n) throw ApiError.of('attempt.file.duplicate', `The attempt already has a file named ${f.name}`);
      insert.run(attemptId, f.name, f.fileId);
    }
  }

  attach(runner: RunnerActor, jobId: string, body: { leaseToken: string; fileId: string; name: string }): void {
    this.d.tx.run(() => {
      const j = requireHeld(this.job.get(jobId), runner.runnerId, body.leaseToken, 'job');
      this.attachFiles(runner, j.id, [{ name: body.name, fileId: body.fileId }]);
    });
  }

  /** Whether this runner may download a file: one of a job or trial it holds right now. */
  mayFetch(runner: RunnerActor, fileId: string): boolean {
    return !!this.heldFile.get(runner.runnerId, fileId, fileId, runner.runnerId, fileId, runner.runnerId, fileId);
  }

  // ---- the reaper ----

  /** Jobs whose lease lapsed go back to the queue, or fail after MAX_DELIVERIES. Returns how many were handled. */
  reap(now: Date): number {
    const lapsed = this.q<[string], { id: string }>("SELECT id FROM attempts WHERE state = 'running' AND lease_expires_at <= ?")
      .all(iso(now));
    for (const l of lapsed) {
      this.d.tx.run((out) => {
        // read again: a report may have landed since the list was made
        const j = this.job.get(l.id);
        if (!j || j.state !== 'running' || !j.leaseExpiresAt || j.leaseExpiresAt > iso(now)) return;
        this.giveBack(j.id, out, { reason: 'the runner did not renew its lease in time' });
      });
    }
    return lapsed.length;
  }

  /** Gives back every job a runner holds (it was revoked, or its process ended): failed deliveries, `reason` says why. */
  requeueAllOf(runnerId: string, out: Outbox, reason: string): void {
    const held = this.q<[string], { id: string }>("SELECT id FROM attempts WHERE runner_id = ? AND state = 'running'").all(runnerId);
    for (const h of held) this.giveBack(h.id, out, { reason });
  }
}

/** The limit a calibration trial computed for a version whose package names none (interface: ClaimedJob.timeLimitSeconds). */
export function computedTimeLimit(packageInfo: string | null): number | undefined {
  if (!packageInfo) return undefined;
  const info = JSON.parse(packageInfo) as { timeLimitSeconds?: unknown; timeLimitSource?: unknown };
  return info.timeLimitSource === 'trial' && typeof info.timeLimitSeconds === 'number' ? info.timeLimitSeconds : undefined;
}
