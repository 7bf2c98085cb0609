import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CONFIG_FILE_NAME } from '../config.js';
import type { BlobStore } from '../modules/files/index.js';
import { MANIFEST } from './archive.js';
import { OpsError } from './errors.js';
import { drain, eachEntry, type ArchiveFile } from './restore-archive.js';
import type { CheckedArchive, ManifestEntry } from './restore-check.js';

/**
 * Copies an entry's bytes to `fd` (none: only checks them), never more than the manifest declares:
 * a chunk that would go past the declared size is refused before it is written. The bytes must
 * then hash as the manifest says.
 */
export async function copyDeclared(body: AsyncIterable<Buffer>, declared: ManifestEntry, fd?: number): Promise<void> {
  const h = createHash('sha256');
  let size = 0;
  for await (const c of body) {
    if (size + c.length > declared.size) throw new OpsError(`${declared.path} in the archive is larger than its manifest says (${declared.size} bytes); the archive changed while it was restored`);
    size += c.length;
    h.update(c);
    if (fd !== undefined) writeSync(fd, c);
  }
  if (size !== declared.size || h.digest('hex') !== declared.sha256) throw new OpsError(`${declared.path} no longer matches the manifest; the archive changed while it was restored`);
}

/**
 * A stored file restored into a files directory of its own (the `filesDir` setting), which other
 * servers may share: written beside, checked, then adopted as an upload is (a file already there
 * with its size is kept).
 */
async function intoStore(blobs: BlobStore, body: AsyncIterable<Buffer>, declared: ManifestEntry): Promise<void> {
  mkdirSync(blobs.incomingDir, { recursive: true, mode: 0o750 });
  const temp = blobs.tempPath('restore');
  const fd = openSync(temp, 'wx', 0o640);
  try {
    await copyDeclared(body, declared, fd);
  } catch (e) {
    closeSync(fd);
    await blobs.discard(temp);
    throw e;
  }
  closeSync(fd);
  await blobs.adopt(temp, declared.sha256);
}

export interface WriteProgress {
  entries: number;
  totalEntries: number;
  bytes: number;
  totalBytes: number;
}

/**
 * The second pass: writes into `into` only the entries the first pass checked, each against its
 * manifest line before any of its bytes is written. `config` is what to write as `judge.json`
 * (the archive's, or it without the settings the administrator did not confirm; none: not written).
 */
export async function writeEntries(a: ArchiveFile, into: string, checked: CheckedArchive, config: Buffer | undefined, progress?: (p: WriteProgress) => void, blobs?: BlobStore): Promise<void> {
  const written = new Set<string>();
  const p: WriteProgress = { entries: 0, totalEntries: checked.entries.size, bytes: 0, totalBytes: [...checked.entries.values()].reduce((n, e) => n + e.size, 0) };
  await eachEntry(a, async ({ name, type, body }) => {
    if (name === MANIFEST && type === 'file') return drain(body);
    const declared = checked.entries.get(name);
    if (type !== 'file' || !declared || written.has(name)) throw new OpsError(`${JSON.stringify(name)} is in the archive but not in its manifest; the archive changed while it was restored`);
    written.add(name);
    if (blobs && name.startsWith('files/')) {
      await intoStore(blobs, body, declared);
      p.entries++;
      p.bytes += declared.size;
      progress?.(p);
      return;
    }
    const path = join(into, name);
    mkdirSync(dirname(path), { recursive: true, mode: 0o750 });
    if (name === CONFIG_FILE_NAME) {
      await copyDeclared(body, declared);
      if (config) writeFileSync(path, config, { mode: 0o600, flag: 'wx' });
    } else {
      // 'wx': a new file, never through a link that would be in the way
      const fd = openSync(path, 'wx', 0o600);
      try {
        await copyDeclared(body, declared, fd);
      } finally {
        closeSync(fd);
      }
    }
    p.entries++;
    p.bytes += declared.size;
    progress?.(p);
  });
  if (written.size !== checked.entries.size) throw new OpsError('entries of the manifest went missing from the archive while it was restored');
}
