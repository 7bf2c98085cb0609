import type { Attempt, SubmissionDetail, SubmissionFile, SubmissionState, SubmissionSummary } from '@judge/contract';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { activities, attemptFiles, attempts, files, problems, series, seriesProblems, submissionFiles, submissions, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { compact, groupBy } from '../../util.js';
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

type DetailOptions = { forManager: boolean; attachmentShown: (name: string) => boolean };
/** Whose attempts and files one read of details covers: one submission's, or an activity's. */
type Scope = { submissionId: string } | { activityId: string };

/** The attempts (newest first), their attachments and the submissions' files of a scope, three queries whatever its size. */
async function partsOf(q: Q, scope: Scope) {
  const ofAttempts = 'submissionId' in scope ? eq(attempts.submissionId, scope.submissionId) : eq(submissions.activityId, scope.activityId);
  const ofFiles = 'submissionId' in scope ? eq(submissionFiles.submissionId, scope.submissionId) : eq(submissions.activityId, scope.activityId);
  const attached = await q
    .select({ owner: attemptFiles.attemptId, name: attemptFiles.name, fileName: files.name, fileId: attemptFiles.fileId, sha256: files.sha256, sizeBytes: files.sizeBytes })
    .from(attemptFiles)
    .innerJoin(attempts, eq(attempts.id, attemptFiles.attemptId))
    .innerJoin(submissions, eq(submissions.id, attempts.submissionId))
    .innerJoin(files, eq(files.id, attemptFiles.fileId))
    .where(ofAttempts)
    .orderBy(attemptFiles.name);
  const attemptRows = await q
    .select({
      submissionId: attempts.submissionId,
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
    .innerJoin(submissions, eq(submissions.id, attempts.submissionId))
    .where(ofAttempts)
    .orderBy(desc(attempts.attempt));
  const fileRows = await q
    .select({
      submissionId: submissionFiles.submissionId,
      name: submissionFiles.name,
      fileName: submissionFiles.fileName,
      language: submissionFiles.language,
      fileId: submissionFiles.fileId,
      sha256: files.sha256,
      sizeBytes: files.sizeBytes,
    })
    .from(submissionFiles)
    .innerJoin(submissions, eq(submissions.id, submissionFiles.submissionId))
    .innerJoin(files, eq(files.id, submissionFiles.fileId))
    .where(ofFiles)
    .orderBy(submissionFiles.name);
  return { attached: groupBy(attached, (f) => f.owner), attempts: groupBy(attemptRows, (a) => a.submissionId), files: groupBy(fileRows, (f) => f.submissionId) };
}

/**
 * The details of submissions: each its summary with its attempts and the files of submission and
 * attempts. `attachmentShown` decides which attempt files the reader sees; `forManager` adds what
 * only managers are shown (addresses, who excluded it and why, failure reasons).
 */
async function detailsOf(q: Q, rows: SubmissionRow[], opts: DetailOptions, scope: Scope): Promise<SubmissionDetail[]> {
  if (!rows.length) return [];
  const parts = await partsOf(q, scope);
  return rows.map((r) => {
    const attemptList = (parts.attempts.get(r.id) ?? []).map(
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
          files: (parts.attached.get(a.id) ?? []).filter((f) => opts.attachmentShown(f.name)).map(toFile),
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
      files: (parts.files.get(r.id) ?? []).map(toFile),
    }) as SubmissionDetail;
  });
}

/** The detail of one submission (see detailsOf). */
export async function detailOf(q: Q, r: SubmissionRow, opts: DetailOptions): Promise<SubmissionDetail> {
  return (await detailsOf(q, [r], opts, { submissionId: r.id }))[0]!;
}

/** A file of a submission or an attempt as the wire shows it. */
export function toFile(f: { name: string; fileName: string; language?: string | null; fileId: string; sha256: string; sizeBytes: number }): SubmissionFile {
  return compact({ name: f.name, fileName: f.fileName, language: f.language ?? null, fileId: f.fileId, sha256: f.sha256, sizeBytes: f.sizeBytes }) as SubmissionFile;
}

/**
 * Every submission of an activity with its attempts, the runners' `details` attachments and its
 * files, oldest first, unchecked: for an area that decided itself who reads what (the CLICS API,
 * decisions §25). Four queries, whatever the contest's size.
 */
export async function allInActivity(q: Q, activityId: string): Promise<SubmissionDetail[]> {
  const rows = await selectSubmissions(q).where(eq(submissions.activityId, activityId)).orderBy(asc(submissions.submittedAt), asc(submissions.id));
  return detailsOf(q, rows, { forManager: false, attachmentShown: (name) => name === 'details' }, { activityId });
}

/** One submission as allInActivity gives it, if it is one of the activity's. */
export async function oneInActivity(q: Q, activityId: string, submissionId: string): Promise<SubmissionDetail | undefined> {
  const r = await submissionRow(q, submissionId);
  if (!r || r.activityId !== activityId) return undefined;
  return detailOf(q, r, { forManager: false, attachmentShown: (name) => name === 'details' });
}
