import type Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { openDatabase, type Db } from './database.js';
import { isPostgresUrl, maskDatabaseUrl } from './database-url.js';
import { openPostgres, type PostgresEngine } from './postgres-engine.js';
import { roles } from './schema.js';
import type { SqliteEngine } from './sqlite-engine.js';
import type { Engine } from './storage.js';

/** A part of the server that still reads SQLite synchronously was reached on a PostgreSQL server. */
export class SqliteOnly extends Error {}

/** The calls that run a statement (better-sqlite3's and drizzle's): where a stand-in refuses. */
const RUNS = new Set(['all', 'get', 'run', 'values', 'iterate', 'execute', 'exec', 'pragma', 'backup', 'transaction', 'serialize']);

/**
 * What stands for the SQLite connection (`d.sqlite`, `d.db`) on PostgreSQL. Building on it (a
 * statement prepared in a constructor, a query built once) goes through; running anything throws
 * SqliteOnly, so a part not yet moved onto the asynchronous layer fails in words when it runs,
 * instead of reading an empty file, and the rest of the server works. Not a thenable, so that
 * handing it on or awaiting a value that holds it does not touch it.
 */
export function sqliteOnlyStandIn<T extends object>(what: string): T {
  const refuse = (path: string): never => {
    throw new SqliteOnly(`${path} needs the SQLite engine, and this server keeps its data in PostgreSQL`);
  };
  const chain = (path: string): unknown =>
    new Proxy(function standIn() {}, {
      get: (_t, key) => {
        if (key === 'then' || typeof key === 'symbol') return undefined;
        // a statement's columns describe it without running it: none here (util.ts' literalRows asks in a constructor)
        if (key === 'columns') return () => [];
        return RUNS.has(key) ? () => refuse(`${path}.${key}()`) : chain(`${path}.${key}`);
      },
      apply: () => chain(`${path}()`),
    });
  return chain(what) as T;
}

export interface StorageHandle {
  engine: SqliteEngine | PostgresEngine;
  /** SQLite's synchronous handles; on PostgreSQL stand-ins that refuse every use (sqliteOnlyStandIn). */
  db: Db;
  sqlite: Database.Database;
  /** SQLite's connection itself: null on PostgreSQL. */
  syncConnection: Database.Database | null;
  /** The setting with its password masked, for the log and the terminal. */
  shown: string;
  close(): Promise<void>;
}

/**
 * Opens the database the `database` setting names and applies its pending migrations: the data
 * directory's SQLite file when the setting is empty, otherwise the PostgreSQL database of the URL.
 */
export async function openStorage(database: string, sqliteFile: string, onIdleError?: (e: Error) => void, poolSize?: number): Promise<StorageHandle> {
  if (!isPostgresUrl(database)) {
    const h = openDatabase(sqliteFile);
    return { engine: h.engine, db: h.db, sqlite: h.sqlite, syncConnection: h.sqlite, shown: maskDatabaseUrl(''), close: async () => h.close() };
  }
  const engine = await openPostgres(database, { ...(onIdleError ? { onIdleError } : {}), ...(poolSize ? { poolSize } : {}) });
  return {
    engine,
    db: sqliteOnlyStandIn<Db>('d.db'),
    sqlite: sqliteOnlyStandIn<Database.Database>('d.sqlite'),
    syncConnection: null,
    shown: maskDatabaseUrl(database),
    close: () => engine.close(),
  };
}

/** Whether `judge init` has filled the database: the built-in roles are its first rows. */
export async function holdsJudgeData(engine: Engine): Promise<boolean> {
  const found = await engine.read((q) => q.select({ id: roles.id }).from(roles).where(eq(roles.builtInKey, 'administrator')).limit(1));
  return found.length > 0;
}
