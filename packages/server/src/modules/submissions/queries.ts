import type { SubmissionsQuery } from '@judge/contract';
import type { z } from 'zod';
import { or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { iso } from '../../util.js';

type ListQuery = z.output<typeof SubmissionsQuery>;

/**
 * The WHERE of GET /submissions (decisions §2: filters go into the SQL, so `total` counts what they
 * let through) over SUBMISSION_SELECT's aliases, within the activities the caller may read, and
 * the FROM its count needs.
 */
export function listFilter(query: ListQuery, scope: { only?: string[]; except: string[] }): { filter: string; args: unknown[]; from: string } {
  const where: string[] = [];
  const args: unknown[] = [];
  if (scope.only) {
    where.push(`s.activity_id IN (${scope.only.map(() => '?').join(',')})`);
    args.push(...scope.only);
  } else if (scope.except.length) {
    where.push(`s.activity_id NOT IN (${scope.except.map(() => '?').join(',')})`);
    args.push(...scope.except);
  }
  const eq = (column: string, value: unknown) => {
    if (value === undefined) return;
    where.push(`${column} = ?`);
    args.push(value);
  };
  eq('s.activity_id', query.activityId);
  eq('s.series_id', query.seriesId);
  eq('s.series_problem_id', query.seriesProblemId);
  eq('s.user_id', query.userId);
  eq('s.state', query.state);
  eq('s.verdict', query.verdict);
  if (query.excluded !== undefined) eq('s.excluded', query.excluded ? 1 : 0);
  // stored times are ISO strings in UTC (iso()), so a normalised bound compares as text
  const bound = (op: string, time: string | undefined) => {
    if (time === undefined) return;
    where.push(`s.submitted_at ${op} ?`);
    args.push(iso(new Date(time)));
  };
  bound('>=', query.submittedFrom);
  bound('<', query.submittedBefore);
  if (query.search) {
    const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      "(u.username LIKE ?1 ESCAPE '\\' OR (coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) LIKE ?1 ESCAPE '\\' OR sp.slug LIKE ?1 ESCAPE '\\' OR coalesce(sp.name, p.name) LIKE ?1 ESCAPE '\\')".replaceAll(
        '?1',
        '?',
      ),
    );
    args.push(like, like, like, like);
  }
  return {
    filter: where.length ? ` WHERE ${where.join(' AND ')}` : '',
    args,
    // the count joins only what the search reads: a stream of 10,000 is counted from the submissions alone
    from: query.search
      ? 'FROM submissions s JOIN users u ON u.id = s.user_id JOIN series_problems sp ON sp.id = s.series_problem_id JOIN problems p ON p.id = sp.problem_id'
      : 'FROM submissions s',
  };
}

/**
 * Whether any of `columns` contains `text`, regardless of case, its wildcards taken literally.
 * Both sides are folded by the database's own lower(), so that the two engines agree on what they
 * fold (SQLite's LIKE alone ignores ASCII case, PostgreSQL's does not).
 */
export function containsFolded(text: string, ...columns: SQLWrapper[]): SQL | undefined {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(...columns.map((c) => sql`lower(${c}) LIKE lower(${pattern}) ESCAPE '\\'`));
}
