import { SAMPLE_RUN_KEEP_SECONDS, type ClaimedSampleRun, type OperationInput, type ops } from '@judge/contract';
import type { RunnerActor } from '../../auth/runner-tokens.js';
import { jobMaxima } from '../../config.js';
import type { Deps } from '../../services.js';
import { compact, iso, newSecret, sha256Hex, statements } from '../../util.js';
import { requiredTags, tagsSatisfied } from '../runners/index.js';
import { computedTimeLimit, type JobsService } from './jobs.js';
import { extendedLease, leaseSeconds, requireHeld } from './lease.js';

type ReportBody = OperationInput<typeof ops.reportSampleRun>['body'];

interface HeldRow {
  id: string;
  userId: string;
  state: string;
  runnerId: string | null;
  leaseHash: string | null;
  leaseExpiresAt: string | null;
  finishedAt: string | null;
}

interface Queued {
  id: string;
  seriesTags: string;
  activityTags: string;
}

const QUEUED = `SELECT r.id, se.runner_tags AS seriesTags, ac.runner_tags AS activityTags
  FROM sample_runs r JOIN series_problems sp ON sp.id = r.series_problem_id JOIN series se ON se.id = sp.series_id JOIN activities ac ON ac.id = r.activity_id
  WHERE r.state = 'queued' AND r.problem_type IN (SELECT value FROM json_each(?)) ORDER BY r.created_at, r.id LIMIT 64`;

/**
 * The runner's side of sample runs (docs/web-pages.md "Run on samples"): claimed only by runners that ask for
 * them (claimSampleRun; older runners never do), by problem type and runner tags as jobs are, and
 * only while no job the runner could take is waiting, so a burst of them never holds a submission
 * up. A run whose lease lapses or whose runner goes away fails: its author just runs it again.
 * Finished runs are removed SAMPLE_RUN_KEEP_SECONDS after they were made.
 */
export class SampleRunQueue {
  private readonly q;

  constructor(
    private readonly d: Deps,
    private readonly jobs: JobsService,
  ) {
    this.q = statements(d.sqlite);
    jobs.sampleRunWaiting = (runner) => this.firstFit(runner) !== undefined;
  }

  private held(id: string): HeldRow | undefined {
    return this.q<[string], HeldRow>(
      `SELECT id, user_id AS userId, state, runner_id AS runnerId, lease_hash AS leaseHash, lease_expires_at AS leaseExpiresAt, finished_at AS finishedAt
       FROM sample_runs WHERE id = ?`,
    ).get(id);
  }

  private firstFit(runner: RunnerActor): string | undefined {
    if (!runner.problemTypes.length) return undefined;
    for (const c of this.q<[string], Queued>(QUEUED).iterate(JSON.stringify(runner.problemTypes))) {
      if (tagsSatisfied(requiredTags(JSON.parse(c.seriesTags) as string[], JSON.parse(c.activityTags) as string[]), runner.tags)) return c.id;
    }
    return undefined;
  }

  /** A sample run was queued: waiting runners look again once the caller's transaction commits. */
  wake(): void {
    this.jobs.signal.notify();
  }

  /** The next sample run for this runner, unless a job it could take waits (jobs go first). Never waits. */
  claim(runner: RunnerActor, body: { leaseSeconds?: number }): ClaimedSampleRun | null {
    const lease = leaseSeconds(body.leaseSeconds);
    return this.d.tx.run(() => {
      if (this.jobs.jobWaiting(runner)) return null;
      const id = this.firstFit(runner);
      if (!id) return null;
      const now = this.d.clock.now();
      const token = newSecret();
      const expires = iso(new Date(now.getTime() + lease * 1000));
      this.q("UPDATE sample_runs SET state = 'running', runner_id = ?, runner_name = ?, lease_hash = ?, lease_expires_at = ?, claimed_at = ? WHERE id = ?").run(
        runner.runnerId,
        runner.name,
        sha256Hex(token),
        expires,
        iso(now),
        id,
      );
      const r = this.q<[string], { problemType: string; versionId: string; sources: string; language: string | null; config: string | null; fileId: string | null; sha256: string | null; packageInfo: string | null }>(
        `SELECT r.problem_type AS problemType, r.problem_version_id AS versionId, r.sources, r.language, sp.config, pkg.file_id AS fileId, f.sha256, pv.package_info AS packageInfo
         FROM sample_runs r JOIN series_problems sp ON sp.id = r.series_problem_id JOIN problem_versions pv ON pv.id = r.problem_version_id
         LEFT JOIN problem_version_files pkg ON pkg.version_id = pv.id AND pkg.role = 'package' LEFT JOIN files f ON f.id = pkg.file_id
         WHERE r.id = ?`,
      ).get(id)!;
      this.d.log.info({ sampleRun: id, runner: runner.name }, 'sample run claimed');
      return compact({
        sampleRunId: id,
        leaseToken: token,
        leaseExpiresAt: expires,
        problemType: r.problemType,
        problemVersionId: r.versionId,
        packageFileId: r.fileId ?? '',
        packageSha256: r.sha256 ?? '',
        files: JSON.parse(r.sources) as { name: string; code: string }[],
        props: r.language ? { language: r.language } : null,
        config: r.config ? (JSON.parse(r.config) as Record<string, unknown>) : null,
        maxima: jobMaxima(this.d.config),
        timeLimitSeconds: computedTimeLimit(r.packageInfo),
      }) as ClaimedSampleRun;
    });
  }

  renew(runner: RunnerActor, id: string, leaseToken: string, asked?: number) {
    return this.d.tx.run(() => {
      const r = requireHeld(this.held(id), runner.runnerId, leaseToken, 'sample run');
      const expires = extendedLease(r.leaseExpiresAt, this.d.clock.now(), leaseSeconds(asked));
      this.q('UPDATE sample_runs SET lease_expires_at = ? WHERE id = ?').run(expires, id);
      return { sampleRunId: id, leaseToken, leaseExpiresAt: expires };
    });
  }

  report(runner: RunnerActor, id: string, body: ReportBody) {
    return this.d.tx.run(() => {
      const found = this.held(id);
      if (found?.finishedAt && found.leaseHash === sha256Hex(body.leaseToken) && found.runnerId === runner.runnerId) {
        return { sampleRunId: id, state: found.state === 'completed' ? ('completed' as const) : ('failed' as const), duplicate: true };
      }
      requireHeld(found, runner.runnerId, body.leaseToken, 'sample run');
      const failed = !!body.failureReason?.trim() || !body.verdict;
      this.q('UPDATE sample_runs SET state = ?, verdict = ?, compile_output = ?, results = ?, failure_reason = ?, finished_at = ?, lease_expires_at = NULL WHERE id = ?').run(
        failed ? 'failed' : 'completed',
        failed ? null : body.verdict!,
        body.compileOutput ?? null,
        JSON.stringify(body.samples ?? []),
        failed ? body.failureReason?.trim() || 'The runner reported no verdict' : null,
        iso(this.d.clock.now()),
        id,
      );
      // staff see sample runs in the judge log only: they are never submissions
      this.d.log.info({ sampleRun: id, user: found!.userId, runner: runner.name, verdict: body.verdict, failure: body.failureReason }, 'sample run finished');
      return { sampleRunId: id, state: failed ? ('failed' as const) : ('completed' as const), duplicate: false };
    });
  }

  /** Runs whose lease lapsed fail (their author runs them again); finished runs past their keep are removed. */
  reap(now: Date): number {
    const t = iso(now);
    const lapsed = this.q(
      "UPDATE sample_runs SET state = 'failed', failure_reason = 'the runner did not finish in time; run it again', finished_at = ?, lease_hash = NULL, lease_expires_at = NULL WHERE state = 'running' AND lease_expires_at <= ?",
    ).run(t, t).changes;
    this.q('DELETE FROM sample_runs WHERE created_at <= ?').run(iso(new Date(now.getTime() - SAMPLE_RUN_KEEP_SECONDS * 1000)));
    return lapsed;
  }

  /** The runs a runner held when it was revoked or its process ended fail with `reason`. */
  failAllOf(runnerId: string, reason: string): void {
    this.q("UPDATE sample_runs SET state = 'failed', failure_reason = ?, finished_at = ?, lease_hash = NULL, lease_expires_at = NULL WHERE runner_id = ? AND state = 'running'").run(
      reason,
      iso(this.d.clock.now()),
      runnerId,
    );
  }
}

