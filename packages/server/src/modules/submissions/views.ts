import type { Attempt, SubmissionDetail, SubmissionFile, SubmissionState, SubmissionSummary } from '@judge/contract';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { activities, attemptFiles, attempts, files, problems, series, seriesProblems, submissionFiles, submissions, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { compact } from '../../util.js';
import { displayName } from '../users/index.js';

/** A submission's newest attempt's column, while the submission runs (a finished attempt's last report would read as current). */
const whileRunning = (c: typeof attempts.progressDone | typeof attempts.progressTotal) =>
  sql<number | null>`CASE WHEN ${submissions.state} = 'running' THEN (SELECT ${c} FROM ${attempts} WHERE ${attempts.submissionId} = ${submissions.id} ORDER BY ${attempts.attempt} DESC LIMIT 1) END`;

/** The order of every list of submissions: newest first, the id breaking a tie of one instant. */
export const newestFirstOrder = () => [desc(submissions.submittedAt), desc(submissions.id)] as const;

/**
 * A submission with everything its summary shows, read by one join; callers add WHERE, ORDER BY
 * and LIMIT. `excluded` is a number and `props` JSON text, as the judging flow's read of the same
 * row gives them (judging/submission-row.ts), so that both make the same summary.
 */
export function selectSubmissions(q: Q) {
  return q
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
      props: sql<string | null>`CAST(${submissions.props} AS TEXT)`,
      fileLanguage: sql<
        string | null
      >`(SELECT ${submissionFiles.language} FROM ${submissionFiles} WHERE ${submissionFiles.submissionId} = ${submissions.id} AND ${submissionFiles.language} IS NOT NULL LIMIT 1)`,
      state: sql<SubmissionState>`${submissions.state}`,
      verdict: submissions.verdict,
      score: submissions.score,
      maxScore: submissions.maxScore,
      attempts: submissions.attempts,
      // `<> 0`: PostgreSQL keeps booleans as smallint (pg-schema.ts), which it does not take as a condition
      excluded: sql<number>`CASE WHEN ${submissions.excluded} <> 0 THEN 1 ELSE 0 END`.mapWith(Number),
      excludedAt: submissions.excludedAt,
      excludedBy: submissions.excludedBy,
      exclusionReason: submissions.exclusionReason,
      ipAddress: submissions.ipAddress,
      sessionId: submissions.sessionId,
      deviceId: submissions.deviceId,
      progressDone: whileRunning(attempts.progressDone),
      progressTotal: whileRunning(attempts.progressTotal),
    })
    .from(submissions)
    .innerJoin(activities, eq(activities.id, submissions.activityId))
    .innerJoin(series, eq(series.id, submissions.seriesId))
    .innerJoin(seriesProblems, eq(seriesProblems.id, submissions.seriesProblemId))
    .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
    .innerJoin(users, eq(users.id, submissions.userId))
    .$dynamic();
}

/** A submission with everything its summary shows. */
export type SubmissionRow = Awaited<ReturnType<typeof selectSubmissions>>[number];

export async function submissionRow(q: Q, id: string): Promise<SubmissionRow | undefined> {
  return (await selectSubmissions(q).where(eq(submissions.id, id)).limit(1))[0];
}

/**
 * The score as every surface shows it (decisions §9): rescaled to the assignment's maxPoints when it
 * has them, else the runner's own; absent while there is none.
 */
export function rescaled(score: number | null, maxScore: number | null, maxPoints: number | null): { score?: number; maxScore?: number } {
  if (score === null) return {};
  if (maxPoints === null) return compact({ score, maxScore });
  if (maxScore === null || maxScore <= 0) return { score: 0, maxScore: maxPoints };
  return { score: Math.round((score / maxScore) * maxPoints), maxScore: maxPoints };
}

export function toSummary(r: SubmissionRow): SubmissionSummary {
  const props = r.props ? (JSON.parse(r.props) as Record<string, unknown>) : null;
  return compact({
    id: r.id,
    activityId: r.activityId,
    activitySlug: r.activitySlug,
    seriesId: r.seriesId,
    seriesName: r.seriesName,
    seriesProblemId: r.seriesProblemId,
    problemSlug: r.problemSlug,
    problemName: r.problemName,
    userId: r.userId,
    userName: displayName(r),
    submittedAt: r.submittedAt,
    props,
    language: typeof props?.language === 'string' ? props.language : r.fileLanguage,
    state: r.state,
    verdict: r.verdict,
    ...rescaled(r.score, r.maxScore, r.maxPoints),
    attempts: r.attempts,
    excluded: r.excluded === 1,
    // only while running: a finished attempt's last report would read as "test k of n" forever
    progress: r.state === 'running' && r.progressTotal !== null ? { done: r.progressDone ?? 0, total: r.progressTotal } : null,
  }) as SubmissionSummary;
}

/** The files of a submission, by name. */
export async function submissionFilesOf(q: Q, submissionId: string): Promise<SubmissionFile[]> {
  const rows = await q
    .select({ name: submissionFiles.name, fileName: submissionFiles.fileName, language: submissionFiles.language, fileId: submissionFiles.fileId, sha256: files.sha256, sizeBytes: files.sizeBytes })
    .from(submissionFiles)
    .innerJoin(files, eq(files.id, submissionFiles.fileId))
    .where(eq(submissionFiles.submissionId, submissionId))
    .orderBy(submissionFiles.name);
  return rows.map(toFile);
}

/**
 * The detail of a submission: its summary with its attempts and the files of submission and
 * attempts. `attachmentShown` decides which attempt files the reader sees; `forManager` adds what
 * only managers are shown (addresses, who excluded it and why, failure reasons).
 */
export async function detailOf(q: Q, r: SubmissionRow, opts: { forManager: boolean; attachmentShown: (name: string) => boolean }): Promise<SubmissionDetail> {
  const attached = await q
    .select({ owner: attemptFiles.attemptId, name: attemptFiles.name, fileName: files.name, fileId: attemptFiles.fileId, sha256: files.sha256, sizeBytes: files.sizeBytes })
    .from(attemptFiles)
    .innerJoin(attempts, eq(attempts.id, attemptFiles.attemptId))
    .innerJoin(files, eq(files.id, attemptFiles.fileId))
    .where(eq(attempts.submissionId, r.id))
    .orderBy(attemptFiles.name);
  const byAttempt = new Map<string, SubmissionFile[]>();
  for (const f of attached) {
    if (!opts.attachmentShown(f.name)) continue;
    const list = byAttempt.get(f.owner);
    if (list) list.push(toFile(f));
    else byAttempt.set(f.owner, [toFile(f)]);
  }
  const attemptRows = await q
    .select({
      id: attempts.id,
      attempt: attempts.attempt,
      state: sql<SubmissionState>`${attempts.state}`,
      createdAt: attempts.createdAt,
      claimedAt: attempts.claimedAt,
      finishedAt: attempts.finishedAt,
      runnerName: attempts.runnerName,
      verdict: attempts.verdict,
      score: attempts.score,
      maxScore: attempts.maxScore,
      failureReason: attempts.failureReason,
    })
    .from(attempts)
    .where(eq(attempts.submissionId, r.id))
    .orderBy(desc(attempts.attempt));
  const attemptList = attemptRows.map(
    (a) =>
      compact({
        id: a.id,
        attempt: a.attempt,
        state: a.state,
        createdAt: a.createdAt,
        startedAt: a.claimedAt,
        finishedAt: a.finishedAt,
        runnerName: opts.forManager ? a.runnerName : null,
        verdict: a.verdict,
        ...rescaled(a.score, a.maxScore, r.maxPoints),
        failureReason: opts.forManager ? a.failureReason : null,
        files: byAttempt.get(a.id) ?? [],
      }) as Attempt,
  );
  const manager = opts.forManager
    ? { ipAddress: r.ipAddress, sessionId: r.sessionId, deviceId: r.deviceId, excludedBy: r.excludedBy, exclusionReason: r.exclusionReason }
    : {};
  return compact({
    ...toSummary(r),
    problemType: r.problemType,
    excludedAt: r.excludedAt,
    ...manager,
    attemptList,
    files: await submissionFilesOf(q, r.id),
  }) as SubmissionDetail;
}

/** A file of a submission or an attempt as the wire shows it. */
export function toFile(f: { name: string; fileName: string; language?: string | null; fileId: string; sha256: string; sizeBytes: number }): SubmissionFile {
  return compact({ name: f.name, fileName: f.fileName, language: f.language ?? null, fileId: f.fileId, sha256: f.sha256, sizeBytes: f.sizeBytes }) as SubmissionFile;
}

/**
 * Every submission of an activity with its attempts, the runners' `details` attachments and its
 * files, oldest first, unchecked: for an area that decided itself who reads what (the CLICS API,
 * decisions §25). One read per submission: a contest's few thousand are read in well under a second.
 */
export async function allInActivity(q: Q, activityId: string): Promise<SubmissionDetail[]> {
  const rows = await selectSubmissions(q).where(eq(submissions.activityId, activityId)).orderBy(asc(submissions.submittedAt), asc(submissions.id));
  const out: SubmissionDetail[] = [];
  for (const r of rows) out.push(await detailOf(q, r, { forManager: false, attachmentShown: (name) => name === 'details' }));
  return out;
}
