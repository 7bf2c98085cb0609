import { BUILT_IN_ROLES, type BuiltInRoleKey } from '@judge/contract';
import { eq } from 'drizzle-orm';
import { PasswordHasher } from './auth/passwords.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { isPostgresUrl } from './db/database-url.js';
import { openPostgres } from './db/postgres-engine.js';
import { grants, roles, users } from './db/schema.js';
import type { Engine } from './db/storage.js';
import { dataPaths, ensureDataDirs, isInitialised, lockDataDir } from './datadir.js';
import { iso, newId } from './util.js';

export interface InitResult {
  created: boolean;
  adminId: string;
}

type AdminPassword = () => Promise<string>;

const adminOf = async (engine: Engine): Promise<string | undefined> =>
  (await engine.read((q) => q.select({ id: users.id }).from(users).where(eq(users.usernameKey, 'admin')).limit(1)))[0]?.id;

/**
 * The built-in roles and the `admin` account with the administrator role, unless an admin is there
 * already (then its id). On PostgreSQL two servers may initialise one database at once: the check
 * and the inserts are one SERIALIZABLE transaction, so the one that loses runs again and finds the
 * winner's admin.
 */
async function createAdmin(engine: Engine, config: Config, password: string, now: Date): Promise<InitResult> {
  const hasher = new PasswordHasher({ memoryKiB: config.auth.argon2MemoryKib, iterations: config.auth.argon2Iterations });
  const hash = await hasher.hash(password);
  return engine.transaction(async (q) => {
    const existing = (await q.select({ id: users.id }).from(users).where(eq(users.usernameKey, 'admin')).limit(1))[0];
    if (existing) return { created: false, adminId: existing.id };
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
    const adminId = newId();
    await q.insert(users).values({ id: adminId, username: 'admin', usernameKey: 'admin', passwordHash: hash, approvedAt: iso(now), createdAt: iso(now) });
    await q.insert(grants).values({ id: newId(), userId: adminId, roleId: roleIds.administrator, activityId: null, overrideSystem: false, createdAt: iso(now) });
    return { created: true, adminId };
  });
}

/** The PostgreSQL form: the data directory holds the files and logs, the database everything else. */
async function initPostgres(dir: string, config: Config, adminPassword: AdminPassword, now: Date): Promise<InitResult> {
  ensureDataDirs(dir, config.filesDir);
  const engine = await openPostgres(config.database);
  try {
    const existing = await adminOf(engine);
    if (existing) return { created: false, adminId: existing };
    // the password is settled before anything is written, so a refused one leaves no trace
    return await createAdmin(engine, config, await adminPassword(), now);
  } finally {
    await engine.close();
  }
}

/**
 * Creates the data directory, the database (the SQLite file, or the tables of the PostgreSQL
 * database the `database` setting names) and the `admin` account with the administrator role.
 * Running it again changes nothing: an existing admin keeps its password.
 */
export async function initDataDir(dir: string, config: Config, adminPassword: AdminPassword, now = new Date()): Promise<InitResult> {
  if (isPostgresUrl(config.database)) return initPostgres(dir, config, adminPassword, now);
  if (isInitialised(dir)) {
    // a running server owns the database; say so instead of failing on a busy file
    lockDataDir(dir).release();
    const { engine, close } = openDatabase(dataPaths(dir).db);
    try {
      const existing = await adminOf(engine);
      if (existing) return { created: false, adminId: existing };
    } finally {
      close();
    }
  }
  // the password is settled before anything is written, so a refused one leaves no trace
  const password = await adminPassword();
  ensureDataDirs(dir, config.filesDir);
  const { engine, close } = openDatabase(dataPaths(dir).db);
  try {
    // one process initialises a directory it holds the lock of
    return await createAdmin(engine, config, password, now);
  } finally {
    close();
  }
}
