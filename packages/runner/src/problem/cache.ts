import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, lstat, mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { PackageError } from './types.js';

/**
 * Problem packages on the runner's disk: `<cache>/<sha256>/` holds one extracted package, and
 * `<cache>/<sha256>.build/` what the judge built from it (the compiled output validator).
 *
 * A package is downloaded once per SHA-256 even when several jobs ask for it at the same time,
 * checked against that SHA-256, unpacked into a temporary directory with every entry checked
 * (no path out of the directory, no symlinks or device files, no more bytes than allowed counted
 * as they are really written) and renamed into place, so a package directory is either complete
 * or absent. Packages beyond the size budget are removed least recently used first, never while
 * a job holds them.
 */

export interface PackageCacheOptions {
  /** The cache directory; created when missing. */
  dir: string;
  /** Downloads a package's bytes (the runner passes the SDK's file download). */
  fetch: (fileId: string) => Promise<Uint8Array>;
  /** Largest package download; default 512 MiB. */
  maxCompressedBytes?: number;
  /** Largest unpacked package; default 2 GiB. */
  maxExtractedBytes?: number;
  /** Most zip entries; default 100 000. */
  maxEntries?: number;
  /** Unpacked bytes kept before least recently used packages are removed; default 8 GiB. */
  budgetBytes?: number;
}

export interface CachedPackage {
  sha256: string;
  /** The extracted package root. */
  dir: string;
  /** Where the judge keeps what it builds from this package (created on demand). */
  buildDir: string;
  sizeBytes: number;
  /** Lets the cache evict the package again; call once the job is done. */
  release(): void;
}

export interface ExtractLimits {
  maxExtractedBytes: number;
  maxEntries: number;
}

export const PACKAGE_CACHE_DEFAULTS = {
  maxCompressedBytes: 512 * 1024 ** 2,
  maxExtractedBytes: 2 * 1024 ** 3,
  maxEntries: 100_000,
  budgetBytes: 8 * 1024 ** 3,
} as const;

const SHA256 = /^[0-9a-f]{64}$/;
const TMP_PREFIX = '.tmp-';
/** Temporary directories older than this are leftovers of a crash. */
const STALE_TMP_MS = 60 * 60 * 1000;

interface Held {
  sizeBytes: number;
  lastUsed: number;
  refs: number;
}

export class PackageCache {
  readonly dir: string;
  private readonly opts: Required<Omit<PackageCacheOptions, 'dir' | 'fetch'>>;
  private readonly fetcher: PackageCacheOptions['fetch'];
  private readonly held = new Map<string, Held>();
  private readonly inflight = new Map<string, Promise<void>>();
  private ready: Promise<void> | undefined;

  constructor(options: PackageCacheOptions) {
    this.dir = resolve(options.dir);
    this.fetcher = options.fetch;
    this.opts = {
      maxCompressedBytes: options.maxCompressedBytes ?? PACKAGE_CACHE_DEFAULTS.maxCompressedBytes,
      maxExtractedBytes: options.maxExtractedBytes ?? PACKAGE_CACHE_DEFAULTS.maxExtractedBytes,
      maxEntries: options.maxEntries ?? PACKAGE_CACHE_DEFAULTS.maxEntries,
      budgetBytes: options.budgetBytes ?? PACKAGE_CACHE_DEFAULTS.budgetBytes,
    };
  }

  /**
   * The package with this SHA-256, downloaded (by `fileId`) and unpacked if it is not here yet.
   * Throws PackageError when the download does not match the SHA-256 or the zip is refused.
   */
  async acquire(fileId: string, sha256: string): Promise<CachedPackage> {
    const sha = sha256.toLowerCase();
    if (!SHA256.test(sha)) throw new PackageError(`"${sha256}" is not a SHA-256`);
    await this.init();
    for (;;) {
      const held = this.held.get(sha);
      if (held) {
        held.refs++;
        held.lastUsed = Date.now();
        const now = new Date();
        utimes(this.packageDir(sha), now, now).catch(() => undefined);
        return this.handle(sha, held);
      }
      let pending = this.inflight.get(sha);
      if (!pending) {
        pending = this.install(fileId, sha).finally(() => this.inflight.delete(sha));
        this.inflight.set(sha, pending);
      }
      await pending;
      // evicted between install and now (only under heavy pressure): loop and fetch again
    }
  }

  /** Packages held now, for logs and tests. */
  list(): Array<{ sha256: string; sizeBytes: number; lastUsed: number; inUse: boolean }> {
    return [...this.held].map(([sha256, h]) => ({ sha256, sizeBytes: h.sizeBytes, lastUsed: h.lastUsed, inUse: h.refs > 0 }));
  }

  packageDir(sha256: string): string {
    return join(this.dir, sha256);
  }

  /** Removes least recently used packages no job holds until the cache fits its budget. */
  async evict(keep?: string): Promise<void> {
    let total = 0;
    for (const h of this.held.values()) total += h.sizeBytes;
    if (total <= this.opts.budgetBytes) return;
    const victims = [...this.held]
      .filter(([sha, h]) => h.refs === 0 && sha !== keep)
      .sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    const removing: string[] = [];
    for (const [sha, h] of victims) {
      if (total <= this.opts.budgetBytes) break;
      this.held.delete(sha);
      total -= h.sizeBytes;
      removing.push(sha);
    }
    for (const sha of removing) {
      await this.remove(this.packageDir(sha));
      await this.remove(`${this.packageDir(sha)}.build`);
    }
  }

  private handle(sha: string, held: Held): CachedPackage {
    let released = false;
    return {
      sha256: sha,
      dir: this.packageDir(sha),
      buildDir: `${this.packageDir(sha)}.build`,
      sizeBytes: held.sizeBytes,
      release: () => {
        if (released) return;
        released = true;
        held.refs = Math.max(0, held.refs - 1);
        held.lastUsed = Date.now();
      },
    };
  }

  private init(): Promise<void> {
    this.ready ??= this.scan();
    return this.ready;
  }

  /** Learns what an earlier run left: packages (sized, aged by mtime), stale temporaries removed. */
  private async scan(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o755 });
    const now = Date.now();
    for (const e of await readdir(this.dir, { withFileTypes: true })) {
      const path = join(this.dir, e.name);
      if (e.name.startsWith(TMP_PREFIX)) {
        const st = await lstat(path).catch(() => undefined);
        if (st && now - st.mtimeMs > STALE_TMP_MS) await this.remove(path);
        continue;
      }
      if (e.isDirectory() && SHA256.test(e.name)) {
        const st = await stat(path);
        this.held.set(e.name, { sizeBytes: await sizeOf(path), lastUsed: st.mtimeMs, refs: 0 });
      }
    }
    // builds whose package is gone
    for (const e of await readdir(this.dir, { withFileTypes: true })) {
      const m = /^([0-9a-f]{64})\.build$/.exec(e.name);
      if (m && !this.held.has(m[1]!)) await this.remove(join(this.dir, e.name));
    }
  }

  private async install(fileId: string, sha: string): Promise<void> {
    const dest = this.packageDir(sha);
    // another process sharing the directory may have put it there
    if (await exists(dest)) {
      this.held.set(sha, { sizeBytes: await sizeOf(dest), lastUsed: Date.now(), refs: 0 });
      return;
    }
    const bytes = await this.fetcher(fileId);
    if (bytes.byteLength > this.opts.maxCompressedBytes) {
      throw new PackageError(`the package is ${bytes.byteLength} bytes; this runner takes at most ${this.opts.maxCompressedBytes}`);
    }
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== sha) throw new PackageError(`the downloaded package has SHA-256 ${actual}, not the ${sha} the job names`);
    const tmp = join(this.dir, `${TMP_PREFIX}${randomBytes(8).toString('hex')}`);
    try {
      const size = await extractZip(bytes, tmp, this.opts);
      try {
        await rename(tmp, dest);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw e;
        await this.remove(tmp); // someone else finished first; theirs is identical
      }
      this.held.set(sha, { sizeBytes: size, lastUsed: Date.now(), refs: 0 });
    } catch (e) {
      await this.remove(tmp);
      throw e;
    }
    await this.evict(sha);
  }

  /** Renames away first, so a half-removed directory never looks like a package. */
  private async remove(path: string): Promise<void> {
    const doomed = join(this.dir, `${TMP_PREFIX}rm-${randomBytes(6).toString('hex')}`);
    try {
      await rename(path, doomed);
    } catch {
      await rm(path, { recursive: true, force: true });
      return;
    }
    await rm(doomed, { recursive: true, force: true });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Bytes of the regular files below a directory. */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) total += await sizeOf(path);
    else if (e.isFile()) total += (await lstat(path)).size;
  }
  return total;
}

// ---- extraction ----

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** macOS archivers add this folder beside the real content; it is never part of a package. */
const isMacMetadata = (name: string) => name.startsWith('__MACOSX/') || name === '__MACOSX';

/**
 * Unpacks a zip into `dest` (which must not exist) and answers the bytes written. A single folder
 * wrapping everything, with no problem.yaml beside it, is stripped. Refuses (PackageError) entries
 * that would land outside `dest` (absolute paths, drive letters, `..`), symlinks and other special
 * files, duplicate names, too many entries, and more bytes than allowed, counting the bytes really
 * inflated rather than the sizes the zip declares.
 */
export async function extractZip(bytes: Uint8Array, dest: string, limits: ExtractLimits): Promise<number> {
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: true,
      decodeStrings: true,
    });
  } catch (e) {
    throw new PackageError(`the package is not a zip file (${(e as Error).message})`);
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw new PackageError(`the package holds ${zip.entryCount} entries; at most ${limits.maxEntries} are allowed`);
    const entries: Entry[] = [];
    let declared = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        declared += entry.uncompressedSize;
        if (declared > limits.maxExtractedBytes) throw new PackageError(`the package unpacks to more than ${limits.maxExtractedBytes} bytes`);
        entries.push(entry);
      }
    } catch (e) {
      throw zipFault(e);
    }
    const content = entries.filter((e) => !isMacMetadata(e.fileName));
    for (const e of content) checkEntry(e);
    const prefix = wrapperPrefix(content.map((e) => e.fileName));
    const root = resolve(dest);
    await mkdir(root, { recursive: false, mode: 0o755 });
    const seen = new Set<string>();
    let written = 0;
    for (const entry of content) {
      const name = entry.fileName.slice(prefix.length).replace(/\/+$/, '');
      if (name === '') continue;
      if (seen.has(name)) throw new PackageError(`the package holds "${entry.fileName}" twice`);
      seen.add(name);
      const target = resolve(root, name);
      if (!target.startsWith(root + sep)) throw new PackageError(`the entry "${entry.fileName}" points outside the package`);
      if (isDirectoryEntry(entry)) {
        await mkdir(target, { recursive: true, mode: 0o755 });
        continue;
      }
      await mkdir(dirname(target), { recursive: true, mode: 0o755 });
      const executable = (unixMode(entry) & 0o111) !== 0;
      let stream;
      try {
        stream = await zip.openReadStreamPromise(entry);
      } catch (e) {
        throw zipFault(e, entry.fileName);
      }
      const counter = new ByteBudget(limits.maxExtractedBytes - written, limits.maxExtractedBytes);
      try {
        await pipeline(stream, counter, createWriteStream(target, { flags: 'wx', mode: executable ? 0o755 : 0o644 }));
      } catch (e) {
        throw zipFault(e, entry.fileName);
      }
      written += counter.count;
      // whatever the runner's umask, the sandbox's user must read the files
      await chmod(target, executable ? 0o755 : 0o644);
    }
    await openDirectories(root);
    return written;
  } finally {
    zip.close();
  }
}

/** Directories 0755 below and including `dir`, whatever the umask made them. */
async function openDirectories(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) await openDirectories(join(dir, e.name));
  }
}

function isDirectoryEntry(entry: Entry): boolean {
  return entry.fileName.endsWith('/') || (unixMode(entry) & S_IFMT) === S_IFDIR;
}

/** The Unix mode bits an entry made on Unix carries in its external attributes (0 otherwise). */
function unixMode(entry: Entry): number {
  const madeBy = entry.versionMadeBy >> 8;
  // 3 = Unix, 19 = OS X; others put DOS attributes in the low bits only
  return madeBy === 3 || madeBy === 19 ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
}

function checkEntry(entry: Entry): void {
  const name = entry.fileName;
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name) || name.split('/').includes('..')) {
    throw new PackageError(`the entry "${name}" points outside the package (an absolute path, a drive letter or ..)`);
  }
  if (/[\0]/.test(name)) throw new PackageError(`the entry "${JSON.stringify(name)}" has a NUL in its name`);
  const type = unixMode(entry) & S_IFMT;
  if (type === S_IFLNK) throw new PackageError(`the entry "${name}" is a symbolic link; packages must hold regular files only`);
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) throw new PackageError(`the entry "${name}" is a special file; packages must hold regular files only`);
  if ((entry.generalPurposeBitFlag & 0x1) !== 0) throw new PackageError(`the entry "${name}" is encrypted`);
}

/** `hello/` when one folder wraps everything and there is no problem.yaml at the root. */
function wrapperPrefix(names: string[]): string {
  if (names.length === 0 || names.includes('problem.yaml')) return '';
  const top = names[0]!.split('/')[0]!;
  if (!top || !names.every((n) => n.startsWith(`${top}/`) || n === top)) return '';
  return `${top}/`;
}

function zipFault(e: unknown, entry?: string): Error {
  if (e instanceof PackageError) return e;
  const message = e instanceof Error ? e.message : String(e);
  const escape = /^(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(message);
  if (escape) return new PackageError(`the entry "${escape[1]}" points outside the package (an absolute path, .. or a backslash escape)`);
  if ((e as NodeJS.ErrnoException).code === 'EEXIST') return new PackageError(`the package holds "${entry}" twice`);
  return new PackageError(`the zip is damaged${entry ? ` at "${entry}"` : ''} (${message})`);
}

/** Counts the bytes that pass and fails once they exceed the budget: the zip-bomb guard. */
class ByteBudget extends Transform {
  count = 0;
  constructor(
    private readonly remaining: number,
    private readonly total: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.count += chunk.length;
    if (this.count > this.remaining) {
      done(new PackageError(`the package unpacks to more than ${this.total} bytes`));
      return;
    }
    done(null, chunk);
  }
}
