import type { Trial } from '@judge/contract';
import { and, asc, count, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import type { RunnerActor } from '../../auth/runner-tokens.js';
import { ApiError, notFound } from '@judge/contract';
import { PackageError } from '@judge/problem-package';
import { inspectOffLoop } from '../../offloop/inspect-package.js';
import { files, trials } from '../../db/schema.js';
import { preparedPer, skipLockedRows, type Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import type { Deps } from '../../services.js';
import { compact, iso, newId, newSecret, sha256Hex } from '../../util.js';
import { jobMaxima } from '../../config.js';
import { visibleActivity } from '../policy/index.js';
import type { FilesService } from '../files/index.js';
import { storeComputedTimeLimit } from '../problems/index.js';
import { literalLimit } from './job-rows.js';
import { WorkSignal, afterReturn, extendedLease, leaseSeconds, requireHeld, type Return } from './lease.js';

const TRIAL = {
  id: trials.id,
  activityId: trials.activityId,
  createdBy: trials.createdBy,
  state: trials.state,
  problemType: trials.problemType,
  packageFileId: trials.packageFileId,
  packageSha256: files.sha256,
  createdAt: trials.createdAt,
  claimedAt: trials.claimedAt,
  finishedAt: trials.finishedAt,
  runnerId: trials.runnerId,
  runnerName: trials.runnerName,
  leaseHash: trials.leaseHash,
  leaseExpiresAt: trials.leaseExpiresAt,
  deliveries: trials.deliveries,
  measurement: trials.measurement,
  failureReason: trials.failureReason,
  calibratesVersionId: trials.calibratesVersionId,
};

type TrialRow = NonNullable<Awaited<ReturnType<typeof trialRow>>>;

async function trialRow(q: Q, id: string) {
  return (await q.select(TRIAL).from(trials).innerJoin(files, eq(files.id, trials.packageFileId)).where(eq(trials.id, id)).limit(1))[0];
}

const isQueued = sql`${trials.state} = 'queued'`;
const isRunning = sql`${trials.state} = 'running'`;

/** Unfinished trials a user may have at once: a trial occupies a runner for a whole package. */
const TRIALS_PER_USER = 3;

/**
 * Trials (decisions §8): a package checked by a runner, which judges the package's own example
 * submissions and reports what it measured. They never touch submissions, rankings or limits.
 *
 * What keeps it safe on PostgreSQL: a claim locks the queued row it picks (`FOR UPDATE SKIP
 * LOCKED`, marked below) and takes it with `UPDATE … WHERE state = 'queued' RETURNING`; the
 * per-user quota, renewals, reports and requeues read and write in one SERIALIZABLE transaction,
 * retried by the engine when a concurrent one changed what they read.
 */
export class TrialsService {
  readonly signal = new WorkSignal();

  constructor(
    private readonly d: Deps,
    private readonly files: FilesService,
  ) {}

  private view(t: TrialRow): Trial {
    return compact({
      id: t.id,
      activityId: t.activityId,
      state: t.state as Trial['state'],
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
    await this.d.permissions.require(actor, 'trial:run', activityId);
    const file = await this.files.readable(actor, body.packageFileId);
    // what a problem version would refuse is refused here too, at once rather than by a runner later
    try {
      await inspectOffLoop(this.d.offloop, this.files.blobs.pathOf(file.sha256));
    } catch (e) {
      if (e instanceof PackageError) throw ApiError.of('package.invalid', `The package is not a valid ICPC problem package: ${e.message}`, { packageFileId: [e.message] });
      throw e;
    }
    return this.d.tx.write(async (q, out) => {
      const [unfinished] = await q
        .select({ n: count() })
        .from(trials)
        .where(and(eq(trials.createdBy, actor.userId), inArray(trials.state, ['queued', 'running'])));
      if (unfinished!.n >= TRIALS_PER_USER) throw ApiError.of('trial.tooMany', `At most ${TRIALS_PER_USER} trials may wait or run at once; let one finish first`);
      const id = newId();
      await q.insert(trials).values({
        id,
        activityId,
        createdBy: actor.userId,
        state: 'queued',
        problemType: body.problemType,
        packageFileId: body.packageFileId,
        createdAt: iso(this.d.clock.now()),
      });
      out.then(() => this.signal.notify());
      return this.view((await trialRow(q, id))!);
    });
  }

  /**
   * The server's own trial of a new version whose package names no time limit: its report gives the
   * version the limit problemtools' rule computes. No user made it, so no user's quota counts it.
   */
  async calibrate(q: Q, v: { versionId: string; problemType: string; packageFileId: string }, out: Outbox): Promise<void> {
    await q.insert(trials).values({
      id: newId(),
      state: 'queued',
      problemType: v.problemType,
      packageFileId: v.packageFileId,
      createdAt: iso(this.d.clock.now()),
      calibratesVersionId: v.versionId,
    });
    out.then(() => this.signal.notify());
  }

  /** Its author's, or readable by holders of trial:run where it ran; 404 otherwise. */
  async get(actor: Actor, id: string): Promise<Trial> {
    const t = await this.d.tx.read((q) => trialRow(q, id));
    if (!t || (t.createdBy !== actor.userId && !(await this.d.permissions.has(actor.userId, 'trial:run', t.activityId)))) throw notFound('trial');
    return this.view(t);
  }

  // ---- the runner's side ----

  async claim(runner: RunnerActor, body: { leaseSeconds?: number; waitSeconds?: number }, abort?: AbortSignal) {
    const lease = leaseSeconds(body.leaseSeconds);
    return this.signal.poll(() => this.claimNow(runner, lease), body.waitSeconds ?? 0, abort);
  }

  /** Whether a trial of one of the runner's problem types (with `calibrating`, a calibration) waits to be claimed. */
  async queuedFor(runner: RunnerActor, calibrating = false): Promise<boolean> {
    if (!runner.problemTypes.length) return false;
    // asked before every claim of a job (Judging.workFirst): built once per query builder (trialQueued)
    const n = runner.problemTypes.length;
    const values: Record<string, string> = {};
    runner.problemTypes.forEach((t, i) => (values[`t${i}`] = t));
    const found = await this.d.tx.read((q) => trialQueued(q, `${calibrating} ${n}`, values));
    return found.length > 0;
  }

  private async claimNow(runner: RunnerActor, lease: number) {
    if (!runner.problemTypes.length) return null;
    // PostgreSQL: a claim (READ COMMITTED), safe by its row lock: the trial is locked as it is
    // picked (FOR UPDATE SKIP LOCKED, so that concurrent claims take different trials) and taken
    // only while still queued; it writes nothing but that row.
    return this.d.tx.claim(async (q) => {
      // calibrations first: until one reports, its version is judged at the runner's default limit
      const [next] = await skipLockedRows(
        q
          .select({ id: trials.id })
          .from(trials)
          .where(and(isQueued, inArray(trials.problemType, runner.problemTypes)))
          .orderBy(sql`${trials.calibratesVersionId} is null`, asc(trials.createdAt), asc(trials.id))
          .limit(literalLimit(1)),
        trials,
      );
      if (!next) return null;
      const now = this.d.clock.now();
      const token = newSecret();
      const expires = iso(new Date(now.getTime() + lease * 1000));
      const taken = await q
        .update(trials)
        .set({
          state: 'running',
          runnerId: runner.runnerId,
          runnerName: runner.name,
          leaseHash: sha256Hex(token),
          leaseExpiresAt: expires,
          claimedAt: iso(now),
          deliveries: sql`${trials.deliveries} + 1`,
        })
        .where(and(eq(trials.id, next.id), isQueued))
        .returning({ id: trials.id });
      if (!taken.length) return null;
      const t = (await trialRow(q, next.id))!;
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
    return this.d.tx.write(async (q) => {
      const t = requireHeld(await trialRow(q, trialId), runner.runnerId, leaseToken, 'trial');
      const expires = extendedLease(t.leaseExpiresAt, this.d.clock.now(), leaseSeconds(asked));
      await q.update(trials).set({ leaseExpiresAt: expires }).where(eq(trials.id, trialId));
      return { trialId, leaseToken, leaseExpiresAt: expires };
    });
  }

  report(runner: RunnerActor, trialId: string, body: { leaseToken: string; measurement?: string; failureReason?: string }) {
    return this.d.tx.write(async (q, out) => {
      const found = await trialRow(q, trialId);
      if (found && found.finishedAt && found.leaseHash === sha256Hex(body.leaseToken) && found.runnerId === runner.runnerId) {
        return { trialId, state: found.state === 'completed' ? ('completed' as const) : ('failed' as const), duplicate: true };
      }
      requireHeld(found, runner.runnerId, body.leaseToken, 'trial');
      const failed = !!body.failureReason?.trim();
      await q
        .update(trials)
        .set({
          state: failed ? 'failed' : 'completed',
          measurement: failed ? null : (body.measurement ?? null),
          failureReason: failed ? body.failureReason!.trim() : null,
          finishedAt: iso(this.d.clock.now()),
          leaseExpiresAt: null,
        })
        .where(eq(trials.id, trialId));
      const computed = failed || !found!.calibratesVersionId ? undefined : computedTimeLimit(body.measurement);
      if (computed !== undefined) await storeComputedTimeLimit(q, found!.calibratesVersionId!, computed, out);
      return { trialId, state: failed ? ('failed' as const) : ('completed' as const), duplicate: false };
    });
  }

  /** Trials whose lease lapsed go back to the queue, or fail after MAX_DELIVERIES. */
  async reap(now: Date): Promise<number> {
    const t = iso(now);
    const lapsed = await this.d.tx.read((q) => q.select({ id: trials.id }).from(trials).where(and(isRunning, lte(trials.leaseExpiresAt, t))));
    for (const l of lapsed) {
      await this.d.tx.write(async (q) => {
        // read again: a report may have landed since the list was made
        const found = await trialRow(q, l.id);
        if (found?.state === 'running' && found.leaseExpiresAt && found.leaseExpiresAt <= t) await this.giveBack(q, found, { reason: 'the runner did not renew its lease in time' });
      });
    }
    if (lapsed.length) this.signal.notify();
    return lapsed.length;
  }

  /** Trials a runner held when it was revoked or its process ended: failed deliveries, `reason` says why. */
  async requeueAllOf(q: Q, runnerId: string, reason: string): Promise<void> {
    const held = await q.select(TRIAL).from(trials).innerJoin(files, eq(files.id, trials.packageFileId)).where(and(eq(trials.runnerId, runnerId), isRunning));
    for (const h of held) await this.giveBack(q, h, { reason });
  }

  /**
   * The only way a running trial leaves its runner without a report: back in the queue, or given
   * up after MAX_DELIVERIES failed deliveries (lease.ts afterReturn), as jobs are.
   */
  private async giveBack(q: Q, trial: TrialRow, why: Return): Promise<void> {
    const next = afterReturn(trial.deliveries, why);
    if (next.requeue) {
      await q
        .update(trials)
        .set({ state: 'queued', runnerId: null, leaseHash: null, leaseExpiresAt: null, claimedAt: null, deliveries: sql`${trials.deliveries} - ${next.countDelivery ? 0 : 1}` })
        .where(and(eq(trials.id, trial.id), isRunning));
    } else {
      await q
        .update(trials)
        .set({ state: 'failed', failureReason: next.failure, finishedAt: iso(this.d.clock.now()), leaseHash: null, leaseExpiresAt: null })
        .where(and(eq(trials.id, trial.id), isRunning));
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

/** Whether a trial of one of n problem types waits (key `"calibrating n"`): built once per key and `q` (storage.ts). */
const trialQueued = preparedPer((q, key: `${boolean} ${number}`) => {
  const [calibrating, n] = [key.startsWith('true'), Number(key.split(' ')[1])];
  return q
    .select({ id: trials.id })
    .from(trials)
    .where(
      and(
        isQueued,
        inArray(trials.problemType, Array.from({ length: n }, (_, i) => sql.placeholder(`t${i}`))),
        calibrating ? isNotNull(trials.calibratesVersionId) : undefined,
      ),
    )
    .limit(literalLimit(1))
    .prepare();
});
