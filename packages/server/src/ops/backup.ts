import Database from 'better-sqlite3';
import { closeSync, createReadStream, createWriteStream, existsSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { dataPaths } from '../datadir.js';
import { CONFIG_FILE_NAME } from '../config.js';
import { DB_ENTRY, HashTap, MANIFEST, tableCounts, type Manifest } from './archive.js';
import { OpsError } from './errors.js';
import { refuseOnPostgres } from './engine-guard.js';
import { takeSnapshot } from './snapshot.js';

export interface BackupProgress {
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
}

export interface BackupSummary {
  file: string;
  createdAt: string;
  via: 'server' | 'database';
  entries: number;
  storedFiles: number;
  databaseBytes: number;
  bytes: number;
  seconds: number;
  tables: Record<string, number>;
}

interface Source {
  name: string;
  path: string;
  size: number;
  /** For a stored file: the hash its name promises. */
  sha256?: string;
}

/** What the snapshot needs beside itself: every stored file it references, the settings, the local runner's key. */
function sourcesOf(dir: string, snapshot: string): { sources: Source[]; tables: Record<string, number> } {
  const db = new Database(snapshot, { readonly: true, fileMustExist: true });
  const paths = dataPaths(dir);
  let blobs: { sha256: string }[];
  let tables: Record<string, number>;
  try {
    blobs = db.prepare<[], { sha256: string }>('SELECT DISTINCT sha256 FROM files ORDER BY sha256').all();
    tables = tableCounts(db);
  } finally {
    db.close();
  }
  const sources: Source[] = [{ name: DB_ENTRY, path: snapshot, size: statSync(snapshot).size }];
  const config = join(dir, CONFIG_FILE_NAME);
  if (existsSync(config)) sources.push({ name: CONFIG_FILE_NAME, path: config, size: statSync(config).size });
  const runner = join(dir, 'runner');
  const runnerFiles = existsSync(runner) ? readdirSync(runner, { withFileTypes: true }).filter((e) => e.isFile() && /^[A-Za-z0-9._-]+\.json$/.test(e.name)) : [];
  for (const e of runnerFiles) sources.push({ name: `runner/${e.name}`, path: join(runner, e.name), size: statSync(join(runner, e.name)).size });
  for (const { sha256 } of blobs) {
    const rel = join(sha256.slice(0, 2), sha256.slice(2, 4), sha256);
    const path = join(paths.files, rel);
    if (!existsSync(path)) throw new OpsError(`the stored file ${sha256} is missing from ${paths.files}; run \`judge doctor --data-dir ${dir}\``);
    sources.push({ name: `files/${rel}`, path, size: statSync(path).size, sha256 });
  }
  return { sources, tables };
}

/** Writes one entry, hashing what goes in; a stored file whose bytes do not hash to its name stops the backup. */
async function addEntry(pack: tar.Pack, s: Source, onBytes: (n: number) => void): Promise<Manifest['entries'][number]> {
  const tap = new HashTap(onBytes);
  let entry!: ReturnType<tar.Pack['entry']>;
  const done = new Promise<void>((ok, fail) => {
    entry = pack.entry({ name: s.name, size: s.size, mode: 0o600, mtime: new Date() }, (e) => (e ? fail(e) : ok()));
    // a failed write (a full disk) also reaches the entry; the callback above reports it
    entry.on('error', fail);
  });
  const input = createReadStream(s.path).pipe(tap);
  for await (const chunk of input) if (!entry.write(chunk as Buffer)) await new Promise<void>((r) => entry.once('drain', () => r()));
  entry.end(undefined);
  await done;
  const sha256 = tap.digest();
  if (s.sha256 && sha256 !== s.sha256) throw new OpsError(`the stored file ${s.sha256} is damaged (its bytes hash to ${sha256}); run \`judge doctor\``);
  return { path: s.name, size: tap.bytes, sha256 };
}

function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * An online backup of `dir` into one tar archive (gzip-compressed when `file` ends in .gz or .tgz),
 * written as FILE.partial and renamed when complete, so that an interrupted backup never leaves
 * FILE. It holds password hashes and the local runner's secret key, so it is made mode 0600.
 */
export async function backup(dir: string, file: string, o: { judgeVersion: string; progress?: (p: BackupProgress) => void }): Promise<BackupSummary> {
  refuseOnPostgres(dir, 'backup');
  const started = Date.now();
  if (existsSync(file)) throw new OpsError(`${file} exists already; a backup never overwrites a file, so give another name`);
  const partial = `${file}.partial`;
  const snapshot = await takeSnapshot(dir);
  const createdAt = new Date().toISOString();
  try {
    const { sources, tables } = sourcesOf(dir, snapshot.path);
    const p: BackupProgress = { files: 0, totalFiles: sources.length, bytes: 0, totalBytes: sources.reduce((a, s) => a + s.size, 0) };
    const pack = tar.pack();
    // opened here so that a folder that is missing or not writable is said before any work
    const out = createWriteStream(partial, { fd: openSync(partial, 'w', 0o600) });
    const written = /\.(t?gz)$/.test(file) ? pipeline(pack, createGzip(), out) : pipeline(pack, out);
    const entries: Manifest['entries'] = [];
    try {
      for (const s of sources) {
        entries.push(await addEntry(pack, s, (n) => (p.bytes += n)));
        p.files++;
        o.progress?.(p);
      }
      const manifest: Manifest = { format: 'judge-backup', formatVersion: 1, judgeVersion: o.judgeVersion, createdAt, tables, entries };
      pack.entry({ name: MANIFEST, mode: 0o600, mtime: new Date() }, `${JSON.stringify(manifest, null, 2)}\n`);
      pack.finalize();
      await written;
    } catch (e) {
      pack.destroy();
      await written.catch(() => {});
      rmSync(partial, { force: true });
      throw e;
    }
    fsyncFile(partial);
    renameSync(partial, file);
    const bytes = statSync(file).size;
    const storedFiles = sources.filter((s) => s.sha256).length;
    return { file, createdAt, via: snapshot.via, entries: entries.length + 1, storedFiles, databaseBytes: sources[0]!.size, bytes, seconds: (Date.now() - started) / 1000, tables };
  } finally {
    snapshot.remove();
  }
}
