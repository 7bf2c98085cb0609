import { eq, sql } from 'drizzle-orm';
import { activities, attempts, problems, series, seriesProblems, submissionFiles, submissions, users } from '../../db/schema.js';
import { prepared, type Q } from '../../db/storage.js';
import type { SubmissionRow } from '../submissions/index.js';

/** The newest attempt's progress, while the submission runs (a finished attempt's last report would read as "test k of n" forever). */
const progress = (column: typeof attempts.progressDone | typeof attempts.progressTotal) =>
  sql<number | null>`case when ${submissions.state} = 'running' then (select ${column} from ${attempts} where ${attempts.submissionId} = ${submissions.id} order by ${attempts.attempt} desc limit 1) end`;

/* Run on every submit, rejudge, cancel and exclusion, and on every claim and report while sockets listen: built once per `q` (storage.ts, prepared()). */
const byId = prepared((q: Q) =>
  q
    .select({
      id: submissions.id,
      activityId: submissions.activityId,
      activitySlug: activities.slug,
      seriesId: submissions.seriesId,
      seriesName: series.name,
      seriesProblemId: submissions.seriesProblemId,
      problemSlug: seriesProblems.slug,
      problemName: sql<string>`coalesce(${seriesProblems.name}, ${problems.name})`,
      problemType: problems.type,
      maxPoints: seriesProblems.maxPoints,
      userId: submissions.userId,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      submittedAt: submissions.submittedAt,
      props: submissions.props,
      fileLanguage: sql<
        string | null
      >`(select ${submissionFiles.language} from ${submissionFiles} where ${submissionFiles.submissionId} = ${submissions.id} and ${submissionFiles.language} is not null limit 1)`,
      state: submissions.state,
      verdict: submissions.verdict,
      score: submissions.score,
      maxScore: submissions.maxScore,
      attempts: submissions.attempts,
      excluded: submissions.excluded,
      excludedAt: submissions.excludedAt,
      excludedBy: submissions.excludedBy,
      exclusionReason: submissions.exclusionReason,
      ipAddress: submissions.ipAddress,
      sessionId: submissions.sessionId,
      deviceId: submissions.deviceId,
      progressDone: progress(attempts.progressDone),
      progressTotal: progress(attempts.progressTotal),
    })
    .from(submissions)
    .innerJoin(activities, eq(activities.id, submissions.activityId))
    .innerJoin(series, eq(series.id, submissions.seriesId))
    .innerJoin(seriesProblems, eq(seriesProblems.id, submissions.seriesProblemId))
    .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
    .innerJoin(users, eq(users.id, submissions.userId))
    .where(eq(submissions.id, sql.placeholder('id')))
    .limit(1)
    .prepare(),
);

/**
 * One submission with everything its summary shows (the submissions area's SubmissionRow, the
 * columns of its selectSubmissions), read by one join: what a settled submission's events carry.
 */
export async function submissionRow(q: Q, submissionId: string): Promise<SubmissionRow | undefined> {
  const [r] = await byId(q, { id: submissionId });
  if (!r) return undefined;
  // SubmissionRow keeps the stored forms: props as JSON text, the exclusion as 0 or 1
  return { ...r, state: r.state as SubmissionRow['state'], props: r.props ? JSON.stringify(r.props) : null, excluded: r.excluded ? 1 : 0 };
}
