import { ApiError, notFound, type MergePreview, type MergeRecord } from '@judge/contract';
import { and, count, desc, eq, isNull, lte, or } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { questions, submissions, userMerges, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import type { Deps } from '../../services.js';
import { compact, iso, newId } from '../../util.js';
import { announceUser, displayName, findUserById, missingOver, type UserRow } from '../users/index.js';
import { cellsOf, membershipClashes, membershipsOf, MOVERS, type Cell, type Moved } from './moves.js';

/** How long a merge can be undone; then the source account is anonymised (the retention worker). */
export const MERGE_UNDO_DAYS = 30;

type MergeRow = typeof userMerges.$inferSelect;

export interface MergeHooks {
  /** After commit: a ranking cell's submissions changed hands (judging's own hook). */
  submissionChanged(activityId: string, userId: string, seriesProblemId: string): void;
}

/**
 * Merging one account (the source: a guest account, a duplicate) into another (the target): what
 * the source made and holds moves to the target, the source is blocked, and for MERGE_UNDO_DAYS the
 * merge can be undone exactly (the record names every row that moved). Then the source is
 * anonymised and the merge is final.
 */
export class UserMergesService {
  constructor(
    private readonly d: Deps,
    private readonly hooks: MergeHooks,
  ) {}

  async preview(actor: Actor, sourceId: string, targetId: string): Promise<MergePreview> {
    await this.d.permissions.require(actor, 'user:merge');
    return this.d.tx.read(async (q) => {
      const { source, target } = await this.pair(q, sourceId, targetId);
      const [subs] = await q.select({ n: count() }).from(submissions).where(eq(submissions.userId, source.id));
      const [asked] = await q.select({ n: count() }).from(questions).where(eq(questions.authorUserId, source.id));
      const activityNames = await membershipsOf(q, source.id);
      return {
        sourceUserId: source.id,
        sourceLogin: source.username,
        sourceName: displayName(source),
        sourceIsTemporary: source.isTemporary,
        targetUserId: target.id,
        targetLogin: target.username,
        targetName: displayName(target),
        submissions: subs?.n ?? 0,
        questions: asked?.n ?? 0,
        activities: activityNames.length,
        activityNames,
        blockers: await this.blockers(q, actor, source, target),
      };
    });
  }

  /** PostgreSQL: SERIALIZABLE (retried), so a submission made meanwhile either moves or waits for the block. */
  async merge(actor: Actor, sourceId: string, targetId: string): Promise<MergeRecord> {
    await this.d.permissions.require(actor, 'user:merge');
    return this.d.tx.write(async (q, out) => {
      const { source, target } = await this.pair(q, sourceId, targetId);
      const blockers = await this.blockers(q, actor, source, target);
      if (blockers.length) throw ApiError.of('merge.blocked', blockers.join(' '));
      const now = this.d.clock.now();
      const moved: Moved = {};
      for (const [table, mover] of Object.entries(MOVERS)) {
        const ids = await mover.movable(q, source.id, target.id);
        await mover.move(q, ids, source.id, target.id);
        moved[table] = ids;
      }
      const [row] = await q
        .insert(userMerges)
        .values({
          id: newId(),
          sourceUserId: source.id,
          targetUserId: target.id,
          mergedAt: iso(now),
          mergedByUserId: actor.userId,
          anonymiseAfter: iso(new Date(now.getTime() + MERGE_UNDO_DAYS * 86_400_000)),
          moved,
          sourceBefore: { blockedAt: source.blockedAt, blockedReason: source.blockedReason },
        })
        .returning();
      const [blocked] = await q
        .update(users)
        .set({ blockedAt: source.blockedAt ?? iso(now), blockedReason: `Merged into ${target.username}` })
        .where(eq(users.id, source.id))
        .returning();
      await this.d.sessions.endAllOfUser(q, source.id, 'blocked', now, out);
      await this.settle(q, out, moved, [source.id, target.id], blocked!, target);
      this.d.log.info({ mergeId: row!.id, sourceUserId: source.id, targetUserId: target.id, by: actor.userId }, 'accounts merged');
      return recordOf(row!, blocked!, target, now);
    });
  }

  async undo(actor: Actor, mergeId: string): Promise<MergeRecord> {
    await this.d.permissions.require(actor, 'user:merge');
    return this.d.tx.write(async (q, out) => {
      const m = await mergeRow(q, mergeId);
      if (!m) throw notFound('merge');
      const now = this.d.clock.now();
      if (!(await undoable(q, m, now))) throw ApiError.of('merge.undo.unavailable', undoRefusal(m));
      const source = (await findUserById(q, m.sourceUserId))!;
      const target = (await findUserById(q, m.targetUserId))!;
      for (const who of [source.id, target.id]) {
        const gap = await missingOver(this.d.permissions, q, actor.userId, who);
        if (gap) throw ApiError.of('forbidden', `The account holds ${gap}, which you do not`);
      }
      for (const [table, ids] of Object.entries(m.moved)) await MOVERS[table]?.move(q, ids, target.id, source.id);
      const [restored] = await q.update(users).set({ blockedAt: m.sourceBefore.blockedAt, blockedReason: m.sourceBefore.blockedReason }).where(eq(users.id, source.id)).returning();
      const [row] = await q.update(userMerges).set({ undoneAt: iso(now) }).where(eq(userMerges.id, m.id)).returning();
      await this.settle(q, out, m.moved, [source.id, target.id], restored!, target);
      this.d.log.info({ mergeId: m.id, by: actor.userId }, 'merge undone');
      return recordOf(row!, restored!, target, now);
    });
  }

  async list(actor: Actor, userId: string): Promise<MergeRecord[]> {
    await this.d.permissions.require(actor, 'user:merge');
    return this.d.tx.read(async (q) => {
      if (!(await findUserById(q, userId))) throw notFound('user');
      const rows = await q
        .select()
        .from(userMerges)
        .where(or(eq(userMerges.sourceUserId, userId), eq(userMerges.targetUserId, userId)))
        .orderBy(desc(userMerges.mergedAt), desc(userMerges.id));
      const now = this.d.clock.now();
      const out: MergeRecord[] = [];
      for (const r of rows) out.push(recordOf(r, (await findUserById(q, r.sourceUserId))!, (await findUserById(q, r.targetUserId))!, now, await undoable(q, r, now)));
      return out;
    });
  }

  /**
   * The retention worker's part: sources of merges past `anonymiseAfter` lose their login, names,
   * address and password for good (`merged-…`); what moved stays with the target.
   */
  async anonymiseDue(now: Date): Promise<number> {
    return this.d.tx.write(async (q, out) => {
      const due = await q
        .select()
        .from(userMerges)
        .where(and(isNull(userMerges.undoneAt), isNull(userMerges.sourceAnonymisedAt), lte(userMerges.anonymiseAfter, iso(now))));
      for (const m of due) {
        const login = `merged-${m.sourceUserId.replace(/-/g, '').slice(-12)}`;
        const [row] = await q
          .update(users)
          .set({ username: login, usernameKey: login, email: null, emailKey: null, emailConfirmed: false, passwordHash: null, firstName: null, lastName: null, note: null, tags: [], twoFactorKey: null, twoFactorEnabled: false, recoveryCodes: [] })
          .where(eq(users.id, m.sourceUserId))
          .returning();
        await q.update(userMerges).set({ sourceAnonymisedAt: iso(now) }).where(eq(userMerges.id, m.id));
        if (row) await announceUser(q, row, out);
      }
      return due.length;
    });
  }

  private async pair(q: Q, sourceId: string, targetId: string): Promise<{ source: UserRow; target: UserRow }> {
    const source = await findUserById(q, sourceId);
    if (!source) throw notFound('user');
    const target = await findUserById(q, targetId);
    if (!target) throw notFound('target user');
    return { source, target };
  }

  /** Why the merge cannot be made, one sentence each (the preview lists them; the merge refuses with them). */
  private async blockers(q: Q, actor: Actor, source: UserRow, target: UserRow): Promise<string[]> {
    if (source.id === target.id) return ['An account cannot be merged into itself.'];
    const out: string[] = [];
    if (source.id === actor.userId) out.push('You cannot merge your own account away: another administrator can.');
    if (await liveMergeFrom(q, source.id)) out.push(`${source.username} was merged into another account already: undo that merge first.`);
    if (await liveMergeFrom(q, target.id)) out.push(`${target.username} was merged into another account: merge into that one instead.`);
    for (const who of [source, target]) {
      const gap = await missingOver(this.d.permissions, q, actor.userId, who.id);
      if (gap) out.push(`${who.username} holds ${gap}, which you do not.`);
    }
    out.push(...(await membershipClashes(q, source.id, target.id)).map((s) => `${s}.`));
    return out;
  }

  /** Inside the write: both accounts' changes are told, permissions read again, and the moved submissions' ranking cells refreshed after commit. */
  private async settle(q: Q, out: Outbox, moved: Moved, accounts: string[], source: UserRow, target: UserRow): Promise<void> {
    out.touchPermissions();
    await announceUser(q, source, out);
    await announceUser(q, target, out);
    const cells: Cell[] = await cellsOf(q, moved.submissions ?? [], accounts);
    for (const c of cells) {
      out.note({ what: 'submission', ...c });
      out.then(() => this.hooks.submissionChanged(c.activityId, c.userId, c.seriesProblemId));
    }
  }
}

async function mergeRow(q: Q, id: string): Promise<MergeRow | undefined> {
  return (await q.select().from(userMerges).where(eq(userMerges.id, id)).limit(1))[0];
}

async function liveMergeFrom(q: Q, userId: string): Promise<boolean> {
  const rows = await q
    .select({ id: userMerges.id })
    .from(userMerges)
    .where(and(eq(userMerges.sourceUserId, userId), isNull(userMerges.undoneAt)))
    .limit(1);
  return rows.length > 0;
}

/** Not undone, not anonymised, before its time, and the target not merged away since (what moved may have moved on). */
async function undoable(q: Q, m: MergeRow, now: Date): Promise<boolean> {
  if (m.undoneAt || m.sourceAnonymisedAt || m.anonymiseAfter <= iso(now)) return false;
  return !(await liveMergeFrom(q, m.targetUserId));
}

function undoRefusal(m: MergeRow): string {
  if (m.undoneAt) return 'This merge was undone already';
  if (m.sourceAnonymisedAt) return 'The merged account was anonymised: the merge is final';
  return 'The merge can no longer be undone: its time is over, or the target was merged into another account since (undo that first)';
}

function recordOf(m: MergeRow, source: UserRow, target: UserRow, now: Date, canUndo?: boolean): MergeRecord {
  return compact({
    id: m.id,
    sourceUserId: m.sourceUserId,
    targetUserId: m.targetUserId,
    mergedAt: m.mergedAt,
    mergedByUserId: m.mergedByUserId,
    anonymiseAfter: m.anonymiseAfter,
    sourceAnonymisedAt: m.sourceAnonymisedAt,
    undoneAt: m.undoneAt,
    canUndo: canUndo ?? (!m.undoneAt && !m.sourceAnonymisedAt && m.anonymiseAfter > iso(now)),
    sourceLogin: source.username,
    targetLogin: target.username,
  }) as MergeRecord;
}
