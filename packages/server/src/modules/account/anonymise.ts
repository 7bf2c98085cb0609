import { rm } from 'node:fs/promises';
import { and, eq, inArray, like, notExists, or } from 'drizzle-orm';
import {
  accountCodes,
  activityDocuments,
  attemptFiles,
  clicsEvents,
  files,
  printouts,
  problemVersionFiles,
  questions,
  rememberedMachines,
  runnerFiles,
  submissionFiles,
  submissions,
  trials,
  users,
} from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';
import type { BlobStore } from '../files/index.js';
import { announceUser, type UserRow } from '../users/index.js';

/** What a deleted account's questions read instead. */
const DELETED_TEXT = '[deleted]';

/** The placeholder login of a deleted account: the ranking shows it where the name was. */
export const deletedLogin = (userId: string) => `deleted-${userId.replace(/-/g, '').slice(-12)}`;

/**
 * Empties an account inside the caller's write (its owner deleting it, or a provider's deletion
 * request carried out): it is anonymised rather than removed, so contests keep their results under
 * a placeholder; what was theirs to say (names, address, sources, printouts, questions) goes, and
 * every session ends. Answers the blobs to remove after commit (removeOrphanBlobs).
 */
export async function anonymiseAccount(d: Deps, q: Q, out: Outbox, u: UserRow, reason: string, now: Date): Promise<string[]> {
  const removed = await removeSources(q, u.id);
  await q
    .update(printouts)
    .set({ source: null, sourceDisposedAt: iso(now) })
    .where(eq(printouts.userId, u.id));
  await q.update(questions).set({ topic: DELETED_TEXT, body: DELETED_TEXT }).where(eq(questions.authorUserId, u.id));
  // the CLICS event feeds' copies of what was theirs to say (their names, their questions) and of
  // what only they were shown; the feeds' writer appends the placeholders (userChanged, below)
  await q
    .delete(clicsEvents)
    .where(or(eq(clicsEvents.audience, `team:${u.id}`), and(inArray(clicsEvents.type, ['teams', 'accounts', 'clarifications']), like(clicsEvents.data, `%"${u.id}"%`))));
  await q.delete(rememberedMachines).where(eq(rememberedMachines.userId, u.id));
  await q.delete(accountCodes).where(eq(accountCodes.userId, u.id));
  const login = deletedLogin(u.id);
  const [row] = await q
    .update(users)
    .set({
      username: login,
      usernameKey: login,
      email: null,
      emailKey: null,
      emailConfirmed: false,
      passwordHash: null,
      firstName: null,
      lastName: null,
      note: null,
      tags: [],
      twoFactorKey: null,
      twoFactorEnabled: false,
      recoveryCodes: [],
      blockedAt: u.blockedAt ?? iso(now),
      blockedReason: reason,
    })
    .where(eq(users.id, u.id))
    .returning();
  await d.sessions.endAllOfUser(q, u.id, 'blocked', now, out);
  out.note({ what: 'user', userId: u.id });
  await announceUser(q, row!, out);
  return removed;
}

/** After the commit of anonymiseAccount: the blobs of its sources, unless an upload of the same bytes since made a row that needs them. */
export async function removeOrphanBlobs(d: Deps, blobs: BlobStore, orphans: string[]): Promise<void> {
  for (const sha256 of orphans) {
    const since = await d.tx.read((q) => q.select({ id: files.id }).from(files).where(eq(files.sha256, sha256)).limit(1));
    if (!since.length) await rm(blobs.pathOf(sha256), { force: true });
  }
}

/**
 * Removes the account's submission files, and the file rows (and blob hashes) that nothing else
 * uses: a source another account submitted too, or a problem's file of the same bytes, stays.
 */
async function removeSources(q: Q, userId: string): Promise<string[]> {
  const mine = q.select({ id: submissions.id }).from(submissions).where(eq(submissions.userId, userId));
  const held = await q.select({ fileId: submissionFiles.fileId }).from(submissionFiles).where(inArray(submissionFiles.submissionId, mine));
  await q.delete(submissionFiles).where(inArray(submissionFiles.submissionId, mine));
  const ids = [...new Set(held.map((h) => h.fileId))];
  if (!ids.length) return [];
  const unused = and(
    inArray(files.id, ids),
    eq(files.uploadedBy, userId),
    notExists(q.select({ one: submissionFiles.fileId }).from(submissionFiles).where(eq(submissionFiles.fileId, files.id))),
    notExists(q.select({ one: problemVersionFiles.fileId }).from(problemVersionFiles).where(eq(problemVersionFiles.fileId, files.id))),
    notExists(q.select({ one: activityDocuments.fileId }).from(activityDocuments).where(eq(activityDocuments.fileId, files.id))),
    notExists(q.select({ one: runnerFiles.fileId }).from(runnerFiles).where(eq(runnerFiles.fileId, files.id))),
    notExists(q.select({ one: attemptFiles.fileId }).from(attemptFiles).where(eq(attemptFiles.fileId, files.id))),
    notExists(q.select({ one: trials.packageFileId }).from(trials).where(eq(trials.packageFileId, files.id))),
  );
  const gone = await q.delete(files).where(unused).returning({ sha256: files.sha256 });
  const hashes = [...new Set(gone.map((g) => g.sha256))];
  if (!hashes.length) return [];
  // a blob is shared by every file row of its bytes: it goes only when none is left
  const still = new Set((await q.select({ sha256: files.sha256 }).from(files).where(inArray(files.sha256, hashes))).map((r) => r.sha256));
  return hashes.filter((h) => !still.has(h));
}
