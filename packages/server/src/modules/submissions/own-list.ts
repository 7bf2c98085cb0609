import { and, count, eq, sql } from 'drizzle-orm';
import { submissions } from '../../db/schema.js';
import { prepared, type Q } from '../../db/storage.js';
import { newestFirstOrder, selectSubmissions, type SubmissionRow } from './views.js';

/*
 * The participant's own submissions in an activity, newest first: every participant's page polls it
 * (every 10 s in participants-load.mjs' mix), so its two queries are built once per `q` and run
 * with placeholders (storage.ts, prepared()). Building them on every poll was the larger part of
 * its cost (bench/README.md, "The participant's polls").
 */
const mine = () => and(eq(submissions.activityId, sql.placeholder('activityId')), eq(submissions.userId, sql.placeholder('userId')));

const ownCount = prepared((q) => q.select({ n: count() }).from(submissions).where(mine()).prepare());

const ownPage = prepared((q) =>
  selectSubmissions(q)
    .where(mine())
    .orderBy(...newestFirstOrder())
    .limit(sql.placeholder('limit') as unknown as number)
    .offset(sql.placeholder('offset') as unknown as number)
    .prepare(),
);

/** One page of `userId`'s submissions in `activityId`, newest first, and how many there are in all. */
export async function ownSubmissions(q: Q, activityId: string, userId: string, page: number, pageSize: number): Promise<{ total: number; rows: SubmissionRow[] }> {
  const [counted] = await ownCount(q, { activityId, userId });
  const rows = await ownPage(q, { activityId, userId, limit: pageSize, offset: (page - 1) * pageSize });
  return { total: counted?.n ?? 0, rows };
}
