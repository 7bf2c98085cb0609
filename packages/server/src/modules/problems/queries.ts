import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import type { Db } from '../../db/database.js';
import { problemShares, problemVersions, problems, seriesProblems } from '../../db/schema.js';
import type { Audience } from '../../events/bus.js';
import { forbidden, notFound } from '@judge/contract';
import type { Deps } from '../../services.js';

export type ProblemRow = typeof problems.$inferSelect;
export type VersionRow = typeof problemVersions.$inferSelect;

export function findProblem(db: Db, id: string): ProblemRow | undefined {
  return db.select().from(problems).where(eq(problems.id, id)).get();
}

function sharedWith(db: Db, problemId: string, userId: string): boolean {
  return !!db
    .select({ u: problemShares.userId })
    .from(problemShares)
    .where(and(eq(problemShares.problemId, problemId), eq(problemShares.userId, userId)))
    .get();
}

/** Readable (decisions §5): the owner, instance visibility, shared with the caller, or problem:read:all. */
export function canReadProblem(d: Deps, userId: string, p: ProblemRow): boolean {
  if (p.ownerUserId === userId || d.permissions.now.has(userId, 'problem:read:all')) return true;
  if (!d.permissions.now.has(userId, 'problem:read:own')) return false;
  if (p.visibility === 'instance') return true;
  return p.visibility === 'shared' && sharedWith(d.db, p.id, userId);
}

/**
 * Editable with `key` (problem:update, problem:delete, ...): the caller holds the key and is the owner,
 * a user it is shared with, or a reader of every problem. Instance visibility lends reading only.
 */
export function canWriteProblem(d: Deps, userId: string, p: ProblemRow, key: Parameters<Deps['permissions']['has']>[1]): boolean {
  if (!d.permissions.now.has(userId, key)) return false;
  if (p.ownerUserId === userId || d.permissions.now.has(userId, 'problem:read:all')) return true;
  return p.visibility === 'shared' && sharedWith(d.db, p.id, userId);
}

/** The problem if readable, else 404 as if it did not exist. */
export function readableProblem(d: Deps, actor: Actor, id: string): ProblemRow {
  const p = findProblem(d.db, id);
  if (!p || !canReadProblem(d, actor.userId, p)) throw notFound('problem');
  return p;
}

/** The problem if the caller may change it with `key`: 404 when unreadable, 403 when only readable. */
export function writableProblem(d: Deps, actor: Actor, id: string, key: Parameters<Deps['permissions']['has']>[1]): ProblemRow {
  const p = readableProblem(d, actor, id);
  if (!canWriteProblem(d, actor.userId, p, key)) throw forbidden(key);
  return p;
}

export function newestVersion(db: Db, problemId: string): VersionRow | undefined {
  return db.select().from(problemVersions).where(eq(problemVersions.problemId, problemId)).orderBy(desc(problemVersions.version)).limit(1).get();
}

/** Slugs are unique regardless of case: the key is the lowercased slug. */
export const slugKey = (slug: string): string => slug.toLowerCase();

export function slugTaken(db: Db, slug: string, exceptId?: string): boolean {
  const row = db.select({ id: problems.id }).from(problems).where(eq(problems.slugKey, slugKey(slug))).get();
  return !!row && row.id !== exceptId;
}

/** The users a problem is shared with, in a stable order. */
export function sharedUserIds(db: Db, problemId: string): string[] {
  return db
    .select({ userId: problemShares.userId })
    .from(problemShares)
    .where(eq(problemShares.problemId, problemId))
    .orderBy(asc(problemShares.userId))
    .all()
    .map((r) => r.userId);
}

/** Assignments that use the problem: while there are any it cannot be deleted. */
export function attachedCount(db: Db, problemId: string): number {
  return db.select({ n: sql<number>`count(*)` }).from(seriesProblems).where(eq(seriesProblems.problemId, problemId)).get()?.n ?? 0;
}

/** Who hears of a problem: readers of every problem, its owner and those it is shared with. */
export function problemAudience(db: Db, p: ProblemRow): Audience {
  const users = [...(p.ownerUserId ? [p.ownerUserId] : []), ...sharedUserIds(db, p.id)];
  return { kind: 'permission', key: 'problem:read:all', alsoUsers: users };
}
