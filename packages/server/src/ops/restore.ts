import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readSync, writeSync, readdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { DB_ENTRY, MANIFEST, isAllowedEntry, type Manifest } from './archive.js';
import { OpsError } from './errors.js';

export interface RestoreSummary {
  dataDir: string;
  createdAt: string;
  judgeVersion: string;
  entries: number;
  storedFiles: number;
  bytes: number;
}

type Seen = Map<string, { size: number; sha256: string }>;

const MANIFEST_MAX = 256 * 1024 * 1024;

function isGzip(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/** Writes an entry's bytes to a new file (mode 0600), hashing them on the way. */
async function writeEntry(entry: AsyncIterable<unknown>, path: string): Promise<{ size: number; sha256: string }> {
  const h = createHash('sha256');
  let size = 0;
  const fd = openSync(path, 'wx', 0o600);
  try {
    for await (const c of entry) {
      h.update(c as Buffer);
      size += (c as Buffer).length;
      writeSync(fd, c as Buffer);
    }
  } finally {
    closeSync(fd);
  }
  return { size, sha256: h.digest('hex') };
}

async function readAll(s: AsyncIterable<unknown>): Promise<Buffer> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const c of s) {
    n += (c as Buffer).length;
    if (n > MANIFEST_MAX) throw new OpsError('the backup manifest is too large to be one');
    parts.push(c as Buffer);
  }
  return Buffer.concat(parts);
}

/** Unpacks every entry into `into`, hashing each; returns what was written and the manifest's text. */
async function unpack(file: string, into: string): Promise<{ seen: Seen; manifest?: Buffer }> {
  const extract = tar.extract();
  const source = isGzip(file) ? pipeline(createReadStream(file), createGunzip(), extract) : pipeline(createReadStream(file), extract);
  const failed = source.then(
    () => undefined,
    (e: unknown) => e,
  );
  const seen: Seen = new Map();
  let manifest: Buffer | undefined;
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (entry.header.type !== 'file' || !isAllowedEntry(name) || seen.has(name) || manifest) throw new OpsError(`the archive holds an entry a judge backup does not (${JSON.stringify(name)})`);
      if (name === MANIFEST) {
        manifest = await readAll(entry);
        continue;
      }
      mkdirSync(dirname(join(into, name)), { recursive: true, mode: 0o750 });
      seen.set(name, await writeEntry(entry, join(into, name)));
    }
  } catch (e) {
    const cause = await Promise.race([failed, Promise.resolve(undefined)]);
    throw e instanceof OpsError ? e : truncated(cause ?? e);
  }
  const cause = await failed;
  if (cause) throw truncated(cause);
  return { seen, manifest };
}

const truncated = (e: unknown) => new OpsError(`the archive cannot be read to its end: it is truncated or damaged (${(e as Error).message})`);

/** Every entry the manifest lists was found with its size and SHA-256, and nothing else was. */
function verify(seen: Seen, text: Buffer | undefined): Manifest {
  if (!text) throw new OpsError('the archive has no manifest: it is truncated or not a judge backup');
  let m: Manifest;
  try {
    m = JSON.parse(text.toString('utf8')) as Manifest;
  } catch {
    throw new OpsError('the backup manifest is not JSON');
  }
  if (m.format !== 'judge-backup' || !Array.isArray(m.entries)) throw new OpsError('the archive is not a judge backup');
  if (m.formatVersion !== 1) throw new OpsError(`the backup has format version ${String(m.formatVersion)}; this judge reads version 1`);
  const listed = new Set(m.entries.map((e) => e.path));
  for (const e of m.entries) {
    const got = seen.get(e.path);
    if (!got) throw new OpsError(`${e.path} is listed in the manifest but missing from the archive`);
    if (got.size !== e.size || got.sha256 !== e.sha256) throw new OpsError(`${e.path} does not match the manifest (altered or damaged: ${got.size} bytes, SHA-256 ${got.sha256})`);
    const blob = /^files\/.*\/([0-9a-f]{64})$/.exec(e.path);
    if (blob && blob[1] !== got.sha256) throw new OpsError(`${e.path} does not hash to its name`);
  }
  for (const name of seen.keys()) if (!listed.has(name)) throw new OpsError(`${name} is in the archive but not in its manifest`);
  if (!seen.has(DB_ENTRY)) throw new OpsError('the backup holds no database');
  return m;
}

function checkDatabase(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    const r = db.pragma('quick_check', { simple: true });
    if (r !== 'ok') throw new OpsError(`the database in the backup is damaged (${String(r)})`);
  } finally {
    db.close();
  }
}

/** A new data directory from a backup, written beside it and renamed into place only once verified. */
export async function restore(file: string, dir: string): Promise<RestoreSummary> {
  if (!existsSync(file)) throw new OpsError(`there is no backup ${file}`);
  if (existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length > 0)) {
    throw new OpsError(`${dir} exists and is not empty; restore into a new directory`);
  }
  mkdirSync(dirname(dir), { recursive: true });
  const temp = `${dir}.restoring-${randomBytes(6).toString('hex')}`;
  mkdirSync(temp, { mode: 0o750 });
  try {
    const { seen, manifest } = await unpack(file, temp);
    const m = verify(seen, manifest);
    checkDatabase(join(temp, DB_ENTRY));
    if (existsSync(dir)) rmdirSync(dir);
    renameSync(temp, dir);
    const storedFiles = m.entries.filter((e) => e.path.startsWith('files/')).length;
    return { dataDir: dir, createdAt: m.createdAt, judgeVersion: m.judgeVersion, entries: m.entries.length, storedFiles, bytes: m.entries.reduce((a, e) => a + e.size, 0) };
  } catch (e) {
    rmSync(temp, { recursive: true, force: true });
    throw e;
  }
}
