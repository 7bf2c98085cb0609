import type { Attempt, SubmissionDetail, SubmissionFile, SubmissionState, SubmissionSummary } from '@judge/contract';
import type Database from 'better-sqlite3';
import { compact } from '../../util.js';
import { displayName } from '../users/index.js';

/** A submission with everything its summary shows, read by one join. */
export interface SubmissionRow {
  id: string;
  activityId: string;
  activitySlug: string;
  seriesId: string;
  seriesName: string;
  seriesProblemId: string;
  problemSlug: string;
  problemName: string;
  problemType: string;
  maxPoints: number | null;
  userId: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  submittedAt: string;
  props: string | null;
  fileLanguage: string | null;
  state: SubmissionState;
  verdict: string | null;
  score: number | null;
  maxScore: number | null;
  attempts: number;
  excluded: number;
  excludedAt: string | null;
  excludedBy: string | null;
  exclusionReason: string | null;
  ipAddress: string | null;
  sessionId: string | null;
  deviceId: string | null;
  progressDone: number | null;
  progressTotal: number | null;
}

/** The columns of SubmissionRow; callers add WHERE, ORDER BY and LIMIT. */
export const SUBMISSION_SELECT = `
  SELECT s.id, s.activity_id AS activityId, a.slug AS activitySlug, s.series_id AS seriesId, se.name AS seriesName,
         s.series_problem_id AS seriesProblemId, sp.slug AS problemSlug, coalesce(sp.name, p.name) AS problemName,
         p.type AS problemType, sp.max_points AS maxPoints,
         s.user_id AS userId, u.username, u.first_name AS firstName, u.last_name AS lastName,
         s.submitted_at AS submittedAt, s.props,
         (SELECT language FROM submission_files WHERE submission_id = s.id AND language IS NOT NULL LIMIT 1) AS fileLanguage, s.state, s.verdict, s.score, s.max_score AS maxScore, s.attempts,
         s.excluded, s.excluded_at AS excludedAt, s.excluded_by AS excludedBy, s.exclusion_reason AS exclusionReason,
         s.ip_address AS ipAddress, s.session_id AS sessionId, s.device_id AS deviceId,
         CASE WHEN s.state = 'running' THEN (SELECT progress_done FROM attempts WHERE submission_id = s.id ORDER BY attempt DESC LIMIT 1) END AS progressDone,
         CASE WHEN s.state = 'running' THEN (SELECT progress_total FROM attempts WHERE submission_id = s.id ORDER BY attempt DESC LIMIT 1) END AS progressTotal
  FROM submissions s
  JOIN activities a ON a.id = s.activity_id
  JOIN series se ON se.id = s.series_id
  JOIN series_problems sp ON sp.id = s.series_problem_id
  JOIN problems p ON p.id = sp.problem_id
  JOIN users u ON u.id = s.user_id`;

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

interface AttemptRow {
  id: string;
  attempt: number;
  state: SubmissionState;
  createdAt: string;
  claimedAt: string | null;
  finishedAt: string | null;
  runnerName: string | null;
  verdict: string | null;
  score: number | null;
  maxScore: number | null;
  failureReason: string | null;
}

interface FileRow {
  owner: string;
  name: string;
  fileName: string;
  language: string | null;
  fileId: string;
  sha256: string;
  sizeBytes: number;
}

/** Reads what a detail view adds to a summary: the attempts and the files of submission and attempts. */
export class DetailReader {
  private readonly attempts: Database.Statement<[string], AttemptRow>;
  private readonly submissionFiles: Database.Statement<[string], FileRow>;
  private readonly attemptFiles: Database.Statement<[string], FileRow>;

  constructor(sqlite: Database.Database) {
    this.attempts = sqlite.prepare(
      `SELECT id, attempt, state, created_at AS createdAt, claimed_at AS claimedAt, finished_at AS finishedAt, runner_name AS runnerName,
              verdict, score, max_score AS maxScore, failure_reason AS failureReason
       FROM attempts WHERE submission_id = ? ORDER BY attempt DESC`,
    );
    this.submissionFiles = sqlite.prepare(
      `SELECT sf.submission_id AS owner, sf.name, sf.file_name AS fileName, sf.language, sf.file_id AS fileId, f.sha256, f.size_bytes AS sizeBytes
       FROM submission_files sf JOIN files f ON f.id = sf.file_id WHERE sf.submission_id = ? ORDER BY sf.name`,
    );
    this.attemptFiles = sqlite.prepare(
      `SELECT af.attempt_id AS owner, af.name, f.name AS fileName, NULL AS language, af.file_id AS fileId, f.sha256, f.size_bytes AS sizeBytes
       FROM attempt_files af JOIN attempts a ON a.id = af.attempt_id JOIN files f ON f.id = af.file_id
       WHERE a.submission_id = ? ORDER BY af.name`,
    );
  }

  files(submissionId: string): SubmissionFile[] {
    return this.submissionFiles.all(submissionId).map(toFile);
  }

  /**
   * The detail of a submission. `attachmentShown` decides which attempt files the reader sees;
   * `forManager` adds what only managers are shown (addresses, who excluded it and why, failure reasons).
   */
  detail(r: SubmissionRow, opts: { forManager: boolean; attachmentShown: (name: string) => boolean }): SubmissionDetail {
    const byAttempt = new Map<string, SubmissionFile[]>();
    for (const f of this.attemptFiles.all(r.id)) {
      if (!opts.attachmentShown(f.name)) continue;
      const list = byAttempt.get(f.owner);
      if (list) list.push(toFile(f));
      else byAttempt.set(f.owner, [toFile(f)]);
    }
    const attemptList = this.attempts.all(r.id).map(
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
      files: this.files(r.id),
    }) as SubmissionDetail;
  }
}

function toFile(f: FileRow): SubmissionFile {
  return compact({ name: f.name, fileName: f.fileName, language: f.language, fileId: f.fileId, sha256: f.sha256, sizeBytes: f.sizeBytes }) as SubmissionFile;
}
