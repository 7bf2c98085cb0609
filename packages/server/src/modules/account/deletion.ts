import { ApiError } from '@judge/contract';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { grants, roles, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Deps } from '../../services.js';
import type { BlobStore } from '../files/index.js';
import { anonymiseAccount, removeOrphanBlobs } from './anonymise.js';

/**
 * The owner deletes their account (POST /account/delete, with `accountDeletionEnabled`): it is
 * anonymised (anonymise.ts), not removed.
 */
export async function deleteOwnAccount(d: Deps, blobs: BlobStore, actor: Actor, password: string, deletionEnabled: boolean): Promise<void> {
  if (!deletionEnabled) throw ApiError.of('account.deletion.disabled', 'This installation does not let accounts be deleted by their owners: ask an administrator');
  const u = await d.tx.read(async (q) => (await q.select().from(users).where(eq(users.id, actor.userId)))[0]);
  if (!u) throw ApiError.of('unauthenticated', 'The account is gone');
  if (!u.passwordHash) throw ApiError.of('account.password.wrong', 'This account has no password to confirm with: ask an administrator to delete it', { password: ['none set'] });
  if (!(await d.hasher.verify(u.passwordHash, password))) throw ApiError.of('account.password.wrong', 'The password is not right', { password: ['does not match'] });
  const now = d.clock.now();
  const orphans = await d.tx.write(async (q, out) => {
    if (await lastAdministrator(q, u.id)) throw ApiError.of('account.lastAdministrator', 'You are the only administrator: make another one first, or the installation has nobody to run it');
    return anonymiseAccount(d, q, out, u, 'Deleted by its owner', now);
  });
  await removeOrphanBlobs(d, blobs, orphans);
  d.log.info({ userId: u.id }, 'account deleted by its owner');
}

/** Whether the account is the only unblocked administrator: emptying it would leave nobody to run the installation. */
export async function lastAdministrator(q: Q, userId: string): Promise<boolean> {
  const admins = await q
    .select({ userId: grants.userId, permissions: roles.permissions, blockedAt: users.blockedAt })
    .from(grants)
    .innerJoin(roles, eq(roles.id, grants.roleId))
    .innerJoin(users, eq(users.id, grants.userId));
  const holders = new Set(admins.filter((g) => g.permissions.includes('system:administrator') && !g.blockedAt).map((g) => g.userId));
  return holders.has(userId) && holders.size === 1;
}
