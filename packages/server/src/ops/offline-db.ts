import Database from 'better-sqlite3';
import { dataPaths, isInitialised } from '../datadir.js';
import { OpsError } from './errors.js';

/**
 * The database of a data directory no server answers for, opened by this process. A server that
 * holds it without answering on its control socket (an older version) makes this fail in words.
 */
export function openOfflineDb(dir: string): Database.Database {
  if (!isInitialised(dir)) throw new OpsError(`${dir} holds no judge database`);
  const db = new Database(dataPaths(dir).db, { fileMustExist: true, timeout: 2000 });
  try {
    db.pragma('foreign_keys = ON');
    db.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code === 'SQLITE_BUSY') throw new OpsError(`the database in ${dir} is in use by another process; stop the judge server and try again`);
    throw e;
  }
  return db;
}
