import type { RunnerCurrentJob } from '@judge/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import { activities, attempts, problems, sampleRuns, seriesProblems, submissions, trials } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { compact } from '../../util.js';

const problemName = sql<string>`coalesce(${seriesProblems.name}, ${problems.name})`;

/**
 * What a runner holds now, for the staff who watch the runners (Runner.currentJob): the newest
 * running submission job, else trial, else sample run. A runner judges one thing at a time, so
 * the order only matters in the instant a lease changes hands. The activity and problem it names
 * are for holders of runner:read, a system-wide permission of those who run the installation.
 */
export async function currentJobOf(q: Q, runnerId: string): Promise<RunnerCurrentJob | undefined> {
  const [job] = await q
    .select({
      id: attempts.id,
      since: attempts.claimedAt,
      submissionId: attempts.submissionId,
      attempt: attempts.attempt,
      progressDone: attempts.progressDone,
      progressTotal: attempts.progressTotal,
      activityId: activities.id,
      activitySlug: activities.slug,
      activityName: activities.name,
      problemSlug: seriesProblems.slug,
      problemName,
    })
    .from(attempts)
    .innerJoin(submissions, eq(submissions.id, attempts.submissionId))
    .innerJoin(activities, eq(activities.id, submissions.activityId))
    .innerJoin(seriesProblems, eq(seriesProblems.id, submissions.seriesProblemId))
    .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
    .where(and(eq(attempts.runnerId, runnerId), sql`${attempts.state} = 'running'`))
    .orderBy(desc(attempts.claimedAt))
    .limit(1);
  if (job) {
    const { progressDone, progressTotal, ...rest } = job;
    const progress = progressDone === null ? undefined : compact({ done: progressDone, total: progressTotal });
    return compact({ kind: 'submission' as const, ...rest, progress }) as RunnerCurrentJob;
  }
  const [trial] = await q
    .select({ id: trials.id, since: trials.claimedAt, activityId: activities.id, activitySlug: activities.slug, activityName: activities.name })
    .from(trials)
    .leftJoin(activities, eq(activities.id, trials.activityId))
    .where(and(eq(trials.runnerId, runnerId), sql`${trials.state} = 'running'`))
    .orderBy(desc(trials.claimedAt))
    .limit(1);
  if (trial) return compact({ kind: 'trial' as const, ...trial }) as RunnerCurrentJob;
  const [run] = await q
    .select({
      id: sampleRuns.id,
      since: sampleRuns.claimedAt,
      activityId: activities.id,
      activitySlug: activities.slug,
      activityName: activities.name,
      problemSlug: seriesProblems.slug,
      problemName,
    })
    .from(sampleRuns)
    .innerJoin(activities, eq(activities.id, sampleRuns.activityId))
    .innerJoin(seriesProblems, eq(seriesProblems.id, sampleRuns.seriesProblemId))
    .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
    .where(and(eq(sampleRuns.runnerId, runnerId), sql`${sampleRuns.state} = 'running'`))
    .orderBy(desc(sampleRuns.claimedAt))
    .limit(1);
  return run ? (compact({ kind: 'sampleRun' as const, ...run }) as RunnerCurrentJob) : undefined;
}
