import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema.js';
import { SqliteEngine } from './sqlite-engine.js';

export type Db = BetterSQLite3Database<typeof schema>;

export interface DatabaseHandle {
  db: Db;
  sqlite: Database.Database;
  /** The asynchronous data layer over the same connection (see storage.ts). */
  engine: SqliteEngine;
  close(): void;
}

const MIGRATIONS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'drizzle');

/** Opens the database file (WAL, exclusive to this process, foreign keys on) and applies pending migrations. */
export function openDatabase(file: string): DatabaseHandle {
  const sqlite = new Database(file);
  // One process owns the database (the data directory lock sees to that). Exclusive locking, set
  // before WAL is first touched, keeps the WAL index in memory and spares every read its
  // shared-memory lock calls: a third of the cost of a small request.
  sqlite.pragma('locking_mode = EXCLUSIVE');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // The page cache holds a large activity's submissions (the default 2 MiB does not: a cold
  // ranking re-read them through the OS); the WAL is checkpointed every 16 MiB rather than 4, so
  // pages every judged job rewrites (queue index, runner row) are copied back and synced less often.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('wal_autocheckpoint = 4000');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS });
  return { db, sqlite, engine: new SqliteEngine(sqlite), close: () => sqlite.close() };
}
