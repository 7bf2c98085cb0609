import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import type { Q } from '../../db/storage.js';
import { problemShares, problemVersions, problems, seriesProblems } from '../../db/schema.js';
import type { Audience } from '../../events/bus.js';
import { forbidden, notFound } from '@judge/contract';
import type { Deps } from '../../services.js';

export type ProblemRow = typeof problems.$inferSelect;
export type VersionRow = typeof problemVersions.$inferSelect;

export async function findProblem(q: Q, id: string): Promise<ProblemRow | undefined> {
  return (await q.select().from(problems).where(eq(problems.id, id)).limit(1))[0];
}

async function sharedWith(q: Q, problemId: string, userId: string): Promise<boolean> {
  const found = await q
    .select({ u: problemShares.userId })
    .from(problemShares)
    .where(and(eq(problemShares.problemId, problemId), eq(problemShares.userId, userId)))
    .limit(1);
  return found.length > 0;
}

/** Readable (decisions §5): the owner, instance visibility, shared with the caller, or problem:read:all. */
export async function canReadProblem(d: Deps, q: Q, userId: string, p: ProblemRow): Promise<boolean> {
  const may = await d.permissions.of(userId, q);
  if (p.ownerUserId === userId || may.has('problem:read:all')) return true;
  if (!may.has('problem:read:own')) return false;
  if (p.visibility === 'instance') return true;
  return p.visibility === 'shared' && (await sharedWith(q, p.id, userId));
}

/**
 * Editable with `key` (problem:update, problem:delete, ...): the caller holds the key and is the owner,
 * a user it is shared with, or a reader of every problem. Instance visibility lends reading only.
 */
export async function canWriteProblem(d: Deps, q: Q, userId: string, p: ProblemRow, key: Parameters<Deps['permissions']['has']>[1]): Promise<boolean> {
  const may = await d.permissions.of(userId, q);
  if (!may.has(key)) return false;
  if (p.ownerUserId === userId || may.has('problem:read:all')) return true;
  return p.visibility === 'shared' && (await sharedWith(q, p.id, userId));
}

/** The problem if readable, else 404 as if it did not exist; read with `q`, the caller's read or write. */
export async function readableProblem(d: Deps, q: Q, actor: Actor, id: string): Promise<ProblemRow> {
  const p = await findProblem(q, id);
  if (!p || !(await canReadProblem(d, q, actor.userId, p))) throw notFound('problem');
  return p;
}

/** The problem if the caller may change it with `key`: 404 when unreadable, 403 when only readable. */
export async function writableProblem(d: Deps, q: Q, actor: Actor, id: string, key: Parameters<Deps['permissions']['has']>[1]): Promise<ProblemRow> {
  const p = await readableProblem(d, q, actor, id);
  if (!(await canWriteProblem(d, q, actor.userId, p, key))) throw forbidden(key);
  return p;
}

export async function newestVersion(q: Q, problemId: string): Promise<VersionRow | undefined> {
  return (await q.select().from(problemVersions).where(eq(problemVersions.problemId, problemId)).orderBy(desc(problemVersions.version)).limit(1))[0];
}

/** Slugs are unique regardless of case: the key is the lowercased slug. */
export const slugKey = (slug: string): string => slug.toLowerCase();

export async function slugTaken(q: Q, slug: string, exceptId?: string): Promise<boolean> {
  const [row] = await q.select({ id: problems.id }).from(problems).where(eq(problems.slugKey, slugKey(slug))).limit(1);
  return !!row && row.id !== exceptId;
}

/** The users a problem is shared with, in a stable order. */
export async function sharedUserIds(q: Q, problemId: string): Promise<string[]> {
  const rows = await q.select({ userId: problemShares.userId }).from(problemShares).where(eq(problemShares.problemId, problemId)).orderBy(asc(problemShares.userId));
  return rows.map((r) => r.userId);
}

/** Assignments that use the problem: while there are any it cannot be deleted. */
export async function attachedCount(q: Q, problemId: string): Promise<number> {
  const [row] = await q.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(seriesProblems).where(eq(seriesProblems.problemId, problemId));
  return row?.n ?? 0;
}

/** Who hears of a problem: readers of every problem, its owner and those it is shared with. */
export async function problemAudience(q: Q, p: ProblemRow): Promise<Audience> {
  const users = [...(p.ownerUserId ? [p.ownerUserId] : []), ...(await sharedUserIds(q, p.id))];
  return { kind: 'permission', key: 'problem:read:all', alsoUsers: users };
}
