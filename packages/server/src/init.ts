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
    const { db, close } = openDatabase(dataPaths(dir).db);
    try {
      const existing = db.select({ id: users.id }).from(users).where(eq(users.usernameKey, 'admin')).get();
      if (existing) return { created: false, adminId: existing.id };
    } finally {
      close();
    }
  }
  // the password is settled before anything is written, so a refused one leaves no trace
  const password = await adminPassword();
  ensureDataDirs(dir);
  const { db, sqlite, close } = openDatabase(dataPaths(dir).db);
  try {
    const hasher = new PasswordHasher({ memoryKiB: config.auth.argon2MemoryKib, iterations: config.auth.argon2Iterations });
    const hash = await hasher.hash(password);
    const adminId = newId();
    sqlite.transaction(() => {
      const roleIds = {} as Record<BuiltInRoleKey, string>;
      for (const [key, role] of Object.entries(BUILT_IN_ROLES) as [BuiltInRoleKey, (typeof BUILT_IN_ROLES)[BuiltInRoleKey]][]) {
        const found = db.select({ id: roles.id }).from(roles).where(eq(roles.builtInKey, key)).get();
        roleIds[key] = found?.id ?? newId();
        if (!found) {
          db.insert(roles)
            .values({ id: roleIds[key], name: role.name, nameKey: role.name.toLowerCase(), description: role.description, permissions: [...role.permissions], builtInKey: key, createdAt: iso(now) })
            .run();
        }
      }
      db.insert(users).values({ id: adminId, username: 'admin', usernameKey: 'admin', passwordHash: hash, approvedAt: iso(now), createdAt: iso(now) }).run();
      db.insert(grants).values({ id: newId(), userId: adminId, roleId: roleIds.administrator, activityId: null, overrideSystem: false, createdAt: iso(now) }).run();
    })();
    return { created: true, adminId };
  } finally {
    close();
  }
}
