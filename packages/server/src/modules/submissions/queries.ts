import type { SubmissionsQuery } from '@judge/contract';
import { and, count, eq, gte, inArray, lt, notInArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { z } from 'zod';
import { attemptFiles, attempts, problems, seriesProblems, submissionFiles, submissions, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { iso } from '../../util.js';

type ListQuery = z.output<typeof SubmissionsQuery>;

/**
 * Whether any of `columns` contains `text`, regardless of case, its wildcards taken literally.
 * Both sides are folded by the database's own lower(), so that the two engines agree on what they
 * fold (SQLite's LIKE alone ignores ASCII case, PostgreSQL's does not).
 */
export function containsFolded(text: string, ...columns: SQLWrapper[]): SQL | undefined {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(...columns.map((c) => sql`lower(${c}) LIKE lower(${pattern}) ESCAPE '\\'`));
}

/**
 * The WHERE of GET /submissions (decisions §2: filters go into the SQL, so `total` counts what they
 * let through) over selectSubmissions' tables, within the activities the caller may read.
 */
export function listFilter(query: ListQuery, scope: { only?: string[]; except: string[] }): SQL | undefined {
  const s = submissions;
  const is = <T>(column: SQLWrapper & Parameters<typeof eq>[0], value: T | undefined) => (value === undefined ? undefined : eq(column, value));
  // stored times are ISO strings in UTC (iso()), so a normalised bound compares as text
  const bound = (time: string | undefined) => (time === undefined ? undefined : iso(new Date(time)));
  const from = bound(query.submittedFrom);
  const before = bound(query.submittedBefore);
  return and(
    scope.only ? inArray(s.activityId, scope.only) : scope.except.length ? notInArray(s.activityId, scope.except) : undefined,
    is(s.activityId, query.activityId),
    is(s.seriesId, query.seriesId),
    is(s.seriesProblemId, query.seriesProblemId),
    is(s.userId, query.userId),
    is(s.state, query.state),
    is(s.verdict, query.verdict),
    is(s.excluded, query.excluded),
    from === undefined ? undefined : gte(s.submittedAt, from),
    before === undefined ? undefined : lt(s.submittedAt, before),
    query.search
      ? containsFolded(
          query.search,
          users.username,
          sql`coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')`,
          seriesProblems.slug,
          sql`coalesce(${seriesProblems.name}, ${problems.name})`,
        )
      : undefined,
  );
}

/** How many submissions `where` lets through; the count joins only what the search reads, so a stream of 10,000 is counted from the submissions alone. */
export async function countSubmissions(q: Q, where: SQL | undefined, searching: boolean): Promise<number> {
  const base = q.select({ n: count() }).from(submissions).$dynamic();
  const counted = searching
    ? base
        .innerJoin(users, eq(users.id, submissions.userId))
        .innerJoin(seriesProblems, eq(seriesProblems.id, submissions.seriesProblemId))
        .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
    : base;
  const [row] = await counted.where(where);
  return row?.n ?? 0;
}

/** The activities of the submissions that hold a file as one of their sources (submission_files_file). */
export function fileAsSource(q: Q, fileId: string): Promise<{ activityId: string }[]> {
  return q
    .select({ activityId: submissions.activityId })
    .from(submissionFiles)
    .innerJoin(submissions, eq(submissions.id, submissionFiles.submissionId))
    .where(eq(submissionFiles.fileId, fileId));
}

/** The attempts' attachments that are a file, with their submission's activity and author. */
export function fileAsAttachment(q: Q, fileId: string): Promise<{ activityId: string; userId: string; name: string }[]> {
  return q
    .select({ activityId: submissions.activityId, userId: submissions.userId, name: attemptFiles.name })
    .from(attemptFiles)
    .innerJoin(attempts, eq(attempts.id, attemptFiles.attemptId))
    .innerJoin(submissions, eq(submissions.id, attempts.submissionId))
    .where(eq(attemptFiles.fileId, fileId));
}
