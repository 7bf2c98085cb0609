/**
 * Putting a finished directory into a cache that other jobs and runners share: written aside,
 * made private to the runner's user (the sandbox reads copies, graders/validator-view.ts), then
 * renamed into place in one step.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A cache entry's name: the SHA-256 it is kept by. */
export const DIGEST = /^[0-9a-f]{64}$/;
/** Where an entry is written before it is renamed into place. */
export const TMP_PREFIX = '.tmp-';
/** Temporary directories older than this are leftovers of a crash. */
export const STALE_TMP_MS = 60 * 60 * 1000;

/** What a size-bounded cache knows of an entry: its size, when it was last used, who uses it now. */
export interface Held {
  sizeBytes: number;
  lastUsed: number;
  refs: number;
}

/**
 * Renames `tmp` to `dest`. When another writer put `dest` there first (theirs is identical:
 * both are named by the same digest), `tmp` is removed and false comes back.
 */
export async function placeDirectory(tmp: string, dest: string, remove: (p: string) => Promise<void> = (p) => fs.promises.rm(p, { recursive: true, force: true })): Promise<boolean> {
  try {
    await fs.promises.rename(tmp, dest);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTEMPTY') {
      await remove(tmp);
      throw e;
    }
    await remove(tmp);
    return false;
  }
}

/**
 * Directories 0700, files 0600 (0700 when executable), owned as they are: what a judging machine's
 * caches hold (secret test data, validators, participants' programs) is the runner's user's alone.
 */
export async function makePrivate(p: string): Promise<void> {
  const st = await fs.promises.lstat(p);
  if (st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    await fs.promises.chmod(p, 0o700);
    for (const e of await fs.promises.readdir(p)) await makePrivate(path.join(p, e));
  } else if (st.isFile()) {
    await fs.promises.chmod(p, st.mode & 0o111 ? 0o700 : 0o600);
  }
}

/** Directories 0755, files 0644 (0755 when executable): readable by every sandbox uid; for nothing secret. */
export async function openUp(dir: string): Promise<void> {
  await fs.promises.chmod(dir, 0o755);
  for (const e of await fs.promises.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await openUp(p);
    else if (e.isFile()) {
      const mode = (await fs.promises.stat(p)).mode;
      await fs.promises.chmod(p, mode & 0o111 ? 0o755 : 0o644);
    }
  }
}
