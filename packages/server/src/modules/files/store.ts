import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

/**
 * Bytes stored once per SHA-256 under `files/ab/cd/<sha256>`. Writes land in `.incoming` first and
 * are renamed into place, so a half-written blob is never visible under its hash.
 */
export class BlobStore {
  constructor(
    private readonly root: string,
    private readonly incoming: string,
  ) {}

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

  /** Moves an incoming file into place under its hash (dropping it when the bytes are already stored). */
  async adopt(tempPath: string, sha256: string): Promise<void> {
    const dest = this.pathOf(sha256);
    if (existsSync(dest)) {
      await rm(tempPath, { force: true });
      return;
    }
    await mkdir(join(this.root, sha256.slice(0, 2), sha256.slice(2, 4)), { recursive: true });
    await rename(tempPath, dest);
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
