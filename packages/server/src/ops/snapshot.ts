import Database from 'better-sqlite3';
import { mkdirSync, rmSync } from 'node:fs';
import { dataPaths, isInitialised } from '../datadir.js';
import { askServer, snapshotPath, unwrap } from './control.js';
import { OpsError } from './errors.js';
import { openOfflineDb } from './offline-db.js';

export interface Snapshot {
  /** A private copy of the database, in rollback-journal mode so that it is one self-contained file. */
  path: string;
  /** Whether the running server made it or this process did on a stopped server's database. */
  via: 'server' | 'database';
  remove(): void;
}

/**
 * A consistent copy of a data directory's database through SQLite's online backup API: made by the
 * running server when there is one (its exclusive lock lets nobody else read), else by this process.
 */
export async function takeSnapshot(dir: string, filesDir = ''): Promise<Snapshot> {
  if (!isInitialised(dir)) throw new OpsError(`${dir} holds no judge database`);
  const reply = await askServer(dir, { op: 'snapshot' });
  let path: string;
  let via: Snapshot['via'];
  if (reply) {
    path = unwrap(reply).path!;
    via = 'server';
  } else {
    const uploads = dataPaths(dir, filesDir).uploads;
    mkdirSync(uploads, { recursive: true, mode: 0o750 });
    path = snapshotPath(uploads);
    const db = openOfflineDb(dir);
    try {
      await db.backup(path);
    } finally {
      db.close();
    }
    via = 'database';
  }
  const remove = () => {
    for (const p of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(p, { force: true });
  };
  try {
    const copy = new Database(path, { fileMustExist: true });
    copy.pragma('journal_mode = DELETE');
    copy.close();
  } catch (e) {
    remove();
    throw e;
  }
  return { path, via, remove };
}
