import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';

/**
 * Backup archives as a forger makes them: the entries of a genuine backup, altered, added to or
 * linked, with a manifest that lists what the forger wants it to (the manifest is no signature).
 */

export interface ForgedEntry {
  name: string;
  data: Buffer;
  /** How the manifest lists it: as it is (default), with other figures, or not at all. */
  listed?: { size?: number; sha256?: string } | false;
  type?: 'file' | 'symlink' | 'directory';
  linkname?: string;
}

export interface GenuineBackup {
  entries: ForgedEntry[];
  manifest: { format: string; formatVersion: number; judgeVersion: string; createdAt: string; tables: Record<string, number> };
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every entry of a backup in its order, and its manifest's other fields. */
export async function readBackup(file: string): Promise<GenuineBackup> {
  const extract = tar.extract();
  const gz = readFileSync(file).subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]));
  const done = gz ? pipeline(createReadStream(file), createGunzip(), extract) : pipeline(createReadStream(file), extract);
  const entries: ForgedEntry[] = [];
  let manifest: GenuineBackup['manifest'] | undefined;
  for await (const e of extract) {
    const parts: Buffer[] = [];
    for await (const c of e) parts.push(c as Buffer);
    if (e.header.name === 'manifest.json') manifest = JSON.parse(Buffer.concat(parts).toString('utf8')) as GenuineBackup['manifest'];
    else entries.push({ name: e.header.name, data: Buffer.concat(parts) });
  }
  await done;
  return { entries, manifest: manifest! };
}

/** A stored file's entry for some bytes: `files/ab/cd/<sha256>`. */
export function storedFile(data: Buffer): ForgedEntry {
  const h = sha256(data);
  return { name: `files/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`, data };
}

/** `count` stored files of random bytes, `bytes` each: what makes a restore take a while. */
export const randomFiles = (count: number, bytes: number): ForgedEntry[] => Array.from({ length: count }, () => storedFile(randomBytes(bytes)));

/** Writes the entries in order, then a manifest listing them as each says (gzip-compressed when the name ends in .tgz). */
export async function writeBackup(file: string, base: GenuineBackup, entries: ForgedEntry[]): Promise<void> {
  const pack = tar.pack();
  const written = file.endsWith('.tgz') ? pipeline(pack, createGzip(), createWriteStream(file)) : pipeline(pack, createWriteStream(file));
  for (const e of entries) {
    if (e.type && e.type !== 'file') pack.entry({ name: e.name, type: e.type, ...(e.linkname ? { linkname: e.linkname } : {}) });
    else await new Promise<void>((ok, fail) => pack.entry({ name: e.name, size: e.data.length }, e.data, (err) => (err ? fail(err) : ok())));
  }
  const listed = entries.filter((e) => e.listed !== false && (!e.type || e.type === 'file'));
  const manifest = { ...base.manifest, entries: listed.map((e) => ({ path: e.name, size: e.data.length, sha256: sha256(e.data), ...(e.listed || {}) })) };
  pack.entry({ name: 'manifest.json' }, `${JSON.stringify(manifest, null, 2)}\n`);
  pack.finalize();
  await written;
}

/** The entries with `judge.json` replaced by (or given) this content. */
export function withSettings(entries: ForgedEntry[], settings: unknown): ForgedEntry[] {
  const data = Buffer.from(typeof settings === 'string' ? settings : `${JSON.stringify(settings, null, 2)}\n`);
  return [...entries.filter((e) => e.name !== 'judge.json'), { name: 'judge.json', data }];
}
