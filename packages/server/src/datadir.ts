import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DB_FILE = 'judge.db';
const LOCK_FILE = 'serve.lock';
const LOCK_OWNER = 'serve.lock.owner';

export const dataPaths = (dir: string) => ({
  db: join(dir, DB_FILE),
  files: join(dir, 'files'),
  uploads: join(dir, 'files', '.incoming'),
  logs: join(dir, 'logs'),
});

export function ensureDataDirs(dir: string): void {
  for (const p of Object.values(dataPaths(dir))) if (!p.endsWith('.db')) mkdirSync(p, { recursive: true, mode: 0o750 });
}

export function isInitialised(dir: string): boolean {
  return existsSync(join(dir, DB_FILE));
}

export class DataDirInUse extends Error {}

/**
 * Holds an exclusive SQLite lock on `serve.lock` for the life of the process. The operating system
 * drops it when the process dies, so there is no stale lock to clean up and no race between two
 * starters: the second one fails at once.
 */
export function lockDataDir(dir: string): { release(): void } {
  const lock = new Database(join(dir, LOCK_FILE), { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
  } catch {
    lock.close();
    let owner = '';
    try {
      owner = readFileSync(join(dir, LOCK_OWNER), 'utf8').trim();
    } catch {
      // the owner note is informative only
    }
    throw new DataDirInUse(`the data directory ${dir} is in use by another judge server${owner ? ` (${owner})` : ''}`);
  }
  writeFileSync(join(dir, LOCK_OWNER), `pid ${process.pid}, started ${new Date().toISOString()}\n`);
  return {
    release() {
      try {
        lock.exec('ROLLBACK');
      } finally {
        lock.close();
      }
    },
  };
}
