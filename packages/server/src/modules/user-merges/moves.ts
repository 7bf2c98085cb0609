import { and, eq, inArray } from 'drizzle-orm';
import { activities, files, grants, printouts, problems, problemShares, questionReads, questions, roles, submissions } from '../../db/schema.js';
import { portableAlias as alias } from '../../db/portable-alias.js';
import type { Q } from '../../db/storage.js';

/** A ranking cell whose submissions changed hands: the ranking and the standings read it again. */
export interface Cell {
  activityId: string;
  userId: string;
  seriesProblemId: string;
}

/** What a merge moved, table by table: the ids (for reads and shares, the question or problem ids). */
export type Moved = Record<string, string[]>;

/** The ids of rows with a user column, and how a set of them changes hands. */
interface Mover {
  /** The rows of `userId` that move to `targetId` (those whose key the target holds already stay). */
  movable(q: Q, userId: string, targetId: string): Promise<string[]>;
  /** Moves exactly these rows from one account to the other (both ways: merge and undo). */
  move(q: Q, ids: string[], from: string, to: string): Promise<void>;
}

const chunks = <T>(xs: T[], n = 500): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/** A table whose rows carry one user column and an `id`. */
function byId(table: typeof submissions | typeof questions | typeof files | typeof printouts | typeof problems, column: 'userId' | 'authorUserId' | 'uploadedBy' | 'ownerUserId'): Mover {
  const col = (table as unknown as Record<string, typeof submissions.userId>)[column]!;
  const id = (table as unknown as { id: typeof submissions.id }).id;
  return {
    async movable(q, userId) {
      return (await q.select({ id }).from(table).where(eq(col, userId))).map((r) => r.id);
    },
    async move(q, ids, from, to) {
      for (const part of chunks(ids)) await q.update(table).set({ [column]: to }).where(and(inArray(id, part), eq(col, from)));
    },
  };
}

/**
 * A table keyed by (key, user), such as who read which question: the rows whose key the target has
 * already stay with the source (a question both read stays read by the target).
 */
function byKey(table: typeof questionReads | typeof problemShares, key: 'questionId' | 'problemId'): Mover {
  const k = (table as unknown as Record<string, typeof questionReads.questionId>)[key]!;
  const user = table.userId;
  const keysOf = async (q: Q, userId: string) => (await q.select({ k }).from(table).where(eq(user, userId))).map((r) => r.k);
  return {
    async movable(q, userId, targetId) {
      const held = new Set(await keysOf(q, targetId));
      return (await keysOf(q, userId)).filter((x) => !held.has(x));
    },
    async move(q, ids, from, to) {
      for (const part of chunks(ids)) await q.update(table).set({ userId: to }).where(and(inArray(k, part), eq(user, from)));
    },
  };
}

/**
 * Every user column a merge moves, in the order it moves them. Not moved: sessions (they end),
 * sample runs (short-lived, not results), staff marks on others' rows (who excluded, answered or
 * printed something stays who did it).
 */
export const MOVERS: Record<string, Mover> = {
  submissions: byId(submissions, 'userId'),
  questions: byId(questions, 'authorUserId'),
  files: byId(files, 'uploadedBy'),
  printouts: byId(printouts, 'userId'),
  problems: byId(problems, 'ownerUserId'),
  questionReads: byKey(questionReads, 'questionId'),
  problemShares: byKey(problemShares, 'problemId'),
  // a membership (or system role) the target has already stays with the source, which is blocked
  grants: {
    async movable(q, userId, targetId) {
      const mine = await q.select().from(grants).where(eq(grants.userId, userId));
      const held = await q.select().from(grants).where(eq(grants.userId, targetId));
      return mine
        .filter((g) => !held.some((h) => (g.activityId ? h.activityId === g.activityId : !h.activityId && h.roleId === g.roleId)))
        .map((g) => g.id);
    },
    async move(q, ids, from, to) {
      for (const part of chunks(ids)) await q.update(grants).set({ userId: to }).where(and(inArray(grants.id, part), eq(grants.userId, from)));
    },
  },
};

/** The ranking cells of these submissions, for both accounts. */
export async function cellsOf(q: Q, submissionIds: string[], accounts: string[]): Promise<Cell[]> {
  const seen = new Map<string, Cell>();
  for (const part of chunks(submissionIds)) {
    const rows = await q.selectDistinct({ activityId: submissions.activityId, seriesProblemId: submissions.seriesProblemId }).from(submissions).where(inArray(submissions.id, part));
    for (const r of rows) for (const userId of accounts) seen.set(`${r.activityId}\n${r.seriesProblemId}\n${userId}`, { ...r, userId });
  }
  return [...seen.values()];
}

/**
 * The activities where both accounts are members under different roles: which role the merged
 * account should have there is a decision for staff (change one first), not for the merge.
 */
export async function membershipClashes(q: Q, sourceId: string, targetId: string): Promise<string[]> {
  const target = alias(grants, 'target_grants');
  const sourceRole = alias(roles, 'source_role');
  const targetRole = alias(roles, 'target_role');
  const rows = await q
    .select({ activity: activities.name, mine: sourceRole.name, theirs: targetRole.name, a: grants.roleId, b: target.roleId })
    .from(grants)
    .innerJoin(target, and(eq(target.activityId, grants.activityId), eq(target.userId, targetId)))
    .innerJoin(activities, eq(activities.id, grants.activityId))
    .innerJoin(sourceRole, eq(sourceRole.id, grants.roleId))
    .innerJoin(targetRole, eq(targetRole.id, target.roleId))
    .where(eq(grants.userId, sourceId));
  return rows.filter((r) => r.a !== r.b).map((r) => `Both are members of ${r.activity}, as ${r.mine} and as ${r.theirs}: give them the same role there first`);
}

/** The names of the activities the account is a member of. */
export async function membershipsOf(q: Q, userId: string): Promise<string[]> {
  const rows = await q
    .select({ name: activities.name })
    .from(grants)
    .innerJoin(activities, eq(activities.id, grants.activityId))
    .where(eq(grants.userId, userId))
    .orderBy(activities.name);
  return rows.map((r) => r.name);
}
