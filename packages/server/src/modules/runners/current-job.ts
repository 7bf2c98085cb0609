import type { RunnerCurrentJob } from '@judge/contract';
import { compact, type statements } from '../../util.js';

type Prepared = ReturnType<typeof statements>;

interface SubmissionJobRow {
  id: string;
  since: string | null;
  submissionId: string;
  attempt: number;
  progressDone: number | null;
  progressTotal: number | null;
  activityId: string;
  activitySlug: string;
  activityName: string;
  problemSlug: string;
  problemName: string;
}

interface OtherJobRow {
  id: string;
  since: string | null;
  activityId: string | null;
  activitySlug: string | null;
  activityName: string | null;
  problemSlug: string | null;
  problemName: string | null;
}

/**
 * What a runner holds now, for the staff who watch the runners (Runner.currentJob): the newest
 * running submission job, else trial, else sample run. A runner judges one thing at a time, so
 * the order only matters in the instant a lease changes hands. The activity and problem it names
 * are for holders of runner:read, a system-wide permission of those who run the installation.
 */
export function currentJobOf(q: Prepared, runnerId: string): RunnerCurrentJob | undefined {
  const job = q<[string], SubmissionJobRow>(
    `SELECT at.id, at.claimed_at AS since, at.submission_id AS submissionId, at.attempt, at.progress_done AS progressDone, at.progress_total AS progressTotal,
            a.id AS activityId, a.slug AS activitySlug, a.name AS activityName, sp.slug AS problemSlug, coalesce(sp.name, p.name) AS problemName
     FROM attempts at
     JOIN submissions s ON s.id = at.submission_id
     JOIN activities a ON a.id = s.activity_id
     JOIN series_problems sp ON sp.id = s.series_problem_id
     JOIN problems p ON p.id = sp.problem_id
     WHERE at.runner_id = ? AND at.state = 'running' ORDER BY at.claimed_at DESC LIMIT 1`,
  ).get(runnerId);
  if (job) {
    const { progressDone, progressTotal, ...rest } = job;
    const progress = progressDone === null ? undefined : compact({ done: progressDone, total: progressTotal });
    return compact({ kind: 'submission' as const, ...rest, progress }) as RunnerCurrentJob;
  }
  const trial = q<[string], OtherJobRow>(
    `SELECT t.id, t.claimed_at AS since, a.id AS activityId, a.slug AS activitySlug, a.name AS activityName, NULL AS problemSlug, NULL AS problemName
     FROM trials t LEFT JOIN activities a ON a.id = t.activity_id
     WHERE t.runner_id = ? AND t.state = 'running' ORDER BY t.claimed_at DESC LIMIT 1`,
  ).get(runnerId);
  if (trial) return compact({ kind: 'trial' as const, ...trial }) as RunnerCurrentJob;
  const run = q<[string], OtherJobRow>(
    `SELECT r.id, r.claimed_at AS since, a.id AS activityId, a.slug AS activitySlug, a.name AS activityName, sp.slug AS problemSlug, coalesce(sp.name, p.name) AS problemName
     FROM sample_runs r
     JOIN activities a ON a.id = r.activity_id
     JOIN series_problems sp ON sp.id = r.series_problem_id
     JOIN problems p ON p.id = sp.problem_id
     WHERE r.runner_id = ? AND r.state = 'running' ORDER BY r.claimed_at DESC LIMIT 1`,
  ).get(runnerId);
  return run ? (compact({ kind: 'sampleRun' as const, ...run }) as RunnerCurrentJob) : undefined;
}
