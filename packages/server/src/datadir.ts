import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesLayout } from './modules/files/index.js';

export const DB_FILE = 'judge.db';
const LOCK_FILE = 'serve.lock';
const LOCK_OWNER = 'serve.lock.owner';

/**
 * What a data directory's server reads and writes. `filesDir` is the setting of that name: empty for
 * DATA_DIR/files, else a directory several servers may share (modules/files/store.ts `filesLayout`).
 */
export const dataPaths = (dir: string, filesDir = '') => {
  const files = filesLayout(filesDir || join(dir, 'files'));
  return {
    db: join(dir, DB_FILE),
    files: files.root,
    uploads: files.incoming,
    printouts: files.printouts,
    logs: join(dir, 'logs'),
  };
};

/** A data directory the server cannot write to; the message is one line an operator can act on. */
export class DataDirUnwritable extends Error {}

const REASONS: Record<string, string> = {
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a part of the path is not a directory',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EEXIST: 'a file of that name is in the way',
};

function unwritable(path: string, e: unknown): DataDirUnwritable {
  const code = String((e as { code?: unknown }).code ?? '');
  return new DataDirUnwritable(`cannot write to ${path} (${REASONS[code] ?? ((e as Error).message || code)})`);
}

/**
 * Makes the directories and proves each can be written, so that a read-only mount or a missing
 * permission is one plain sentence at start rather than a stack from deep inside the first write.
 */
export function ensureDataDirs(dir: string, filesDir = ''): void {
  for (const p of [dir, ...Object.values(dataPaths(dir, filesDir))]) {
    if (p.endsWith('.db')) continue;
    try {
      mkdirSync(p, { recursive: true, mode: 0o750 });
    } catch (e) {
      throw unwritable(p, e);
    }
    assertWritable(p);
  }
}

/** Writes and removes a small file in `dir`, or throws DataDirUnwritable naming it. */
export function assertWritable(dir: string): void {
  const probe = join(dir, `.judge-write-test-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (e) {
    throw unwritable(dir, e);
  }
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
  assertWritable(dir);
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
