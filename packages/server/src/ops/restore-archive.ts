import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { Readable } from 'node:stream';
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

/**
 * The file's bytes from its start, read at explicit positions: the descriptor stays the restore's
 * for both passes (a file stream would close it when a refusal stops the reading).
 */
async function* chunksOf(fd: number, onRead?: (bytes: number) => void): AsyncGenerator<Buffer> {
  for (let pos = 0; ; ) {
    const buf = Buffer.allocUnsafe(256 * 1024);
    const n = await new Promise<number>((ok, fail) => read(fd, buf, 0, buf.length, pos, (e, got) => (e ? fail(e) : ok(got))));
    if (n === 0) return;
    pos += n;
    onRead?.(n);
    yield buf.subarray(0, n);
  }
}

const truncated = (e: unknown) => new OpsError(`the archive cannot be read to its end: it is truncated or damaged (${(e as Error).message})`);

/**
 * Gives every entry of the archive to `visit`, in order, and waits for each; a refusal thrown by
 * `visit` stops the reading at once. `onRead` counts the archive's (compressed) bytes as they are read.
 */
export async function eachEntry(a: ArchiveFile, visit: (e: ArchiveEntry) => Promise<void>, onRead?: (bytes: number) => void): Promise<void> {
  const extract = tar.extract();
  const input = Readable.from(chunksOf(a.fd, onRead), { objectMode: false });
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
