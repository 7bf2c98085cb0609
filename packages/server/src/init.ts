import { BUILT_IN_ROLES, type BuiltInRoleKey } from '@judge/contract';
import { eq } from 'drizzle-orm';
import { PasswordHasher } from './auth/passwords.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { grants, roles, users } from './db/schema.js';
import { dataPaths, ensureDataDirs, isInitialised, lockDataDir } from './datadir.js';
import { iso, newId } from './util.js';

export interface InitResult {
  created: boolean;
  adminId: string;
}

/**
 * Creates the data directory, the database and the `admin` account with the administrator role.
 * Running it again changes nothing: an existing admin keeps its password.
 */
export async function initDataDir(dir: string, config: Config, adminPassword: () => Promise<string>, now = new Date()): Promise<InitResult> {
  if (isInitialised(dir)) {
    // a running server owns the database; say so instead of failing on a busy file
    lockDataDir(dir).release();
    const { engine, close } = openDatabase(dataPaths(dir).db);
    try {
      const existing = (await engine.read((q) => q.select({ id: users.id }).from(users).where(eq(users.usernameKey, 'admin')).limit(1)))[0];
      if (existing) return { created: false, adminId: existing.id };
    } finally {
      close();
    }
  }
  // the password is settled before anything is written, so a refused one leaves no trace
  const password = await adminPassword();
  ensureDataDirs(dir);
  const { engine, close } = openDatabase(dataPaths(dir).db);
  try {
    const hasher = new PasswordHasher({ memoryKiB: config.auth.argon2MemoryKib, iterations: config.auth.argon2Iterations });
    const hash = await hasher.hash(password);
    const adminId = newId();
    // one process initialises a directory it holds the lock of; a retried transaction reads the roles again
    await engine.transaction(async (q) => {
      const roleIds = {} as Record<BuiltInRoleKey, string>;
      for (const [key, role] of Object.entries(BUILT_IN_ROLES) as [BuiltInRoleKey, (typeof BUILT_IN_ROLES)[BuiltInRoleKey]][]) {
        const found = (await q.select({ id: roles.id }).from(roles).where(eq(roles.builtInKey, key)).limit(1))[0];
        roleIds[key] = found?.id ?? newId();
        if (!found) {
          await q
            .insert(roles)
            .values({ id: roleIds[key], name: role.name, nameKey: role.name.toLowerCase(), description: role.description, permissions: [...role.permissions], builtInKey: key, createdAt: iso(now) });
        }
      }
      await q.insert(users).values({ id: adminId, username: 'admin', usernameKey: 'admin', passwordHash: hash, approvedAt: iso(now), createdAt: iso(now) });
      await q.insert(grants).values({ id: newId(), userId: adminId, roleId: roleIds.administrator, activityId: null, overrideSystem: false, createdAt: iso(now) });
    });
    return { created: true, adminId };
  } finally {
    close();
  }
}
