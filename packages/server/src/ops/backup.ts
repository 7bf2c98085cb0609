import Database from 'better-sqlite3';
import { closeSync, createReadStream, createWriteStream, existsSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { dataPaths } from '../datadir.js';
import { CONFIG_FILE_NAME, databaseSetting, filesSetting } from '../config.js';
import { isPostgresUrl } from '../db/database-url.js';
import { BlobStore } from '../modules/files/index.js';
import { DB_ENTRY, HashTap, MANIFEST, PG_DUMP_ENTRY, tableCounts, type Manifest } from './archive.js';
import { OpsError } from './errors.js';
import { takePgSnapshot } from './pg-snapshot.js';
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
  engine: 'sqlite' | 'postgres';
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

/** The settings and the local runner's key, which every backup holds beside the database. */
function dataDirSources(dir: string): Source[] {
  const sources: Source[] = [];
  const config = join(dir, CONFIG_FILE_NAME);
  if (existsSync(config)) sources.push({ name: CONFIG_FILE_NAME, path: config, size: statSync(config).size });
  const runner = join(dir, 'runner');
  const runnerFiles = existsSync(runner) ? readdirSync(runner, { withFileTypes: true }).filter((e) => e.isFile() && /^[A-Za-z0-9._-]+\.json$/.test(e.name)) : [];
  for (const e of runnerFiles) sources.push({ name: `runner/${e.name}`, path: join(runner, e.name), size: statSync(join(runner, e.name)).size });
  return sources;
}

/** Every stored file the database references, from the files directory (`filesDir` or DATA_DIR/files). */
function blobSources(dir: string, filesDir: string, blobs: string[]): Source[] {
  const store = new BlobStore(dataPaths(dir, filesDir).files);
  return blobs.map((sha256) => {
    const path = store.pathOf(sha256);
    if (!existsSync(path)) throw new OpsError(`the stored file ${sha256} is missing from ${store.root}; run \`judge doctor --data-dir ${dir}\``);
    return { name: `files/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`, path, size: statSync(path).size, sha256 };
  });
}

/** What the SQLite snapshot needs beside itself: every stored file it references, the settings, the local runner's key. */
function sourcesOf(dir: string, filesDir: string, snapshot: string): { sources: Source[]; tables: Record<string, number> } {
  const db = new Database(snapshot, { readonly: true, fileMustExist: true });
  let blobs: { sha256: string }[];
  let tables: Record<string, number>;
  try {
    blobs = db.prepare<[], { sha256: string }>('SELECT DISTINCT sha256 FROM files ORDER BY sha256').all();
    tables = tableCounts(db);
  } finally {
    db.close();
  }
  const sources: Source[] = [{ name: DB_ENTRY, path: snapshot, size: statSync(snapshot).size }, ...dataDirSources(dir), ...blobSources(dir, filesDir, blobs.map((b) => b.sha256))];
  return { sources, tables };
}

/** What a backup is made of: its entries, the database's row counts, and the copy to remove afterwards. */
interface Taken {
  sources: Source[];
  tables: Record<string, number>;
  via: BackupSummary['via'];
  engine: 'sqlite' | 'postgres';
  remove(): void;
}

async function takeSources(dir: string, filesDir: string): Promise<Taken> {
  const database = databaseSetting(dir);
  if (isPostgresUrl(database)) {
    const snap = await takePgSnapshot(database, dataPaths(dir, filesDir).uploads);
    try {
      const sources = [{ name: PG_DUMP_ENTRY, path: snap.path, size: statSync(snap.path).size }, ...dataDirSources(dir), ...blobSources(dir, filesDir, snap.blobs)];
      return { sources, tables: snap.tables, via: 'database', engine: 'postgres', remove: snap.remove };
    } catch (e) {
      snap.remove();
      throw e;
    }
  }
  const snapshot = await takeSnapshot(dir, filesDir);
  try {
    return { ...sourcesOf(dir, filesDir, snapshot.path), via: snapshot.via, engine: 'sqlite', remove: snapshot.remove };
  } catch (e) {
    snapshot.remove();
    throw e;
  }
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
 * An online backup of `dir` into one tar archive (on PostgreSQL: a pg_dump of one snapshot, with the
 * stored files it references; pg-snapshot.ts says why that is consistent) (gzip-compressed when `file` ends in .gz or .tgz),
 * written as FILE.partial and renamed when complete, so that an interrupted backup never leaves
 * FILE. It holds password hashes and the local runner's secret key, so it is made mode 0600.
 */
export async function backup(dir: string, file: string, o: { judgeVersion: string; filesDir?: string; progress?: (p: BackupProgress) => void }): Promise<BackupSummary> {
  const started = Date.now();
  if (existsSync(file)) throw new OpsError(`${file} exists already; a backup never overwrites a file, so give another name`);
  const partial = `${file}.partial`;
  const filesDir = filesSetting(dir, o.filesDir);
  const taken = await takeSources(dir, filesDir);
  const createdAt = new Date().toISOString();
  try {
    const { sources, tables } = taken;
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
      const manifest: Manifest = { format: 'judge-backup', formatVersion: 1, judgeVersion: o.judgeVersion, createdAt, engine: taken.engine, tables, entries };
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
    return { file, createdAt, via: taken.via, engine: taken.engine, entries: entries.length + 1, storedFiles, databaseBytes: sources[0]!.size, bytes, seconds: (Date.now() - started) / 1000, tables };
  } finally {
    taken.remove();
  }
}
