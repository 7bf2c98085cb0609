import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { filesSetting } from '../config.js';
import { isPostgresUrl, maskDatabaseUrl } from '../db/database-url.js';
import { BlobStore } from '../modules/files/index.js';
import { DB_ENTRY, PG_DUMP_ENTRY } from './archive.js';
import { OpsError } from './errors.js';
import { countPgRows, refuseNonEmptyPg } from './pg-snapshot.js';
import { runPgProgram } from './pg-tools.js';
import { openArchive } from './restore-archive.js';
import { checkArchive } from './restore-check.js';
import { decideSettings, type HeldSetting } from './restore-settings.js';
import { claimWorkDir } from './restore-workdir.js';
import { writeEntries, type WriteProgress } from './restore-write.js';

export interface RestoreSummary {
  dataDir: string;
  createdAt: string;
  judgeVersion: string;
  engine: 'sqlite' | 'postgres';
  /** The database restored into (PostgreSQL), its password masked. */
  database?: string;
  /** The files directory the stored files went into, when not NEW/files. */
  filesDir?: string;
  entries: number;
  storedFiles: number;
  bytes: number;
  /** Working folders of killed restores into the same directory, removed at the start. */
  leftoversRemoved: string[];
  /** Settings of the archive's judge.json that run programs or name files outside the data directory. */
  commandSettings: { key: string; value: unknown }[];
  /** Whether those were restored (confirmed); else the new judge.json lacks them. */
  commandSettingsRestored: boolean;
}

export type RestoreProgress = { phase: 'checking'; bytes: number; totalBytes: number } | ({ phase: 'writing' } & WriteProgress);

export interface RestoreOptions {
  /** The PostgreSQL database a backup of a judge on PostgreSQL is restored into: new and empty. */
  database?: string;
  /** The files directory the stored files go into (the `filesDir` setting); empty: NEW/files. */
  filesDir?: string;
  /** Asked, with the settings of judge.json that run programs, whether to restore them; no answer: no. */
  confirmCommands?: (held: HeldSetting[]) => boolean | Promise<boolean>;
  /** Told at once what the restore did beside its work (leftovers removed). */
  notice?: (message: string) => void;
  progress?: (p: RestoreProgress) => void;
}

function checkDatabase(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    const r = db.pragma('quick_check', { simple: true });
    if (r !== 'ok') throw new OpsError(`the database in the backup is damaged (${String(r)})`);
  } finally {
    db.close();
  }
}

/**
 * Fills the empty `database` from the dump in one transaction (a failure leaves it empty), checks
 * every table's rows against the manifest, and removes the dump: the data directory keeps no copy.
 */
async function restorePg(dump: string, database: string, tables: Record<string, number>): Promise<void> {
  await runPgProgram('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', dump], database);
  rmSync(dump, { force: true });
  const got = await countPgRows(database);
  for (const [name, rows] of Object.entries(tables)) {
    if (got[name] !== rows) throw new OpsError(`${name}: ${rows} rows in the backup but ${got[name] ?? 'no table'} in ${maskDatabaseUrl(database)} after restoring`);
  }
}

/** While `path` is being written, Ctrl-C or a SIGTERM removes it before the process ends (SIGKILL leaves it to the next restore). */
function removedOnSignal(path: string): () => void {
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((sig) => {
    const h = () => {
      rmSync(path, { recursive: true, force: true });
      process.exit(128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const)[sig]);
    };
    process.once(sig, h);
    return () => process.off(sig, h);
  });
  return () => handlers.forEach((off) => off());
}

/** The working folder becomes `dir`, unless something was put there meanwhile. */
function putInPlace(work: string, dir: string): void {
  try {
    if (existsSync(dir)) rmdirSync(dir);
    renameSync(work, dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new OpsError(`${dir} was filled while this restore ran; nothing of this restore was put there`);
    throw e;
  }
}

const freeBytes = (dir: string) => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};

/**
 * A new data directory from a backup. The archive is read twice: first every entry is checked
 * against the manifest with nothing written, then only the checked entries are written into a
 * working folder beside `dir`, which is renamed into place once the database in it is sound.
 */
export async function restore(file: string, dir: string, o: RestoreOptions = {}): Promise<RestoreSummary> {
  const database = o.database ?? '';
  if (database && !isPostgresUrl(database)) throw new OpsError(`--database takes a PostgreSQL URL (postgres://user:password@host/name), not ${maskDatabaseUrl(database)}`);
  const filesDir = filesSetting(dir, o.filesDir);
  const archive = openArchive(file);
  try {
    if (existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length > 0)) {
      throw new OpsError(`${dir} exists and is not empty; restore into a new directory`);
    }
    mkdirSync(dirname(dir), { recursive: true });
    const work = claimWorkDir(dir, o.notice ?? (() => {}));
    const forget = removedOnSignal(work.path);
    let read = 0;
    try {
      const checked = await checkArchive(archive, { freeBytes: freeBytes(dirname(dir)), onRead: (n) => o.progress?.({ phase: 'checking', bytes: (read += n), totalBytes: archive.size }) });
      const onPostgres = checked.manifest.engine === 'postgres';
      if (onPostgres && !database) throw new OpsError('this is the backup of a judge on PostgreSQL: give the new, empty database to restore it into with --database postgres://… (or JUDGE_DATABASE)');
      if (!onPostgres && database) throw new OpsError('this is the backup of a judge on SQLite: restore it into a data directory without --database, then move it with judge migrate --to');
      if (onPostgres) await refuseNonEmptyPg(database);
      const settings = await decideSettings(checked.config, o.confirmCommands ?? (() => false));
      const blobs = filesDir ? new BlobStore(filesDir) : undefined;
      await writeEntries(archive, work.path, checked, settings.content, (p) => o.progress?.({ phase: 'writing', ...p }), blobs);
      if (onPostgres) await restorePg(join(work.path, PG_DUMP_ENTRY), database, checked.manifest.tables);
      else checkDatabase(join(work.path, DB_ENTRY));
      putInPlace(work.path, dir);
      const m = checked.manifest;
      return {
        dataDir: dir,
        createdAt: m.createdAt,
        judgeVersion: m.judgeVersion,
        entries: m.entries.length,
        engine: m.engine ?? 'sqlite',
        ...(onPostgres ? { database: maskDatabaseUrl(database) } : {}),
        ...(filesDir ? { filesDir } : {}),
        storedFiles: m.entries.filter((e) => e.path.startsWith('files/')).length,
        bytes: m.entries.reduce((a, e) => a + e.size, 0),
        leftoversRemoved: work.removed,
        commandSettings: settings.held.map(({ key, value }) => ({ key, value })),
        commandSettingsRestored: settings.restored,
      };
    } catch (e) {
      rmSync(work.path, { recursive: true, force: true });
      throw e;
    } finally {
      forget();
    }
  } finally {
    archive.close();
  }
}
