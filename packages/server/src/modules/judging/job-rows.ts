import type { SubmissionFile } from '@judge/contract';
import { and, asc, eq, exists, or, sql } from 'drizzle-orm';
import { attempts, files, problemVersionFiles, problemVersions, sampleRuns, seriesProblems, submissionFiles, submissions, trials } from '../../db/schema.js';
import { portableAlias } from '../../db/portable-alias.js';
import { prepared, type Q } from '../../db/storage.js';
import { compact } from '../../util.js';

/*
 * The reads of the job side of the runner protocol, as builders. A state is compared with a
 * literal, not a bound value: `attempts_queue` and `attempts_lease` are partial indexes
 * (`WHERE state = 'queued'` / `'running'`), and SQLite uses one only where the query says the same.
 */
export const isQueued = sql`${attempts.state} = 'queued'`;
export const isRunning = sql`${attempts.state} = 'running'`;

/** A LIMIT written into the SQL text: a bound LIMIT made SQLite prepare the claim's query again on every claim. */
export const literalLimit = (n: number): number => sql.raw(String(Math.trunc(n))) as unknown as number;

const JOB = {
  id: attempts.id,
  submissionId: attempts.submissionId,
  attempt: attempts.attempt,
  state: attempts.state,
  runnerId: attempts.runnerId,
  leaseHash: attempts.leaseHash,
  leaseExpiresAt: attempts.leaseExpiresAt,
  deliveries: attempts.deliveries,
  resultId: attempts.resultId,
  failedLeaseHash: attempts.failedLeaseHash,
  failedReportId: attempts.failedReportId,
};

/** The lease and result columns of one job (an attempt); undefined when there is none. */
export async function jobRow(q: Q, jobId: string) {
  return (await jobById(q, { id: jobId }))[0];
}

/* The job side's reads, on every claim and report: built once per `q` (storage.ts, prepared()). */
const jobById = prepared((q) => q.select(JOB).from(attempts).where(eq(attempts.id, sql.placeholder('id'))).limit(literalLimit(1)).prepare());
const claimedJobRows = prepared((q) => claimedJobQuery(q).prepare());

/** The job's source files are the submission's: a second name for `files`, beside the version's package. */
const source = portableAlias(files, 'source');

/**
 * What a claimed job carries besides its own columns: the submission's props and files, the
 * assignment's config, the version's props, package and limits. One read, a row per source file
 * (a submission has one or a few), the rest repeated on each.
 */
export async function claimedJob(q: Q, jobId: string) {
  const rows = await claimedJobRows(q, { id: jobId });
  const first = rows[0];
  if (!first) return undefined;
  const sources: SubmissionFile[] = [];
  for (const f of rows) {
    if (f.name === null || f.fileName === null || f.fileId === null || f.sha256 === null || f.sizeBytes === null) continue;
    sources.push(compact({ name: f.name, fileName: f.fileName, language: f.language, fileId: f.fileId, sha256: f.sha256, sizeBytes: f.sizeBytes }) as SubmissionFile);
  }
  return { ...first, files: sources };
}

function claimedJobQuery(q: Q) {
  return q
    .select({
      props: submissions.props,
      versionProps: problemVersions.props,
      config: seriesProblems.config,
      packageFileId: problemVersionFiles.fileId,
      packageSha256: files.sha256,
      packageInfo: problemVersions.packageInfo,
      name: submissionFiles.name,
      fileName: submissionFiles.fileName,
      language: submissionFiles.language,
      fileId: submissionFiles.fileId,
      sha256: source.sha256,
      sizeBytes: source.sizeBytes,
    })
    .from(attempts)
    .innerJoin(submissions, eq(submissions.id, attempts.submissionId))
    .innerJoin(seriesProblems, eq(seriesProblems.id, submissions.seriesProblemId))
    .innerJoin(problemVersions, eq(problemVersions.id, attempts.problemVersionId))
    .leftJoin(problemVersionFiles, and(eq(problemVersionFiles.versionId, problemVersions.id), sql`${problemVersionFiles.role} = 'package'`))
    .leftJoin(files, eq(files.id, problemVersionFiles.fileId))
    .leftJoin(submissionFiles, eq(submissionFiles.submissionId, submissions.id))
    .leftJoin(source, eq(source.id, submissionFiles.fileId))
    .where(eq(attempts.id, sql.placeholder('id')))
    .orderBy(asc(submissionFiles.name));
}

const ONE = { one: sql<number>`1` };

/**
 * Whether a runner holds work that needs this file right now: a running job of its (the version's
 * files, the submission's files), or the package of a trial or a sample run it runs. Asked in that
 * order, each read stopping at its first row.
 */
export async function holdsFile(q: Q, runnerId: string, fileId: string): Promise<boolean> {
  const ofJob = await q
    .select(ONE)
    .from(attempts)
    .where(
      and(
        eq(attempts.runnerId, runnerId),
        isRunning,
        or(
          exists(q.select(ONE).from(submissionFiles).where(and(eq(submissionFiles.submissionId, attempts.submissionId), eq(submissionFiles.fileId, fileId)))),
          exists(q.select(ONE).from(problemVersionFiles).where(and(eq(problemVersionFiles.versionId, attempts.problemVersionId), eq(problemVersionFiles.fileId, fileId)))),
        ),
      ),
    )
    .limit(1);
  if (ofJob.length) return true;
  const ofTrial = await q
    .select(ONE)
    .from(trials)
    .where(and(eq(trials.runnerId, runnerId), sql`${trials.state} = 'running'`, eq(trials.packageFileId, fileId)))
    .limit(1);
  if (ofTrial.length) return true;
  const ofSampleRun = await q
    .select(ONE)
    .from(sampleRuns)
    .innerJoin(problemVersionFiles, and(eq(problemVersionFiles.versionId, sampleRuns.problemVersionId), sql`${problemVersionFiles.role} = 'package'`))
    .where(and(eq(sampleRuns.runnerId, runnerId), sql`${sampleRuns.state} = 'running'`, eq(problemVersionFiles.fileId, fileId)))
    .limit(1);
  return ofSampleRun.length > 0;
}
