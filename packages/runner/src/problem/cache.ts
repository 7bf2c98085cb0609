import { DIGEST as SHA256, makePrivate, placeDirectory, STALE_TMP_MS, TMP_PREFIX, type Held } from '../place.js';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, lstat, mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openPackageZip, tooLargeMessage, zipFault } from '@judge/problem-package';
import { PackageError } from './types.js';

/**
 * Problem packages on the runner's disk: `<cache>/<sha256>/` holds one extracted package, and
 * `<cache>/<sha256>.build/` what the judge built from it (the compiled output validator).
 *
 * A package is downloaded once per SHA-256 even when several jobs ask for it at the same time,
 * checked against that SHA-256, unpacked into a temporary directory with every entry checked by
 * the shared zip safety rules (and no more bytes than allowed counted as they are really written)
 * and renamed into place, so a package directory is either complete
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

  /**
   * Learns what an earlier run left: packages (sized, aged by mtime), stale temporaries removed.
   * Everything in the cache is made private to the runner's user first (0700/0600), also what an
   * older runner left readable by all.
   */
  private async scan(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await makePrivate(this.dir);
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
      // someone else may have finished first; theirs is identical
      await placeDirectory(tmp, dest, (p) => this.remove(p));
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

/**
 * Unpacks a zip into `dest` (which must not exist) and answers the bytes written. The entries are
 * checked first by the zip safety rules the server applies at upload (@judge/problem-package's
 * openPackageZip: names, sizes, counts, symbolic links and special files, compression), so the
 * runner refuses exactly what the server would, with the same reason; a single folder wrapping
 * everything is stripped. While inflating, the bytes really written are counted against the limit.
 */
export async function extractZip(bytes: Uint8Array, dest: string, limits: ExtractLimits): Promise<number> {
  const pkg = await openPackageZip(bytes, limits);
  try {
    const root = resolve(dest);
    await mkdir(root, { recursive: false, mode: 0o700 });
    let written = 0;
    for (const e of pkg.entries) {
      const target = resolve(root, e.name);
      if (!target.startsWith(root + sep)) throw new PackageError(`the entry "${e.entry.fileName}" points outside the package`);
      if (e.directory) {
        await mkdir(target, { recursive: true, mode: 0o700 });
        continue;
      }
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      let stream;
      try {
        stream = await pkg.zip.openReadStreamPromise(e.entry);
      } catch (err) {
        throw zipFault(err, e.entry.fileName);
      }
      const counter = new ByteBudget(limits.maxExtractedBytes - written, limits.maxExtractedBytes);
      try {
        await pipeline(stream, counter, createWriteStream(target, { flags: 'wx', mode: e.executable ? 0o700 : 0o600 }));
      } catch (err) {
        throw zipFault(err, e.entry.fileName);
      }
      written += counter.count;
      // whatever the umask: the runner's user alone reads them (the sandbox reads copies, graders/validator-view.ts)
      await chmod(target, e.executable ? 0o700 : 0o600);
    }
    await makePrivate(root);
    return written;
  } finally {
    pkg.close();
  }
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
      done(new PackageError(tooLargeMessage(this.total)));
      return;
    }
    done(null, chunk);
  }
}
