import { createHash } from 'node:crypto';
import { CONFIG_FILE_NAME } from '../config.js';
import { DB_ENTRY, MANIFEST, PG_DUMP_ENTRY, human, isAllowedEntry, type Manifest } from './archive.js';
import { OpsError } from './errors.js';
import { eachEntry, type ArchiveFile } from './restore-archive.js';

export type ManifestEntry = Manifest['entries'][number];

/** What the checking pass found: the manifest, every entry it lists, and the settings file's bytes to look at. */
export interface CheckedArchive {
  manifest: Manifest;
  entries: Map<string, ManifestEntry>;
  /** The bytes of `judge.json` when the backup has one. */
  config?: Buffer;
  bytes: number;
}

export interface CheckLimits {
  /** Bytes free where the restore writes: an archive that unpacks to more is refused while it is read. */
  freeBytes: number;
  onRead?: (bytes: number) => void;
}

const MANIFEST_MAX = 256 * 1024 * 1024;
/** A settings file is a few hundred bytes; one larger than this is not one. */
const CONFIG_MAX = 1024 * 1024;
/** Far more than a judge stores in years (one entry per stored file), small enough to count in memory. */
export const MAX_ENTRIES = 10_000_000;

const foreign = (name: string) => new OpsError(`the archive holds an entry a judge backup does not (${JSON.stringify(name)})`);

/**
 * The first pass: reads every entry to its end, hashing it, and writes nothing. Names, types and
 * counts are refused as they come; sizes and hashes are compared with the manifest once it is read.
 */
export async function checkArchive(a: ArchiveFile, limits: CheckLimits): Promise<CheckedArchive> {
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifestText: Buffer | undefined;
  let config: Buffer | undefined;
  let total = 0;
  await eachEntry(
    a,
    async ({ name, type, body }) => {
      // only plain files with the names a backup writes: no link, no folder, no `..`, nothing after the manifest
      if (type !== 'file' || !isAllowedEntry(name) || seen.has(name) || manifestText) throw foreign(name);
      if (seen.size >= MAX_ENTRIES) throw new OpsError(`the archive holds more than ${MAX_ENTRIES} entries, more than a judge backup does`);
      const keep: Buffer[] | undefined = name === MANIFEST || name === CONFIG_FILE_NAME ? [] : undefined;
      const cap = name === MANIFEST ? MANIFEST_MAX : CONFIG_MAX;
      const h = createHash('sha256');
      let size = 0;
      for await (const c of body) {
        size += c.length;
        total += c.length;
        if (total > limits.freeBytes) throw new OpsError(`the archive unpacks to more than the ${human(limits.freeBytes)} free where it would be restored`);
        if (keep) {
          if (size > cap) throw new OpsError(`${name} in the archive is larger than a judge backup's (over ${human(cap)})`);
          keep.push(c);
        }
        h.update(c);
      }
      if (name === MANIFEST) manifestText = Buffer.concat(keep!);
      else seen.set(name, { size, sha256: h.digest('hex') });
      if (name === CONFIG_FILE_NAME) config = Buffer.concat(keep!);
    },
    limits.onRead,
  );
  const manifest = verify(seen, manifestText);
  return { manifest, entries: new Map(manifest.entries.map((e) => [e.path, e])), ...(config ? { config } : {}), bytes: total };
}

function parseManifest(text: Buffer | undefined): Manifest {
  if (!text) throw new OpsError('the archive has no manifest: it is truncated or not a judge backup');
  let m: Manifest;
  try {
    m = JSON.parse(text.toString('utf8')) as Manifest;
  } catch {
    throw new OpsError('the backup manifest is not JSON');
  }
  if (m?.format !== 'judge-backup' || !Array.isArray(m.entries)) throw new OpsError('the archive is not a judge backup');
  if (m.engine !== undefined && m.engine !== 'sqlite' && m.engine !== 'postgres') throw new OpsError(`the backup is of an engine this judge does not know (${JSON.stringify(m.engine)})`);
  if (m.formatVersion !== 1) throw new OpsError(`the backup has format version ${String(m.formatVersion)}; this judge reads version 1`);
  const listed = new Set<string>();
  for (const e of m.entries as unknown[]) {
    const { path, size, sha256 } = (e ?? {}) as Partial<ManifestEntry>;
    const wellFormed = typeof path === 'string' && path !== MANIFEST && isAllowedEntry(path) && Number.isSafeInteger(size) && size! >= 0 && typeof sha256 === 'string' && /^[0-9a-f]{64}$/.test(sha256);
    if (!wellFormed) throw new OpsError(`the backup manifest lists an entry a judge backup does not (${JSON.stringify(e)})`);
    if (listed.has(path)) throw new OpsError(`the backup manifest lists ${path} twice`);
    listed.add(path);
  }
  return m;
}

/** Every entry the manifest lists was found with its size and SHA-256, and nothing else was. */
function verify(seen: Map<string, { size: number; sha256: string }>, text: Buffer | undefined): Manifest {
  const m = parseManifest(text);
  for (const e of m.entries) {
    const got = seen.get(e.path);
    if (!got) throw new OpsError(`${e.path} is listed in the manifest but missing from the archive`);
    if (got.size !== e.size || got.sha256 !== e.sha256) throw new OpsError(`${e.path} does not match the manifest (altered or damaged: ${got.size} bytes, SHA-256 ${got.sha256})`);
    const blob = /^files\/.*\/([0-9a-f]{64})$/.exec(e.path);
    if (blob && blob[1] !== got.sha256) throw new OpsError(`${e.path} does not hash to its name`);
  }
  const listed = new Set(m.entries.map((e) => e.path));
  for (const name of seen.keys()) if (!listed.has(name)) throw new OpsError(`${name} is in the archive but not in its manifest`);
  // one database, of the engine the manifest names
  const wanted = m.engine === 'postgres' ? PG_DUMP_ENTRY : DB_ENTRY;
  if (!seen.has(wanted) || seen.has(wanted === DB_ENTRY ? PG_DUMP_ENTRY : DB_ENTRY)) throw new OpsError('the backup holds no database of the kind its manifest names');
  return m;
}
