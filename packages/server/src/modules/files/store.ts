import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

/**
 * Where a files directory keeps what: the blobs under `ab/cd/<sha256>`, uploads being received in
 * `.incoming` (the same file system, so that adopting one is a rename), and the printouts' PDFs in
 * `.printouts`. The directory is the `filesDir` setting, which several servers may share
 * (docs/storage.md, "Files").
 */
export const filesLayout = (root: string) => ({
  root,
  incoming: join(root, '.incoming'),
  printouts: join(root, '.printouts'),
});

/** Flushes a file's bytes to the disk before it is renamed into place. */
async function fsyncPath(path: string): Promise<void> {
  const h = await open(path, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/**
 * Bytes stored once per SHA-256 under `files/ab/cd/<sha256>`. Writes land in `.incoming` first, are
 * flushed and renamed into place, so a half-written blob is never visible under its hash, not even
 * after a crash. Several servers may write one hash at once into one shared directory: each writes
 * a temporary file of its own and the renames replace one whole file with another of the same bytes.
 */
export class BlobStore {
  readonly root: string;
  private readonly incoming: string;

  constructor(root: string, incoming = filesLayout(root).incoming) {
    this.root = root;
    this.incoming = incoming;
  }

  pathOf(sha256: string): string {
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  has(sha256: string): boolean {
    return existsSync(this.pathOf(sha256));
  }

  /** Hashes a file in the incoming folder by reading it back from disk. */
  async hashFile(path: string): Promise<{ sha256: string; sizeBytes: number }> {
    const h = createHash('sha256');
    await pipeline(createReadStream(path), h);
    return { sha256: h.digest('hex'), sizeBytes: (await stat(path)).size };
  }

  /**
   * Moves an incoming file into place under its hash. A stored file of the same size is kept and the
   * incoming one dropped (content-addressed: same hash, same bytes); one of another size is what a
   * crash of an older judge or a damaged disk left, and is replaced.
   */
  async adopt(tempPath: string, sha256: string): Promise<void> {
    const dest = this.pathOf(sha256);
    const size = (await stat(tempPath)).size;
    if (statSync(dest, { throwIfNoEntry: false })?.size === size) {
      await rm(tempPath, { force: true });
      return;
    }
    await fsyncPath(tempPath);
    await mkdir(join(this.root, sha256.slice(0, 2), sha256.slice(2, 4)), { recursive: true });
    await rename(tempPath, dest);
  }

  /** Stores bytes the caller has in memory; answers their SHA-256. */
  async put(bytes: Uint8Array): Promise<string> {
    await mkdir(this.incoming, { recursive: true, mode: 0o750 });
    const tempPath = this.tempPath('put');
    const h = await open(tempPath, 'wx', 0o640);
    try {
      await h.writeFile(bytes);
    } finally {
      await h.close();
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    try {
      await this.adopt(tempPath, sha256);
    } finally {
      await rm(tempPath, { force: true });
    }
    return sha256;
  }

  /** A fresh name in the incoming folder; unique across the servers sharing the directory. */
  tempPath(prefix: string): string {
    return join(this.incoming, `${prefix}-${randomBytes(12).toString('hex')}`);
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  read(sha256: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(sha256), range);
  }

  get incomingDir(): string {
    return this.incoming;
  }
}
