import { SAMPLE_RUN_KEEP_SECONDS, type ClaimedSampleRun, type OperationInput, type ops } from '@judge/contract';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { RunnerActor } from '../../auth/runner-tokens.js';
import { jobMaxima } from '../../config.js';
import { activities, files, problemVersionFiles, problemVersions, sampleRuns, series, seriesProblems } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Deps } from '../../services.js';
import { compact, iso, newSecret, sha256Hex } from '../../util.js';
import { requiredTags, tagsSatisfied } from '../runners/index.js';
import { literalLimit } from './job-rows.js';
import { computedTimeLimit, type JobsService } from './jobs.js';
import { extendedLease, leaseSeconds, requireHeld } from './lease.js';

type ReportBody = OperationInput<typeof ops.reportSampleRun>['body'];

const isQueued = sql`${sampleRuns.state} = 'queued'`;
const isRunning = sql`${sampleRuns.state} = 'running'`;

async function heldRow(q: Q, id: string) {
  const [r] = await q
    .select({
      id: sampleRuns.id,
      userId: sampleRuns.userId,
      state: sampleRuns.state,
      runnerId: sampleRuns.runnerId,
      leaseHash: sampleRuns.leaseHash,
      leaseExpiresAt: sampleRuns.leaseExpiresAt,
      finishedAt: sampleRuns.finishedAt,
    })
    .from(sampleRuns)
    .where(eq(sampleRuns.id, id))
    .limit(1);
  return r;
}

/** What a claimed run carries besides its lease: its sources, the assignment's config and the version's package. */
async function claimedRun(q: Q, id: string) {
  const [r] = await q
    .select({
      problemType: sampleRuns.problemType,
      versionId: sampleRuns.problemVersionId,
      sources: sampleRuns.sources,
      language: sampleRuns.language,
      config: seriesProblems.config,
      fileId: problemVersionFiles.fileId,
      sha256: files.sha256,
      packageInfo: problemVersions.packageInfo,
    })
    .from(sampleRuns)
    .innerJoin(seriesProblems, eq(seriesProblems.id, sampleRuns.seriesProblemId))
    .innerJoin(problemVersions, eq(problemVersions.id, sampleRuns.problemVersionId))
    .leftJoin(problemVersionFiles, and(eq(problemVersionFiles.versionId, problemVersions.id), sql`${problemVersionFiles.role} = 'package'`))
    .leftJoin(files, eq(files.id, problemVersionFiles.fileId))
    .where(eq(sampleRuns.id, id))
    .limit(1);
  return r;
}

/**
 * The runner's side of sample runs (docs/web-pages.md "Run on samples"): claimed only by runners that ask for
 * them (claimSampleRun; older runners never do), by problem type and runner tags as jobs are, and
 * only while no job the runner could take is waiting, so a burst of them never holds a submission
 * up. A run whose lease lapses or whose runner goes away fails: its author just runs it again.
 * Finished runs are removed SAMPLE_RUN_KEEP_SECONDS after they were made.
 *
 * What keeps it safe on PostgreSQL: a claim locks the queued row it picks (`FOR UPDATE SKIP
 * LOCKED`, marked below) and takes it with `UPDATE … WHERE state = 'queued' RETURNING`; renewals
 * and reports read and write in one SERIALIZABLE transaction, retried by the engine.
 */
export class SampleRunQueue {
  constructor(
    private readonly d: Deps,
    private readonly jobs: JobsService,
  ) {
    jobs.sampleRunWaiting = async (runner) => (await this.d.tx.read((q) => this.firstFit(q, runner))) !== undefined;
  }

  private async firstFit(q: Q, runner: RunnerActor): Promise<string | undefined> {
    if (!runner.problemTypes.length) return undefined;
    // PostgreSQL: FOR UPDATE OF sample_runs SKIP LOCKED when claiming, so that two claims never read the same queued run as free.
    const rows = await q
      .select({ id: sampleRuns.id, seriesTags: series.runnerTags, activityTags: activities.runnerTags })
      .from(sampleRuns)
      .innerJoin(seriesProblems, eq(seriesProblems.id, sampleRuns.seriesProblemId))
      .innerJoin(series, eq(series.id, seriesProblems.seriesId))
      .innerJoin(activities, eq(activities.id, sampleRuns.activityId))
      .where(and(isQueued, inArray(sampleRuns.problemType, runner.problemTypes)))
      .orderBy(asc(sampleRuns.createdAt), asc(sampleRuns.id))
      .limit(literalLimit(64));
    return rows.find((c) => tagsSatisfied(requiredTags(c.seriesTags, c.activityTags), runner.tags))?.id;
  }

  /** A sample run was queued: waiting runners look again once the caller's transaction commits. */
  wake(): void {
    this.jobs.signal.notify();
  }

  /** The next sample run for this runner, unless a job it could take waits (jobs go first). Never waits. */
  async claim(runner: RunnerActor, body: { leaseSeconds?: number }): Promise<ClaimedSampleRun | null> {
    const lease = leaseSeconds(body.leaseSeconds);
    const claimed = await this.d.tx.write(async (q) => {
      if (await this.jobs.jobWaiting(q, runner)) return null;
      const id = await this.firstFit(q, runner);
      if (!id) return null;
      const now = this.d.clock.now();
      const token = newSecret();
      const expires = iso(new Date(now.getTime() + lease * 1000));
      const taken = await q
        .update(sampleRuns)
        .set({ state: 'running', runnerId: runner.runnerId, runnerName: runner.name, leaseHash: sha256Hex(token), leaseExpiresAt: expires, claimedAt: iso(now) })
        .where(and(eq(sampleRuns.id, id), isQueued))
        .returning({ id: sampleRuns.id });
      if (!taken.length) return null;
      const r = (await claimedRun(q, id))!;
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
        config: r.config,
        maxima: jobMaxima(this.d.config),
        timeLimitSeconds: computedTimeLimit(r.packageInfo),
      }) as ClaimedSampleRun;
    });
    if (claimed) this.d.log.info({ sampleRun: claimed.sampleRunId, runner: runner.name }, 'sample run claimed');
    return claimed;
  }

  renew(runner: RunnerActor, id: string, leaseToken: string, asked?: number) {
    return this.d.tx.write(async (q) => {
      const r = requireHeld(await heldRow(q, id), runner.runnerId, leaseToken, 'sample run');
      const expires = extendedLease(r.leaseExpiresAt, this.d.clock.now(), leaseSeconds(asked));
      await q.update(sampleRuns).set({ leaseExpiresAt: expires }).where(eq(sampleRuns.id, id));
      return { sampleRunId: id, leaseToken, leaseExpiresAt: expires };
    });
  }

  async report(runner: RunnerActor, id: string, body: ReportBody) {
    const result = await this.d.tx.write(async (q) => {
      const found = await heldRow(q, id);
      if (found?.finishedAt && found.leaseHash === sha256Hex(body.leaseToken) && found.runnerId === runner.runnerId) {
        return { sampleRunId: id, state: found.state === 'completed' ? ('completed' as const) : ('failed' as const), duplicate: true, userId: found.userId };
      }
      const held = requireHeld(found, runner.runnerId, body.leaseToken, 'sample run');
      const failed = !!body.failureReason?.trim() || !body.verdict;
      await q
        .update(sampleRuns)
        .set({
          state: failed ? 'failed' : 'completed',
          verdict: failed ? null : body.verdict!,
          compileOutput: body.compileOutput ?? null,
          results: JSON.stringify(body.samples ?? []),
          failureReason: failed ? body.failureReason?.trim() || 'The runner reported no verdict' : null,
          finishedAt: iso(this.d.clock.now()),
          leaseExpiresAt: null,
        })
        .where(eq(sampleRuns.id, id));
      return { sampleRunId: id, state: failed ? ('failed' as const) : ('completed' as const), duplicate: false, userId: held.userId };
    });
    const { userId, ...answer } = result;
    // staff see sample runs in the judge log only: they are never submissions
    if (!answer.duplicate) this.d.log.info({ sampleRun: id, user: userId, runner: runner.name, verdict: body.verdict, failure: body.failureReason }, 'sample run finished');
    return answer;
  }

  /** Runs whose lease lapsed fail (their author runs them again); finished runs past their keep are removed. */
  reap(now: Date): Promise<number> {
    const t = iso(now);
    return this.d.tx.write(async (q) => {
      const lapsed = await q
        .update(sampleRuns)
        .set({ state: 'failed', failureReason: 'the runner did not finish in time; run it again', finishedAt: t, leaseHash: null, leaseExpiresAt: null })
        .where(and(isRunning, lte(sampleRuns.leaseExpiresAt, t)))
        .returning({ id: sampleRuns.id });
      await q.delete(sampleRuns).where(lte(sampleRuns.createdAt, iso(new Date(now.getTime() - SAMPLE_RUN_KEEP_SECONDS * 1000))));
      return lapsed.length;
    });
  }

  /** The runs a runner held when it was revoked or its process ended fail with `reason`. */
  async failAllOf(q: Q, runnerId: string, reason: string): Promise<void> {
    await q
      .update(sampleRuns)
      .set({ state: 'failed', failureReason: reason, finishedAt: iso(this.d.clock.now()), leaseHash: null, leaseExpiresAt: null })
      .where(and(eq(sampleRuns.runnerId, runnerId), isRunning));
  }
}
