import type { Trial } from '@judge/contract';
import type { Actor } from '../../auth/permissions.js';
import type { RunnerActor } from '../../auth/runner-tokens.js';
import { ApiError, notFound } from '@judge/contract';
import { PackageError } from '@judge/problem-package';
import { inspectOffLoop } from '../../offloop/inspect-package.js';
import type { Outbox } from '../../db/transactor.js';
import type { Deps } from '../../services.js';
import { compact, iso, newId, newSecret, sha256Hex, statements } from '../../util.js';
import { jobMaxima } from '../../config.js';
import { visibleActivity } from '../policy/index.js';
import type { FilesService } from '../files/index.js';
import { storeComputedTimeLimit } from '../problems/index.js';
import { WorkSignal, afterReturn, extendedLease, leaseSeconds, requireHeld, type Return } from './lease.js';

interface TrialRow {
  id: string;
  activityId: string | null;
  createdBy: string | null;
  state: Trial['state'];
  problemType: string;
  packageFileId: string;
  packageSha256: string;
  createdAt: string;
  claimedAt: string | null;
  finishedAt: string | null;
  runnerId: string | null;
  runnerName: string | null;
  leaseHash: string | null;
  leaseExpiresAt: string | null;
  deliveries: number;
  measurement: string | null;
  failureReason: string | null;
  calibratesVersionId: string | null;
}

const TRIAL_SELECT = `SELECT t.id, t.activity_id AS activityId, t.created_by AS createdBy, t.state, t.problem_type AS problemType,
  t.package_file_id AS packageFileId, f.sha256 AS packageSha256, t.created_at AS createdAt, t.claimed_at AS claimedAt, t.finished_at AS finishedAt,
  t.runner_id AS runnerId, t.runner_name AS runnerName, t.lease_hash AS leaseHash, t.lease_expires_at AS leaseExpiresAt, t.deliveries,
  t.measurement, t.failure_reason AS failureReason, t.calibrates_version_id AS calibratesVersionId
  FROM trials t JOIN files f ON f.id = t.package_file_id`;

/** Unfinished trials a user may have at once: a trial occupies a runner for a whole package. */
const TRIALS_PER_USER = 3;

/**
 * Trials (decisions §8): a package checked by a runner, which judges the package's own example
 * submissions and reports what it measured. They never touch submissions, rankings or limits.
 */
export class TrialsService {
  readonly signal = new WorkSignal();
  private readonly q;

  constructor(
    private readonly d: Deps,
    private readonly files: FilesService,
  ) {
    this.q = statements(d.sqlite);
  }

  private row(id: string): TrialRow | undefined {
    return this.q<[string], TrialRow>(`${TRIAL_SELECT} WHERE t.id = ?`).get(id);
  }

  private view(t: TrialRow): Trial {
    return compact({
      id: t.id,
      activityId: t.activityId,
      state: t.state,
      problemType: t.problemType,
      packageFileId: t.packageFileId,
      createdAt: t.createdAt,
      startedAt: t.claimedAt,
      finishedAt: t.finishedAt,
      runnerName: t.runnerName,
      failureReason: t.failureReason,
      measurement: t.measurement,
    }) as Trial;
  }

  async create(actor: Actor, body: { problemType: string; packageFileId: string; activityIdOrSlug?: string }): Promise<Trial> {
    const activityId = body.activityIdOrSlug ? (await visibleActivity(this.d, actor, body.activityIdOrSlug)).id : null;
    this.d.permissions.require(actor, 'trial:run', activityId);
    const file = await this.files.readable(actor, body.packageFileId);
    // what a problem version would refuse is refused here too, at once rather than by a runner later
    try {
      await inspectOffLoop(this.d.offloop, this.files.blobs.pathOf(file.sha256));
    } catch (e) {
      if (e instanceof PackageError) throw ApiError.of('package.invalid', `The package is not a valid ICPC problem package: ${e.message}`, { packageFileId: [e.message] });
      throw e;
    }
    return this.d.tx.run((out) => {
      const unfinished = this.q<[string], { n: number }>("SELECT count(*) AS n FROM trials WHERE created_by = ? AND state IN ('queued', 'running')").get(actor.userId)!.n;
      if (unfinished >= TRIALS_PER_USER) throw ApiError.of('trial.tooMany', `At most ${TRIALS_PER_USER} trials may wait or run at once; let one finish first`);
      const id = newId();
      this.q('INSERT INTO trials (id, activity_id, created_by, state, problem_type, package_file_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
        id,
        activityId,
        actor.userId,
        'queued',
        body.problemType,
        body.packageFileId,
        iso(this.d.clock.now()),
      );
      out.then(() => this.signal.notify());
      return this.view(this.row(id)!);
    });
  }

  /**
   * The server's own trial of a new version whose package names no time limit: its report gives the
   * version the limit problemtools' rule computes. No user made it, so no user's quota counts it.
   */
  calibrate(v: { versionId: string; problemType: string; packageFileId: string }, out: Outbox): void {
    this.q('INSERT INTO trials (id, state, problem_type, package_file_id, created_at, calibrates_version_id) VALUES (?, ?, ?, ?, ?, ?)').run(
      newId(),
      'queued',
      v.problemType,
      v.packageFileId,
      iso(this.d.clock.now()),
      v.versionId,
    );
    out.then(() => this.signal.notify());
  }

  /** Its author's, or readable by holders of trial:run where it ran; 404 otherwise. */
  get(actor: Actor, id: string): Trial {
    const t = this.row(id);
    if (!t || (t.createdBy !== actor.userId && !this.d.permissions.has(actor.userId, 'trial:run', t.activityId))) throw notFound('trial');
    return this.view(t);
  }

  // ---- the runner's side ----

  async claim(runner: RunnerActor, body: { leaseSeconds?: number; waitSeconds?: number }, abort?: AbortSignal) {
    const lease = leaseSeconds(body.leaseSeconds);
    return this.signal.poll(() => this.claimNow(runner, lease), body.waitSeconds ?? 0, abort);
  }

  /** Whether a trial of one of the runner's problem types (with `calibrating`, a calibration) waits to be claimed. */
  queuedFor(runner: RunnerActor, calibrating = false): boolean {
    if (!runner.problemTypes.length) return false;
    const which = calibrating ? ' AND calibrates_version_id IS NOT NULL' : '';
    return !!this.q<[string], { n: number }>(`SELECT 1 AS n FROM trials WHERE state = 'queued'${which} AND problem_type IN (SELECT value FROM json_each(?)) LIMIT 1`).get(
      JSON.stringify(runner.problemTypes),
    );
  }

  private claimNow(runner: RunnerActor, lease: number) {
    if (!runner.problemTypes.length) return null;
    return this.d.tx.run(() => {
      const next = this.q<[string], { id: string }>(
        "SELECT id FROM trials WHERE state = 'queued' AND problem_type IN (SELECT value FROM json_each(?)) ORDER BY calibrates_version_id IS NULL, created_at, id LIMIT 1",
      ).get(JSON.stringify(runner.problemTypes));
      if (!next) return null;
      const now = this.d.clock.now();
      const token = newSecret();
      const expires = iso(new Date(now.getTime() + lease * 1000));
      this.q(
        "UPDATE trials SET state = 'running', runner_id = ?, runner_name = ?, lease_hash = ?, lease_expires_at = ?, claimed_at = ?, deliveries = deliveries + 1 WHERE id = ?",
      ).run(runner.runnerId, runner.name, sha256Hex(token), expires, iso(now), next.id);
      const t = this.row(next.id)!;
      const maxima = jobMaxima(this.d.config);
      return {
        trialId: t.id,
        leaseToken: token,
        leaseExpiresAt: expires,
        problemType: t.problemType,
        packageFileId: t.packageFileId,
        packageSha256: t.packageSha256,
        ...(maxima ? { maxima } : {}),
      };
    });
  }

  renew(runner: RunnerActor, trialId: string, leaseToken: string, asked?: number) {
    return this.d.tx.run(() => {
      const t = requireHeld(this.row(trialId), runner.runnerId, leaseToken, 'trial');
      const expires = extendedLease(t.leaseExpiresAt, this.d.clock.now(), leaseSeconds(asked));
      this.q('UPDATE trials SET lease_expires_at = ? WHERE id = ?').run(expires, trialId);
      return { trialId, leaseToken, leaseExpiresAt: expires };
    });
  }

  async report(runner: RunnerActor, trialId: string, body: { leaseToken: string; measurement?: string; failureReason?: string }) {
    return this.d.tx.write(async (q, out) => {
      const found = this.row(trialId);
      if (found && found.finishedAt && found.leaseHash === sha256Hex(body.leaseToken) && found.runnerId === runner.runnerId) {
        return { trialId, state: found.state === 'completed' ? ('completed' as const) : ('failed' as const), duplicate: true };
      }
      requireHeld(found, runner.runnerId, body.leaseToken, 'trial');
      const failed = !!body.failureReason?.trim();
      this.q('UPDATE trials SET state = ?, measurement = ?, failure_reason = ?, finished_at = ?, lease_expires_at = NULL WHERE id = ?').run(
        failed ? 'failed' : 'completed',
        failed ? null : (body.measurement ?? null),
        failed ? body.failureReason!.trim() : null,
        iso(this.d.clock.now()),
        trialId,
      );
      const computed = failed || !found!.calibratesVersionId ? undefined : computedTimeLimit(body.measurement);
      if (computed !== undefined) await storeComputedTimeLimit(q, found!.calibratesVersionId!, computed, out);
      return { trialId, state: failed ? ('failed' as const) : ('completed' as const), duplicate: false };
    });
  }

  /** Trials whose lease lapsed go back to the queue, or fail after MAX_DELIVERIES. */
  reap(now: Date): number {
    const t = iso(now);
    const lapsed = this.q<[string], { id: string }>("SELECT id FROM trials WHERE state = 'running' AND lease_expires_at <= ?").all(t);
    for (const l of lapsed) {
      this.d.tx.run(() => {
        // read again: a report may have landed since the list was made
        const found = this.row(l.id);
        if (found?.state === 'running' && found.leaseExpiresAt && found.leaseExpiresAt <= t) this.giveBack(found, { reason: 'the runner did not renew its lease in time' });
      });
    }
    if (lapsed.length) this.signal.notify();
    return lapsed.length;
  }

  /** Trials a runner held when it was revoked or its process ended: failed deliveries, `reason` says why. */
  requeueAllOf(runnerId: string, reason: string): void {
    const held = this.q<[string], { id: string }>("SELECT id FROM trials WHERE runner_id = ? AND state = 'running'").all(runnerId);
    for (const h of held) this.giveBack(this.row(h.id)!, { reason });
  }

  /**
   * The only way a running trial leaves its runner without a report: back in the queue, or given
   * up after MAX_DELIVERIES failed deliveries (lease.ts afterReturn), as jobs are.
   */
  private giveBack(trial: TrialRow, why: Return): void {
    const next = afterReturn(trial.deliveries, why);
    if (next.requeue) {
      this.q(
        "UPDATE trials SET state = 'queued', runner_id = NULL, lease_hash = NULL, lease_expires_at = NULL, claimed_at = NULL, deliveries = deliveries - ? WHERE id = ? AND state = 'running'",
      ).run(next.countDelivery ? 0 : 1, trial.id);
    } else {
      this.q("UPDATE trials SET state = 'failed', failure_reason = ?, finished_at = ?, lease_hash = NULL, lease_expires_at = NULL WHERE id = ? AND state = 'running'").run(
        next.failure,
        iso(this.d.clock.now()),
        trial.id,
      );
    }
  }
}

/**
 * The limit a calibration trial computed: problemtools' suggestion, only when the package named
 * none and accepted examples ran (a trial without them suggests nothing worth keeping).
 */
function computedTimeLimit(measurement: string | undefined): number | undefined {
  if (!measurement) return undefined;
  let timing: Record<string, unknown> | undefined;
  try {
    timing = (JSON.parse(measurement) as { timing?: Record<string, unknown> }).timing;
  } catch {
    return undefined;
  }
  const seconds = timing?.suggestedTimeLimitSeconds;
  if (timing?.timeLimitSource !== 'computed by this trial' || typeof timing.slowestAcceptedMs !== 'number') return undefined;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}
