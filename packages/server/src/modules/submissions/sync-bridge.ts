import type { SubmissionFile } from '@judge/contract';
import type Database from 'better-sqlite3';
import { toFile } from './views.js';

/*
 * What the judging flow still reads of submissions synchronously, inside its synchronous SQLite
 * transactions (judging/outcome.ts, judging/jobs.ts) where nothing can be awaited, and what the
 * files area's read rules ask synchronously (FileReadRule answers a boolean, files/service.ts).
 * The same rows as views.ts reads with the query builder; this file goes once those callers
 * await: judging then uses submissionRow and submissionFilesOf (views.ts), and the read rule
 * SubmissionsService.fileReaders.
 */

/** The columns of SubmissionRow (views.ts), under its names and in its forms; callers add WHERE, ORDER BY and LIMIT. */
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

/** The files of a submission, for the runner's job (judging/jobs.ts). */
export class DetailReader {
  private readonly submissionFiles: Database.Statement<[string], { name: string; fileName: string; language: string | null; fileId: string; sha256: string; sizeBytes: number }>;

  constructor(sqlite: Database.Database) {
    this.submissionFiles = sqlite.prepare(
      `SELECT sf.name, sf.file_name AS fileName, sf.language, sf.file_id AS fileId, f.sha256, f.size_bytes AS sizeBytes
       FROM submission_files sf JOIN files f ON f.id = sf.file_id WHERE sf.submission_id = ? ORDER BY sf.name`,
    );
  }

  files(submissionId: string): SubmissionFile[] {
    return this.submissionFiles.all(submissionId).map(toFile);
  }
}

/** Who a file belongs to among submissions and attempts, for the synchronous read rule. */
export class FileUses {
  private readonly sources: Database.Statement<[string], { activityId: string }>;
  private readonly attached: Database.Statement<[string], { activityId: string; userId: string; name: string }>;

  constructor(sqlite: Database.Database) {
    this.sources = sqlite.prepare('SELECT s.activity_id AS activityId FROM submission_files sf JOIN submissions s ON s.id = sf.submission_id WHERE sf.file_id = ?');
    this.attached = sqlite.prepare(
      `SELECT s.activity_id AS activityId, s.user_id AS userId, af.name FROM attempt_files af JOIN attempts a ON a.id = af.attempt_id
       JOIN submissions s ON s.id = a.submission_id WHERE af.file_id = ?`,
    );
  }

  /** The activities of the submissions that hold the file. */
  asSource(fileId: string): { activityId: string }[] {
    return this.sources.all(fileId);
  }

  /** The attempts' attachments that are the file, with their submission's activity and author. */
  asAttachment(fileId: string): { activityId: string; userId: string; name: string }[] {
    return this.attached.all(fileId);
  }
}
