import type { ClaimedJob, OperationInput, ops } from '@judge/contract';
import { and, asc, count, eq, inArray, lte, sql } from 'drizzle-orm';
import type { RunnerActor } from '../../auth/runner-tokens.js';
import { activities, attemptFiles, attempts, files, runners, series, submissions } from '../../db/schema.js';
import { prepared, preparedPer, skipLockedRows, type Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { ApiError } from '@judge/contract';
import type { Deps } from '../../services.js';
import { compact, iso, newId, newSecret, sha256Hex } from '../../util.js';
import { jobMaxima } from '../../config.js';
import type { SubmissionOutcome } from './outcome.js';
import { requiredTags, tagsSatisfied } from '../runners/index.js';
import { WorkSignal, afterReturn, extendedLease, leaseSeconds, requireHeld, type Return } from './lease.js';
import { claimedJob, holdsFile, isQueued, isRunning, jobRow, literalLimit } from './job-rows.js';

type ReportBody = OperationInput<typeof ops.reportJob>['body'];

/** What a long poll ends with when no job came but a sample run waits for the runner. */
const EARLY = Symbol('a sample run waits');

/**
 * Queued jobs are read this many at a time while looking for one whose tags the runner has, after
 * the first alone: usually the first is the job, and reading (and joining) a whole batch would cost
 * several times the rest of the claim.
 */
const CANDIDATES = 64;

/**
 * The job side of the runner protocol (decisions §7, §8): claiming under a lease with long polls,
 * renewing, progress, release, reports (one result per job; repeats are duplicates), the files of
 * held jobs, and the reaper's requeue. Every claim and report is one transaction, so two runners
 * can never hold the same job.
 *
 * What keeps it safe on PostgreSQL: a claim locks the queued rows it reads (`FOR UPDATE SKIP
 * LOCKED`, marked below) and takes the job with `UPDATE … WHERE state = 'queued' RETURNING`, so a
 * row another claim took is never handed out again; every other call (renew, progress, release,
 * report, the reaper's requeue) reads the job and writes it in one SERIALIZABLE transaction, which
 * the engine retries when a concurrent one changed it. On SQLite writes are one at a time.
 */
export class JobsService {
  readonly signal = new WorkSignal();

  constructor(
    private readonly d: Deps,
    private readonly outcome: SubmissionOutcome,
  ) {}

  // ---- claiming ----

  /**
   * Whether other work (a queued trial) waits for this runner: a runner asks for jobs first, with a
   * long poll, and for trials only when none came, so the long poll must end when a trial is queued
   * or a trial would wait out the whole poll with the runner idle.
   */
  otherWork: (runner: RunnerActor) => Promise<boolean> = () => Promise.resolve(false);
  /**
   * Whether work that goes before jobs waits for this runner: a calibration trial, since until it
   * reports every submission of its version is judged at the runner's default limit instead of the
   * package's own.
   */
  workFirst: (runner: RunnerActor) => Promise<boolean> = () => Promise.resolve(false);
  /**
   * Whether a sample run this runner could take is waiting: set by Judging. A runner that takes
   * sample runs ends its job long poll early for one (it claims it next), since they share runners.
   */
  sampleRunWaiting: (runner: RunnerActor) => Promise<boolean> = () => Promise.resolve(false);

  /**
   * The next job for this runner, waiting up to `waitSeconds` for one to be queued; null when none
   * came, when other work waits (a trial), or (`sampleRuns`) when none is queued but a sample run
   * this runner could take is.
   */
  async claim(runner: RunnerActor, body: { leaseSeconds?: number; waitSeconds?: number; sampleRuns?: boolean }, abort?: AbortSignal): Promise<ClaimedJob | null> {
    const lease = leaseSeconds(body.leaseSeconds);
    const take = async () => {
      if (await this.workFirst(runner)) return null;
      return (await this.claimNow(runner, lease)) ?? (body.sampleRuns && (await this.sampleRunWaiting(runner)) ? EARLY : null);
    };
    const got = await this.signal.poll(take, body.waitSeconds ?? 0, abort, () => this.otherWork(runner));
    return got === EARLY ? null : got;
  }

  /** Whether a queued job is one this runner could claim now: sample runs wait behind every such job. */
  async jobWaiting(q: Q, runner: RunnerActor): Promise<boolean> {
    return (await this.firstFit(q, runner)) !== undefined;
  }

  /** The first queued job, in the queue's order, of a type the runner judges and whose tags it has. */
  private async firstFit(q: Q, runner: RunnerActor): Promise<string | undefined> {
    if (!runner.problemTypes.length) return undefined;
    for (let offset = 0, batch = 1; ; offset += batch, batch = CANDIDATES) {
      // attempts_queue (state, priority, created_at) hands them out in order; the type filter is a probe per row.
      // PostgreSQL: FOR UPDATE OF attempts SKIP LOCKED (skipLockedRows), so that concurrent claims
      // read different queued rows; a caller that only asks (jobWaiting) holds them until its read ends.
      const rows = await candidates(q, `${batch} ${runner.problemTypes.length}`, { ...typeValues(runner.problemTypes), offset });
      const fit = rows.find((c) => tagsSatisfied(requiredTags(c.seriesTags, c.activityTags), runner.tags));
      if (fit) return fit.id;
      if (rows.length < batch) return undefined;
    }
  }

  private claimNow(runner: RunnerActor, lease: number): Promise<ClaimedJob | null> {
    // nothing but the database before the commit: the token is made inside, and a retried attempt makes its own.
    // PostgreSQL: a claim (READ COMMITTED), safe by its row locks: the attempt is locked as it is
    // picked and taken only while still queued (takeJob); the submission's row is derived from its
    // own attempts, and every other write that changes them (rejudge, cancel, report, lapse) is
    // SERIALIZABLE and touches the locked attempt, so it waits and runs again after the claim.
    return this.d.tx.claim(async (q, out) => {
      const pick = await this.firstFit(q, runner);
      return pick ? this.hand(q, pick, runner, lease, out) : null;
    });
  }

  private async hand(q: Q, jobId: string, runner: RunnerActor, lease: number, out: Outbox): Promise<ClaimedJob | null> {
    const now = this.d.clock.now();
    const token = newSecret();
    const expires = iso(new Date(now.getTime() + lease * 1000));
    const [taken] = await takeJob(q, { runnerId: runner.runnerId, runnerName: runner.name, leaseHash: sha256Hex(token), expires, now: iso(now), id: jobId });
    if (!taken) return null;
    // a new delivery starts clean: files an earlier delivery attached without giving the result
    // (infrastructure failure, release, lapse) must not take the names this one attaches
    await clearFiles(q, { id: jobId });
    const c = (await claimedJob(q, jobId))!;
    await this.outcome.update(q, taken.submissionId, out, { stateChanged: true, resultChanged: false });
    return compact({
      jobId,
      submissionId: taken.submissionId,
      attempt: taken.attempt,
      leaseToken: token,
      leaseExpiresAt: expires,
      problemType: taken.problemType,
      problemVersionId: taken.problemVersionId,
      packageFileId: c.packageFileId ?? '',
      packageSha256: c.packageSha256 ?? '',
      files: c.files,
      props: c.props,
      problemVersionProps: c.versionProps,
      config: c.config,
      maxima: jobMaxima(this.d.config),
      timeLimitSeconds: computedTimeLimit(c.packageInfo),
    }) as ClaimedJob;
  }

  // ---- holding ----

  renew(runner: RunnerActor, jobId: string, leaseToken: string, asked?: number): Promise<{ jobId: string; leaseToken: string; leaseExpiresAt: string }> {
    return this.d.tx.write(async (q) => {
      const j = requireHeld(await jobRow(q, jobId), runner.runnerId, leaseToken, 'job');
      const expires = extendedLease(j.leaseExpiresAt, this.d.clock.now(), leaseSeconds(asked));
      await q.update(attempts).set({ leaseExpiresAt: expires }).where(eq(attempts.id, jobId));
      return { jobId, leaseToken, leaseExpiresAt: expires };
    });
  }

  async progress(runner: RunnerActor, jobId: string, body: { leaseToken: string; done?: number; total?: number }): Promise<void> {
    await this.d.tx.write(async (q, out) => {
      const j = requireHeld(await jobRow(q, jobId), runner.runnerId, body.leaseToken, 'job');
      const expires = extendedLease(j.leaseExpiresAt, this.d.clock.now(), leaseSeconds(undefined));
      await q
        .update(attempts)
        .set({
          leaseExpiresAt: expires,
          ...(body.done !== undefined ? { progressDone: body.done } : {}),
          ...(body.total !== undefined ? { progressTotal: body.total } : {}),
        })
        .where(eq(attempts.id, jobId));
      // a bare lease renewal through progress tells nobody anything
      if (body.done !== undefined || body.total !== undefined) await this.outcome.progressed(q, j.submissionId, out);
    });
  }

  /** Gives a held job back at once. A polite release is not a failed delivery. */
  async release(runner: RunnerActor, jobId: string, leaseToken: string): Promise<void> {
    await this.d.tx.write(async (q, out) => {
      const j = requireHeld(await jobRow(q, jobId), runner.runnerId, leaseToken, 'job');
      await this.giveBack(q, j.id, out, { released: true });
    });
  }

  /**
   * The only way a running job leaves its runner without a result (released, infrastructure
   * failure, lease lapsed, runner revoked or its process gone): back in the queue, or, after
   * MAX_DELIVERIES failed deliveries, given up with the reason (lease.ts afterReturn).
   */
  private async giveBack(q: Q, jobId: string, out: Outbox, why: Return): Promise<void> {
    const j = await jobRow(q, jobId);
    if (!j || j.state !== 'running') return;
    const next = afterReturn(j.deliveries, why);
    if (!next.requeue) return this.giveUp(q, j.submissionId, jobId, next.failure, out);
    // a failed delivery waits behind first attempts, as a rejudge does: a submission that brings
    // its runner down is judged again only after the ones submitted since, which it cannot hold up
    const uncount = next.countDelivery ? 0 : 1;
    const atLeast = next.countDelivery ? 1 : 0;
    await q
      .update(attempts)
      .set({
        state: 'queued',
        runnerId: null,
        leaseHash: null,
        leaseExpiresAt: null,
        claimedAt: null,
        progressDone: null,
        progressTotal: null,
        deliveries: sql`${attempts.deliveries} - ${uncount}`,
        // the larger of the two: max(a, b) as a scalar is SQLite's only
        priority: sql`CASE WHEN ${attempts.priority} > ${atLeast} THEN ${attempts.priority} ELSE ${atLeast} END`,
      })
      .where(and(eq(attempts.id, jobId), isRunning));
    await this.outcome.update(q, j.submissionId, out, { stateChanged: true, resultChanged: false });
    out.then(() => this.signal.notify());
  }

  /** A job that was handed out too often without a result: given up as failed. */
  private async giveUp(q: Q, submissionId: string, jobId: string, reason: string, out: Outbox): Promise<void> {
    await q
      .update(attempts)
      .set({ state: 'failed', failureReason: reason, finishedAt: iso(this.d.clock.now()), runnerId: null, leaseHash: null, leaseExpiresAt: null, resultId: newId() })
      .where(and(eq(attempts.id, jobId), inArray(attempts.state, ['queued', 'running'])));
    await this.outcome.update(q, submissionId, out, { stateChanged: true, resultChanged: true });
  }

  // ---- reporting ----

  report(runner: RunnerActor, jobId: string, body: ReportBody): Promise<{ resultId: string; state: 'completed' | 'failed'; duplicate: boolean }> {
    return this.d.tx.write(async (q, out) => {
      const found = await jobRow(q, jobId);
      const hash = sha256Hex(body.leaseToken);
      // one result per job: the same delivery reporting again is told so, and nothing changes
      if (found?.resultId && found.leaseHash === hash && found.runnerId === runner.runnerId) {
        return { resultId: found.resultId, state: found.state === 'completed' ? 'completed' : 'failed', duplicate: true };
      }
      if (found?.failedReportId && found.failedLeaseHash === hash) return { resultId: found.failedReportId, state: 'failed', duplicate: true };
      const j = requireHeld(found, runner.runnerId, body.leaseToken, 'job');
      const resultId = newId();
      if (body.infrastructureFailure) {
        const reason = body.failureReason?.trim() || 'The runner reported an infrastructure failure';
        await this.attachFiles(q, runner, j.id, body.files ?? []);
        await q.update(attempts).set({ failedLeaseHash: hash, failedReportId: resultId, failureReason: reason }).where(eq(attempts.id, j.id));
        await this.giveBack(q, j.id, out, { reason });
        // given up: the final result keeps this delivery's token, so a repeat of this report is a duplicate
        await q
          .update(attempts)
          .set({ resultId, leaseHash: hash, runnerId: runner.runnerId })
          .where(and(eq(attempts.id, j.id), sql`${attempts.state} = 'failed'`));
        return { resultId, state: 'failed', duplicate: false };
      }
      if (!body.verdict) throw ApiError.of('result.verdict.missing', 'A report needs a verdict unless it is an infrastructure failure', { verdict: ['required'] });
      await this.attachFiles(q, runner, j.id, body.files ?? []);
      await completeJob(q, {
        verdict: body.verdict,
        score: body.score ?? null,
        maxScore: body.maxScore ?? null,
        // bound as given, so a JSON column's value goes as its text
        extra: body.extra ? JSON.stringify(body.extra) : null,
        props: body.props ? JSON.stringify(body.props) : null,
        runnerVersion: body.runnerVersion ?? null,
        now: iso(this.d.clock.now()),
        resultId,
        id: j.id,
      });
      await countCompleted(q, { id: runner.runnerId });
      await this.outcome.update(q, j.submissionId, out, { stateChanged: true, resultChanged: true });
      return { resultId, state: 'completed', duplicate: false };
    });
  }

  /** Attaches a runner's uploads to an attempt; only files this runner uploaded, one per name. */
  private async attachFiles(q: Q, runner: RunnerActor, attemptId: string, list: { name: string; fileId: string }[]): Promise<void> {
    if (!list.length) return;
    const names = new Set<string>();
    for (const f of list) {
      if (names.has(f.name)) throw ApiError.of('attempt.file.duplicate', `The report names the file ${f.name} twice`);
      names.add(f.name);
    }
    for (const f of list) {
      const own = await q.select({ id: files.id }).from(files).where(and(eq(files.id, f.fileId), eq(files.uploadedByRunner, runner.runnerId))).limit(1);
      if (!own.length) throw ApiError.of('file.missing', `No file ${f.fileId} uploaded by this runner`, { fileId: ['unknown'] });
      const [taken] = await q.select({ n: count() }).from(attemptFiles).where(and(eq(attemptFiles.attemptId, attemptId), eq(attemptFiles.name, f.name)));
      if (taken && taken.n > 0) throw ApiError.of('attempt.file.duplicate', `The attempt already has a file named ${f.name}`);
      await q.insert(attemptFiles).values({ attemptId, name: f.name, fileId: f.fileId });
    }
  }

  async attach(runner: RunnerActor, jobId: string, body: { leaseToken: string; fileId: string; name: string }): Promise<void> {
    await this.d.tx.write(async (q) => {
      const j = requireHeld(await jobRow(q, jobId), runner.runnerId, body.leaseToken, 'job');
      await this.attachFiles(q, runner, j.id, [{ name: body.name, fileId: body.fileId }]);
    });
  }

  /** Whether this runner may download a file: one of a job or trial it holds right now. */
  mayFetch(runner: RunnerActor, fileId: string): Promise<boolean> {
    return this.d.tx.read((q) => holdsFile(q, runner.runnerId, fileId));
  }

  // ---- the reaper ----

  /** Jobs whose lease lapsed go back to the queue, or fail after MAX_DELIVERIES. Returns how many were handled. */
  async reap(now: Date): Promise<number> {
    const t = iso(now);
    const lapsed = await this.d.tx.read((q) => q.select({ id: attempts.id }).from(attempts).where(and(isRunning, lte(attempts.leaseExpiresAt, t))));
    for (const l of lapsed) {
      await this.d.tx.write(async (q, out) => {
        // read again: a report may have landed since the list was made
        const j = await jobRow(q, l.id);
        if (!j || j.state !== 'running' || !j.leaseExpiresAt || j.leaseExpiresAt > t) return;
        await this.giveBack(q, j.id, out, { reason: 'the runner did not renew its lease in time' });
      });
    }
    return lapsed.length;
  }

  /** Gives back every job a runner holds (it was revoked, or its process ended): failed deliveries, `reason` says why. */
  async requeueAllOf(q: Q, runnerId: string, out: Outbox, reason: string): Promise<void> {
    const held = await q.select({ id: attempts.id }).from(attempts).where(and(eq(attempts.runnerId, runnerId), isRunning));
    for (const h of held) await this.giveBack(q, h.id, out, { reason });
  }
}

/*
 * The claim → report path's statements, built once per `q` and run with placeholders (storage.ts,
 * prepared()): building them was most of a job's CPU (bench/README.md, claim-report). A JSON
 * column's value is bound as its text.
 */
const takeJob = prepared((q) =>
  q
    .update(attempts)
    .set({
      state: 'running',
      runnerId: sql`${sql.placeholder('runnerId')}`,
      runnerName: sql`${sql.placeholder('runnerName')}`,
      leaseHash: sql`${sql.placeholder('leaseHash')}`,
      leaseExpiresAt: sql`${sql.placeholder('expires')}`,
      claimedAt: sql`${sql.placeholder('now')}`,
      deliveries: sql`${attempts.deliveries} + 1`,
      progressDone: null,
      progressTotal: null,
    })
    .where(and(eq(attempts.id, sql.placeholder('id')), isQueued))
    .returning({ submissionId: attempts.submissionId, attempt: attempts.attempt, problemType: attempts.problemType, problemVersionId: attempts.problemVersionId })
    .prepare(),
);

const clearFiles = prepared((q) => q.delete(attemptFiles).where(eq(attemptFiles.attemptId, sql.placeholder('id'))).prepare());

const completeJob = prepared((q) =>
  q
    .update(attempts)
    .set({
      state: 'completed',
      verdict: sql`${sql.placeholder('verdict')}`,
      score: sql`${sql.placeholder('score')}`,
      maxScore: sql`${sql.placeholder('maxScore')}`,
      extra: sql`${sql.placeholder('extra')}`,
      props: sql`${sql.placeholder('props')}`,
      runnerVersion: sql`${sql.placeholder('runnerVersion')}`,
      finishedAt: sql`${sql.placeholder('now')}`,
      leaseExpiresAt: null,
      resultId: sql`${sql.placeholder('resultId')}`,
      failureReason: null,
    })
    .where(eq(attempts.id, sql.placeholder('id')))
    .prepare(),
);

const countCompleted = prepared((q) =>
  q
    .update(runners)
    .set({ completedJobs: sql`${runners.completedJobs} + 1` })
    .where(eq(runners.id, sql.placeholder('id')))
    .prepare(),
);

/** The candidates query for a batch size and a number of problem types (key `"batch types"`), built once per pair. */
const candidates = preparedPer((q, key: `${number} ${number}`) => {
  const [batch, types] = key.split(' ').map(Number) as [number, number];
  const query = q
    .select({ id: attempts.id, seriesTags: series.runnerTags, activityTags: activities.runnerTags })
    .from(attempts)
    .innerJoin(submissions, eq(submissions.id, attempts.submissionId))
    .innerJoin(series, eq(series.id, submissions.seriesId))
    .innerJoin(activities, eq(activities.id, submissions.activityId))
    .where(and(isQueued, inArray(attempts.problemType, Array.from({ length: types }, (_, i) => sql.placeholder(`t${i}`)))))
    .orderBy(asc(attempts.priority), asc(attempts.createdAt), asc(attempts.id))
    .limit(literalLimit(batch))
    .offset(sql.placeholder('offset'));
  return skipLockedRows(query, attempts).prepare();
});

/** The runner's problem types as the candidates query's placeholders t0, t1, … */
function typeValues(types: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  types.forEach((t, i) => (values[`t${i}`] = t));
  return values;
}

/** The limit a calibration trial computed for a version whose package names none (interface: ClaimedJob.timeLimitSeconds). */
export function computedTimeLimit(info: { timeLimitSeconds?: unknown; timeLimitSource?: unknown } | null): number | undefined {
  if (!info) return undefined;
  return info.timeLimitSource === 'trial' && typeof info.timeLimitSeconds === 'number' ? info.timeLimitSeconds : undefined;
}
