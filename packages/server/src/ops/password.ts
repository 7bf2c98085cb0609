import type { Deps } from '../services.js';
import { iso } from '../util.js';
import { OpsError } from './errors.js';

type Parts = Pick<Deps, 'sqlite' | 'sessions' | 'tx' | 'hasher' | 'clock'>;

/**
 * Gives an account a new password, clears its lockout and ends its sessions, in one transaction.
 * Run by the server (its session cache is dropped and sockets told) or by `judge reset-password`
 * on a stopped server's database: the same statements either way.
 */
export async function setPassword(t: Parts, username: string, password: string): Promise<{ userId: string; username: string; sessionsEnded: number }> {
  const find = () => t.sqlite.prepare<[string], { id: string; username: string }>('SELECT id, username FROM users WHERE username_key = ?').get(username.toLowerCase());
  if (!find()) throw new OpsError(`there is no account named ${JSON.stringify(username)}`);
  const hash = await t.hasher.hash(password);
  return t.tx.run((out) => {
    // read again inside the transaction: the account may have gone while the hash was computed
    const user = find();
    if (!user) throw new OpsError(`there is no account named ${JSON.stringify(username)}`);
    const now = t.clock.now();
    t.sqlite.prepare('UPDATE users SET password_hash = ?, failed_logins = 0, locked_until = NULL WHERE id = ?').run(hash, user.id);
    const live = t.sqlite
      .prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM sessions WHERE user_id = ? AND ended_at IS NULL AND expires_at > ?')
      .get(user.id, iso(now))!.n;
    t.sessions.endAllOfUser(user.id, 'passwordChanged', now, out);
    t.sessions.forgetUser(user.id);
    return { userId: user.id, username: user.username, sessionsEnded: live };
  });
}
