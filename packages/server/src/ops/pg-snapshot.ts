import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { maskDatabaseUrl } from '../db/database-url.js';
import { OpsError } from './errors.js';
import { runPgProgram } from './pg-tools.js';

export interface PgSnapshot {
  /** pg_dump's custom-format archive of the whole database, mode 0600. */
  path: string;
  /** Rows of every table, read in the snapshot the dump was made from. */
  tables: Record<string, number>;
  /** The SHA-256 of every stored file the dumped rows refer to. */
  blobs: string[];
  remove(): void;
}

async function connect(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  try {
    await c.connect();
  } catch (e) {
    await c.end().catch(() => {});
    throw new OpsError(`cannot open ${maskDatabaseUrl(url)}: ${(e as Error).message}`);
  }
  return c;
}

/** Table row counts of the public schema, by name, in the client's transaction. */
export async function pgTableCounts(c: pg.Client): Promise<Record<string, number>> {
  const names = (await c.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name")).rows.map((r) => r.name);
  const out: Record<string, number> = {};
  for (const n of names) out[n] = Number((await c.query<{ n: string }>(`SELECT count(*) AS n FROM "${n.replace(/"/g, '""')}"`)).rows[0]!.n);
  return out;
}

/**
 * One consistent picture of a judge's PostgreSQL database: a REPEATABLE READ transaction exports its
 * snapshot, pg_dump dumps exactly that snapshot (--snapshot), and the row counts and the list of
 * stored files are read in it too. The files themselves are copied afterwards (backup.ts), which is
 * consistent because a stored file is immutable and named by its SHA-256, and is in the store before
 * its row commits (modules/files/service.ts): every row in the snapshot names bytes that exist and
 * cannot change. Files written after the snapshot are not named by it and so are not copied.
 */
export async function takePgSnapshot(url: string, tempDir: string): Promise<PgSnapshot> {
  mkdirSync(tempDir, { recursive: true, mode: 0o750 });
  const path = join(tempDir, `pgdump-${randomBytes(8).toString('hex')}.dump`);
  const remove = () => rmSync(path, { force: true });
  const c = await connect(url);
  try {
    await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { id } = (await c.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows[0]!;
    const tables = await pgTableCounts(c);
    if (!('files' in tables)) throw new OpsError(`${maskDatabaseUrl(url)} holds no judge database`);
    const blobs = (await c.query<{ sha256: string }>('SELECT DISTINCT sha256 FROM files ORDER BY sha256')).rows.map((r) => r.sha256);
    // made first with mode 0600: pg_dump keeps the mode of the file it writes into, and the dump holds password hashes
    writeFileSync(path, '', { mode: 0o600 });
    await runPgProgram('pg_dump', ['--format=custom', `--snapshot=${id}`, '--no-owner', '--no-privileges', `--file=${path}`], url);
    await c.query('COMMIT');
    return { path, tables, blobs, remove };
  } catch (e) {
    remove();
    throw e;
  } finally {
    await c.end().catch(() => {});
  }
}

/** Refuses a database that holds any table: a restore fills a new, empty one (as migrate does). */
export async function refuseNonEmptyPg(url: string): Promise<void> {
  const c = await connect(url);
  try {
    const { rows } = await c.query<{ n: string }>("SELECT count(*) AS n FROM pg_class k JOIN pg_namespace s ON s.oid = k.relnamespace WHERE k.relkind IN ('r', 'p') AND s.nspname NOT IN ('pg_catalog', 'information_schema') AND s.nspname NOT LIKE 'pg\\_toast%'");
    const n = Number(rows[0]!.n);
    if (n > 0) throw new OpsError(`the target database ${maskDatabaseUrl(url)} is not empty (it has ${n} tables): restore into a new, empty database`);
  } finally {
    await c.end().catch(() => {});
  }
}

/** Counts the restored database's rows, for comparing with the manifest. */
export async function countPgRows(url: string): Promise<Record<string, number>> {
  const c = await connect(url);
  try {
    return await pgTableCounts(c);
  } finally {
    await c.end().catch(() => {});
  }
}
