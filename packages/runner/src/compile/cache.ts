import { DIGEST as KEY, makePrivate, placeDirectory, STALE_TMP_MS, TMP_PREFIX, type Held } from '../place.js';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { JudgeSandbox } from '../problem/programs.js';
import type { Box } from '../sandbox/sandbox.js';
import { NotCacheable, readRecord, restore, snapshot, type EntryRecord } from './entries.js';
import { CompilerFingerprints } from './fingerprint.js';
import { PrecompiledHeaders } from './pch.js';

/**
 * Compiled programs on the runner's disk, by the SHA-256 of what went into the compile
 * (compile/program.ts): `<dir>/<key>/` holds the compiled box and its outcome, a compile error
 * included, so a rejudge, a trial or an identical resubmission compiles nothing. Precompiled
 * headers live beside them in `<dir>/pch/`.
 *
 * Entries are written to a temporary directory and renamed into place, so an entry is complete
 * or absent whatever happens to the runner; one that does not match its record (truncated,
 * altered) is a miss and is removed. Beyond the size budget the least recently used entries go,
 * never while a judging copies one out.
 */

export interface CompileCacheOptions {
  /** The cache directory; created when missing. */
  dir: string;
  /** Bytes kept before the least recently used entries are removed; default 2 GiB. */
  budgetBytes?: number;
  /** A larger compiled box is not kept; default 256 MiB. */
  maxEntryBytes?: number;
  /** The runner's log (a precompiled header that failed to build is said once). */
  log?: (line: string) => void;
}

/** What a compile produced, for the cache to keep, or what a hit gives back (the box holds what the compiler left). */
export interface CompileOutcome {
  ok: boolean;
  log: string;
  entry: string;
  source: string;
  box: Box;
}

export interface CompileCacheStats {
  /** Compiler runs made through the cache (misses). */
  compiles: number;
  hits: number;
  stored: number;
  evicted: number;
  /** Entries found broken and removed. */
  corrupt: number;
}

export const COMPILE_CACHE_DEFAULTS = { budgetBytes: 2 * 1024 ** 3, maxEntryBytes: 256 * 1024 ** 2 } as const;


export class CompileCache {
  readonly dir: string;
  readonly stats: CompileCacheStats = { compiles: 0, hits: 0, stored: 0, evicted: 0, corrupt: 0 };
  readonly fingerprints = new CompilerFingerprints();
  readonly pch: PrecompiledHeaders;
  private readonly log: (line: string) => void;
  private readonly budgetBytes: number;
  private readonly maxEntryBytes: number;
  private readonly held = new Map<string, Held>();
  private readonly inflight = new Map<string, Promise<void>>();
  private ready: Promise<void> | undefined;

  constructor(options: CompileCacheOptions) {
    this.dir = path.resolve(options.dir);
    this.budgetBytes = options.budgetBytes ?? COMPILE_CACHE_DEFAULTS.budgetBytes;
    this.maxEntryBytes = options.maxEntryBytes ?? COMPILE_CACHE_DEFAULTS.maxEntryBytes;
    this.log = options.log ?? (() => undefined);
    this.pch = new PrecompiledHeaders(path.join(this.dir, 'pch'), this.log);
  }

  /** The entries held now, for logs and tests. */
  list(): Array<{ key: string; sizeBytes: number; lastUsed: number; inUse: boolean }> {
    return [...this.held].map(([key, h]) => ({ key, sizeBytes: h.sizeBytes, lastUsed: h.lastUsed, inUse: h.refs > 0 }));
  }

  entryDir(key: string): string {
    return path.join(this.dir, key);
  }

  /**
   * The compile of `key`: taken from the cache when one is kept (in a fresh box), else made by
   * `compile` and kept when `keep` says its outcome is the source's own (not a limit hit under
   * load). Judgings of the same key at the same time wait for the one compiling it instead of
   * compiling it again; if that one leaves nothing to take, they compile it themselves.
   */
  async obtain<T extends CompileOutcome>(key: string, sandbox: JudgeSandbox, compile: () => Promise<T>, keep: (out: T) => boolean): Promise<{ cached: CompileOutcome } | { compiled: T }> {
    await this.init();
    let waited = false;
    for (;;) {
      const pending = this.inflight.get(key);
      if (pending && !waited) {
        await pending;
        waited = true;
        continue;
      }
      const hit = await this.take(key, sandbox);
      if (hit) return { cached: hit };
      // checked and claimed with no await between: two misses never both compile while one waits
      if (this.inflight.has(key) && !waited) continue;
      return { compiled: await this.compileClaimed(key, compile, keep) };
    }
  }

  private async compileClaimed<T extends CompileOutcome>(key: string, compile: () => Promise<T>, keep: (out: T) => boolean): Promise<T> {
    let done!: () => void;
    const marker = new Promise<void>((r) => (done = r));
    this.inflight.set(key, marker);
    try {
      this.stats.compiles++;
      const out = await compile();
      if (keep(out)) await this.store(key, out);
      return out;
    } finally {
      if (this.inflight.get(key) === marker) this.inflight.delete(key);
      done();
    }
  }

  /** The kept compile of `key` in a fresh box; undefined is a miss (a broken entry is removed). */
  private async take(key: string, sandbox: JudgeSandbox): Promise<CompileOutcome | undefined> {
    if (!this.held.has(key)) await this.adopt(key);
    const held = this.held.get(key);
    if (!held) return undefined;
    held.refs++;
    try {
      const dir = this.entryDir(key);
      const record = await readRecord(dir, key);
      const box = await sandbox.prepareBox();
      if (record && (await restore(dir, record, box).catch(() => false))) {
        held.lastUsed = Date.now();
        const now = new Date();
        fs.promises.utimes(dir, now, now).catch(() => undefined);
        this.stats.hits++;
        return { ok: record.ok, log: record.log, entry: record.entry, source: record.source, box };
      }
      await box.dispose();
      this.stats.corrupt++;
      this.log(`compile cache: entry ${key.slice(0, 12)} is broken (truncated or altered): removed, compiling again`);
      if (this.held.get(key) === held) this.held.delete(key);
      await this.remove(dir);
      return undefined;
    } finally {
      held.refs--;
    }
  }

  /** Removes least recently used entries nobody copies out until the cache fits its budget. */
  async evict(keep?: string): Promise<void> {
    let total = 0;
    for (const h of this.held.values()) total += h.sizeBytes;
    if (total <= this.budgetBytes) return;
    const victims = [...this.held].filter(([k, h]) => h.refs === 0 && k !== keep).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [key, h] of victims) {
      if (total <= this.budgetBytes) break;
      this.held.delete(key);
      total -= h.sizeBytes;
      this.stats.evicted++;
      await this.remove(this.entryDir(key));
    }
  }

  private async store(key: string, out: CompileOutcome): Promise<void> {
    const tmp = path.join(this.dir, `${TMP_PREFIX}${randomBytes(8).toString('hex')}`);
    try {
      await fs.promises.mkdir(tmp, { mode: 0o700 });
      const size = await snapshot(out.box, tmp, { key, ok: out.ok, log: out.log, entry: out.entry, source: out.source }, this.maxEntryBytes);
      // another runner sharing the directory may have kept the same compile first
      await placeDirectory(tmp, this.entryDir(key), (p) => this.remove(p));
      this.held.set(key, { sizeBytes: size, lastUsed: Date.now(), refs: 0 });
      this.stats.stored++;
    } catch (e) {
      await this.remove(tmp);
      // the cache is a saving, never a reason to fail a judging
      if (!(e instanceof NotCacheable)) this.log(`compile cache: could not keep a compile: ${(e as Error).message}`);
      return;
    }
    await this.evict(key);
  }

  private init(): Promise<void> {
    this.ready ??= this.scan();
    return this.ready;
  }

  /**
   * Learns what an earlier run left: entries (sized, aged by mtime); stale temporaries removed.
   * Participants' programs are the runner's user's alone (0700/0600), also what an older runner
   * left open; the sandbox reads the precompiled headers from a copy (pch.ts).
   */
  private async scan(): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await makePrivate(this.dir);
    const now = Date.now();
    for (const e of await fs.promises.readdir(this.dir, { withFileTypes: true })) {
      const p = path.join(this.dir, e.name);
      if (e.name.startsWith(TMP_PREFIX)) {
        const st = await fs.promises.lstat(p).catch(() => undefined);
        if (st && now - st.mtimeMs > STALE_TMP_MS) await this.remove(p);
      } else if (e.isDirectory() && KEY.test(e.name)) {
        const st = await fs.promises.stat(p);
        this.held.set(e.name, { sizeBytes: await sizeOf(p), lastUsed: st.mtimeMs, refs: 0 });
      }
    }
  }

  /** An entry another process sharing the directory put there since the scan. */
  private async adopt(key: string): Promise<void> {
    const dir = this.entryDir(key);
    const st = await fs.promises.stat(dir).catch(() => undefined);
    if (st?.isDirectory()) this.held.set(key, { sizeBytes: await sizeOf(dir), lastUsed: Date.now(), refs: 0 });
  }

  /** Renames away first, so a half-removed directory never looks like an entry. */
  private async remove(p: string): Promise<void> {
    const doomed = path.join(this.dir, `${TMP_PREFIX}rm-${randomBytes(6).toString('hex')}`);
    try {
      await fs.promises.rename(p, doomed);
    } catch {
      await fs.promises.rm(p, { recursive: true, force: true });
      return;
    }
    await fs.promises.rm(doomed, { recursive: true, force: true });
  }
}

/** Bytes of the regular files below a directory. */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const e of await fs.promises.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await sizeOf(p);
    else if (e.isFile()) total += (await fs.promises.lstat(p)).size;
  }
  return total;
}

export type { EntryRecord };
