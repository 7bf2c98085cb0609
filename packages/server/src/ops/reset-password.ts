import { readFileSync } from 'node:fs';
import { PasswordHasher } from '../auth/passwords.js';
import { Sessions } from '../auth/sessions.js';
import { loadConfig } from '../config.js';
import { SqliteEngine } from '../db/sqlite-engine.js';
import { Transactor } from '../db/transactor.js';
import { generatePassword, systemClock } from '../util.js';
import { askServer, unwrap } from './control.js';
import { OpsError } from './errors.js';
import { refuseOnPostgres } from './engine-guard.js';
import { openOfflineDb } from './offline-db.js';
import { setPassword } from './password.js';

const MIN_PASSWORD = 10;

export interface ResetPasswordResult {
  userId: string;
  username: string;
  sessionsEnded: number;
  /** Set when the password was generated: shown this once. */
  password?: string;
  /** Whether a running server did it (its sessions cache dropped) or this process on the database. */
  via: 'server' | 'database';
}

function newPassword(file: string | undefined): { value: string; generated: boolean } {
  if (!file) return { value: generatePassword(20), generated: true };
  const value = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  if (value.length < MIN_PASSWORD || value.length > 256) throw new OpsError(`the password must have ${MIN_PASSWORD} to 256 characters`);
  return { value, generated: false };
}

/**
 * A lost password without the API: through the running server when there is one (so that its
 * cached sessions end too), otherwise straight on the database.
 */
export async function resetPassword(dir: string, username: string, passwordFile?: string): Promise<ResetPasswordResult> {
  refuseOnPostgres(dir, 'reset-password');
  const pw = newPassword(passwordFile);
  const shown = pw.generated ? { password: pw.value } : {};
  const reply = await askServer(dir, { op: 'resetPassword', username, password: pw.value });
  if (reply) {
    const r = unwrap(reply);
    return { userId: r.userId!, username: r.username!, sessionsEnded: r.sessionsEnded ?? 0, ...shown, via: 'server' };
  }
  const config = loadConfig(dir);
  const sqlite = openOfflineDb(dir);
  try {
    const tx = new Transactor(new SqliteEngine(sqlite));
    const parts = {
      tx,
      sessions: new Sessions(tx, config.auth),
      hasher: new PasswordHasher({ memoryKiB: config.auth.argon2MemoryKib, iterations: config.auth.argon2Iterations }),
      clock: systemClock,
    };
    return { ...(await setPassword(parts, username, pw.value)), ...shown, via: 'database' };
  } finally {
    sqlite.close();
  }
}
