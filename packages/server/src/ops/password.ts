import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { sessions, users } from '../db/schema.js';
import type { Q } from '../db/storage.js';
import type { Deps } from '../services.js';
import { iso } from '../util.js';
import { OpsError } from './errors.js';

type Parts = Pick<Deps, 'sessions' | 'tx' | 'hasher' | 'clock'>;

const find = async (q: Q, username: string) =>
  (await q.select({ id: users.id, username: users.username }).from(users).where(eq(users.usernameKey, username.toLowerCase())).limit(1))[0];

/**
 * Gives an account a new password, clears its lockout and ends its sessions, in one transaction.
 * Run by the server (its session cache is dropped and sockets told) or by `judge reset-password`
 * on a stopped server's database: the same statements either way.
 */
export async function setPassword(t: Parts, username: string, password: string): Promise<{ userId: string; username: string; sessionsEnded: number }> {
  if (!(await t.tx.read((q) => find(q, username)))) throw new OpsError(`there is no account named ${JSON.stringify(username)}`);
  const hash = await t.hasher.hash(password);
  return t.tx.write(async (q, out) => {
    // read again inside the transaction: the account may have gone while the hash was computed
    const user = await find(q, username);
    if (!user) throw new OpsError(`there is no account named ${JSON.stringify(username)}`);
    const now = t.clock.now();
    await q.update(users).set({ passwordHash: hash, failedLogins: 0, lockedUntil: null }).where(eq(users.id, user.id));
    const live = (await q.select({ n: count() }).from(sessions).where(and(eq(sessions.userId, user.id), isNull(sessions.endedAt), gt(sessions.expiresAt, iso(now)))))[0]?.n ?? 0;
    await t.sessions.endAllOfUser(q, user.id, 'passwordChanged', now, out);
    out.then(() => t.sessions.forgetUser(user.id));
    out.note({ what: 'user', userId: user.id });
    return { userId: user.id, username: user.username, sessionsEnded: live };
  });
}
