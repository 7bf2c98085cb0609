import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { OpsError } from './errors.js';

/**
 * A backup archive opened once for a restore, which reads it twice: once to check every entry
 * against the manifest (its last entry) without writing anything, once to write what was checked.
 * Both passes read the same open file, from its start.
 */
export interface ArchiveFile {
  fd: number;
  size: number;
  gzip: boolean;
  close(): void;
}

export function openArchive(file: string): ArchiveFile {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new OpsError(`there is no backup ${file}`);
    throw e;
  }
  try {
    const st = fstatSync(fd);
    // a pipe or a device cannot be read twice
    if (!st.isFile()) throw new OpsError(`${file} is not a regular file; restore reads a backup twice (to check it, then to write it)`);
    const head = Buffer.alloc(2);
    const gzip = readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
    return { fd, size: st.size, gzip, close: () => closeSync(fd) };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** One entry as the archive's header says it: its name, its type (only `file` belongs in a backup) and its bytes. */
export interface ArchiveEntry {
  name: string;
  type: string;
  body: AsyncIterable<Buffer>;
}

const truncated = (e: unknown) => new OpsError(`the archive cannot be read to its end: it is truncated or damaged (${(e as Error).message})`);

/**
 * Gives every entry of the archive to `visit`, in order, and waits for each; a refusal thrown by
 * `visit` stops the reading at once. `onRead` counts the archive's (compressed) bytes as they are read.
 */
export async function eachEntry(a: ArchiveFile, visit: (e: ArchiveEntry) => Promise<void>, onRead?: (bytes: number) => void): Promise<void> {
  const extract = tar.extract();
  // autoClose off: the descriptor is the restore's, for both passes
  const input = createReadStream('', { fd: a.fd, start: 0, autoClose: false });
  if (onRead) input.on('data', (c) => onRead(c.length));
  const source = a.gzip ? pipeline(input, createGunzip(), extract) : pipeline(input, extract);
  const failed = source.then(
    () => undefined,
    (e: unknown) => e,
  );
  try {
    for await (const entry of extract) await visit({ name: entry.header.name, type: entry.header.type ?? 'file', body: entry as AsyncIterable<Buffer> });
  } catch (e) {
    const cause = await Promise.race([failed, Promise.resolve(undefined)]);
    throw e instanceof OpsError ? e : truncated(cause ?? e);
  }
  const cause = await failed;
  if (cause) throw truncated(cause);
}

/** Reads what is left of an entry without keeping it. */
export async function drain(body: AsyncIterable<Buffer>): Promise<void> {
  for await (const _ of body);
}
