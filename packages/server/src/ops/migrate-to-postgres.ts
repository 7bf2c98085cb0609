import { count, getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { drizzle as sqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { drizzle as pgDrizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { copyFile, mkdir } from 'node:fs/promises';
import { filesSetting } from '../config.js';
import { dataPaths } from '../datadir.js';
import { isPostgresUrl, maskDatabaseUrl } from '../db/database-url.js';
import { openPostgres } from '../db/postgres-engine.js';
import * as pgSchema from '../db/pg-schema.js';
import * as sqliteSchema from '../db/schema.js';
import { BlobStore } from '../modules/files/index.js';
import { OpsError } from './errors.js';
import { openOfflineDb } from './offline-db.js';

export interface MigrateProgress {
  phase: 'files' | 'rows';
  done: number;
  total: number;
}

export interface MigrateSummary {
  /** The target, its password masked. */
  target: string;
  tables: { name: string; rows: number }[];
  rows: number;
  files: number;
  fileBytes: number;
  /** The files directory the stored files were copied into, when one was given. */
  filesDir?: string;
  seconds: number;
}

/** Rows per INSERT: far under PostgreSQL's 65,535 parameters for the widest table. */
const BATCH = 500;

type AnyPgTable = PgTable;

/** The tables in an order where every table comes after the tables its foreign keys name. */
export function tablesInKeyOrder(): { name: string; key: string; pg: AnyPgTable; sqlite: SQLiteTable }[] {
  const byName = new Map<string, { name: string; key: string; pg: AnyPgTable; sqlite: SQLiteTable }>();
  for (const [key, t] of Object.entries(pgSchema)) {
    if (!is(t, PgTable)) continue;
    const lite = (sqliteSchema as Record<string, unknown>)[key];
    if (!is(lite, SQLiteTable)) throw new Error(`the SQLite schema has no table ${key}`);
    byName.set(getTableName(t), { name: getTableName(t), key, pg: t, sqlite: lite });
  }
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const fk of getTableConfig(byName.get(name)!.pg).foreignKeys) visit(getTableName(fk.reference().foreignTable));
    order.push(name);
  };
  for (const name of [...byName.keys()].sort()) visit(name);
  return order.map((n) => byName.get(n)!);
}

/** Every stored file is where its row says, with the size and SHA-256 its row says. */
async function checkFiles(dir: string, blobs: BlobStore, rows: { sha256: string; sizeBytes: number }[], progress?: (p: MigrateProgress) => void): Promise<number> {
  const bad: string[] = [];
  let bytes = 0;
  for (const [i, r] of rows.entries()) {
    if (!blobs.has(r.sha256)) bad.push(`${r.sha256} is missing`);
    else {
      const got = await blobs.hashFile(blobs.pathOf(r.sha256));
      if (got.sha256 !== r.sha256 || got.sizeBytes !== r.sizeBytes) bad.push(`${r.sha256} does not match its record`);
      bytes += got.sizeBytes;
    }
    progress?.({ phase: 'files', done: i + 1, total: rows.length });
  }
  if (bad.length) {
    throw new OpsError(`${bad.length} stored file${bad.length === 1 ? '' : 's'} of ${dir} cannot be moved as recorded (${bad.slice(0, 3).join('; ')}${bad.length > 3 ? '; …' : ''}): run judge doctor and restore them from a backup first`);
  }
  return bytes;
}

/**
 * Copies every stored file into the files directory the servers will share, each written beside,
 * flushed, checked by size and SHA-256 and renamed into place; one already there with both right is
 * kept (another migration, or a server, stored it).
 */
async function copyFiles(from: BlobStore, to: BlobStore, rows: { sha256: string; sizeBytes: number }[], progress?: (p: MigrateProgress) => void): Promise<void> {
  await mkdir(to.incomingDir, { recursive: true, mode: 0o750 });
  const shas = [...new Map(rows.map((r) => [r.sha256, r])).values()];
  for (const [i, r] of shas.entries()) {
    const there = to.has(r.sha256) ? await to.hashFile(to.pathOf(r.sha256)) : undefined;
    if (there?.sha256 !== r.sha256 || there.sizeBytes !== r.sizeBytes) {
      const temp = to.tempPath('migrate');
      await copyFile(from.pathOf(r.sha256), temp);
      const got = await to.hashFile(temp);
      if (got.sha256 !== r.sha256 || got.sizeBytes !== r.sizeBytes) {
        await to.discard(temp);
        throw new OpsError(`the stored file ${r.sha256} did not arrive intact in ${to.root}; nothing was copied into the database`);
      }
      await to.adopt(temp, r.sha256);
    }
    progress?.({ phase: 'files', done: i + 1, total: shas.length });
  }
}

async function refuseNonEmpty(db: NodePgDatabase<typeof pgSchema>, tables: { name: string; pg: AnyPgTable }[]): Promise<void> {
  for (const t of tables) {
    const [{ n }] = (await db.select({ n: count() }).from(t.pg)) as [{ n: number }];
    if (Number(n) > 0) throw new OpsError(`the target database is not empty (${t.name} has ${n} rows): migrate into a new, empty database`);
  }
}

/**
 * A failed copy in words. drizzle's message lists the statement's parameters, which hold password
 * hashes and secrets' digests: only the database's own reason is said.
 */
async function guardedCopy(url: string, copy: () => Promise<void>): Promise<void> {
  try {
    await copy();
  } catch (e) {
    const reason = ((e as { cause?: Error }).cause ?? (e as Error)).message;
    throw new OpsError(`copying into ${maskDatabaseUrl(url)} failed and was rolled back, the target is as empty as before: ${reason}`);
  }
}

/**
 * Copies a one-box data directory's database into PostgreSQL (docs/storage.md, "Moving to
 * PostgreSQL"). The judge must be stopped (the database is opened offline). The stored files are
 * checked against their records first, then copied into `targetFilesDir` (the servers' shared
 * `filesDir`) when one is given, before any row is written.
 * Everything is copied in one transaction: a failure leaves the target as empty as it was.
 */
export async function migrateToPostgres(dir: string, url: string, progress?: (p: MigrateProgress) => void, targetFilesDir?: string): Promise<MigrateSummary> {
  const started = Date.now();
  if (!isPostgresUrl(url)) throw new OpsError(`--to takes a PostgreSQL URL (postgres://user:password@host/name), not ${maskDatabaseUrl(url)}`);
  const lite = openOfflineDb(dir);
  try {
    const rowsOf = sqliteDrizzle({ client: lite, schema: sqliteSchema });
    const fileRows = rowsOf.select({ sha256: sqliteSchema.files.sha256, sizeBytes: sqliteSchema.files.sizeBytes }).from(sqliteSchema.files).all();
    const source = new BlobStore(dataPaths(dir, filesSetting(dir)).files);
    const fileBytes = await checkFiles(dir, source, fileRows, progress);
    const target = targetFilesDir ? new BlobStore(filesSetting(dir, targetFilesDir)) : undefined;
    const tables = tablesInKeyOrder();
    const counts = tables.map((t) => ({ name: t.name, rows: Number(rowsOf.select({ n: count() }).from(t.sqlite).get()!.n) }));
    const total = counts.reduce((s, c) => s + c.rows, 0);
    const engine = await openPostgres(url, { poolSize: 2 }).catch((e: unknown) => {
      throw new OpsError(`cannot open ${maskDatabaseUrl(url)}: ${(e as Error).message}`);
    });
    try {
      const db = pgDrizzle({ client: engine.pool, schema: pgSchema });
      await refuseNonEmpty(db, tables);
      if (target && target.root !== source.root) await copyFiles(source, target, fileRows, progress);
      let done = 0;
      await guardedCopy(url, () => db.transaction(async (tx) => {
        for (const t of tables) {
          // Raw rows, as SQLite holds them: the PostgreSQL columns store exactly that (pg-schema.ts).
          // In rowid order from where the last batch ended: an offset would read the table again per batch.
          const keyOf = new Map(Object.entries(getTableColumns(t.pg)).map(([key, c]) => [c.name, key]));
          const read = lite.prepare<[number, number], Record<string, unknown> & { _rowid: number }>(`SELECT rowid AS _rowid, * FROM "${t.name}" WHERE rowid > ? ORDER BY rowid LIMIT ?`);
          for (let last = -1; ; ) {
            const batch = read.all(last, BATCH);
            if (!batch.length) break;
            last = batch.at(-1)!._rowid;
            const rows = batch.map(({ _rowid: _, ...raw }) => Object.fromEntries(Object.entries(raw).map(([name, v]) => [keyOf.get(name) ?? name, v])));
            await tx.insert(t.pg).overridingSystemValue().values(rows);
            done += rows.length;
            progress?.({ phase: 'rows', done, total });
          }
        }
        // identity columns draw from a sequence, which copied ids did not advance
        await tx.execute(sql`select setval(pg_get_serial_sequence('events', 'id'), coalesce((select max(id) from events), 0) + 1, false)`);
      }));
      for (const [i, t] of tables.entries()) {
        const [{ n }] = (await db.select({ n: count() }).from(t.pg)) as [{ n: number }];
        if (Number(n) !== counts[i]!.rows) throw new OpsError(`${t.name}: ${counts[i]!.rows} rows in the data directory but ${n} in the target after copying`);
      }
      return { target: maskDatabaseUrl(url), tables: counts, rows: total, files: fileRows.length, fileBytes, ...(target ? { filesDir: target.root } : {}), seconds: (Date.now() - started) / 1000 };
    } finally {
      await engine.close();
    }
  } finally {
    lite.close();
  }
}
