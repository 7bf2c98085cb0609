import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Box } from '../sandbox/sandbox.js';

/**
 * One compile cache entry on disk: `record.json` (the outcome and a manifest of every file with its
 * size and SHA-256) beside `box/`, a copy of the compiled box. The box's contents were written by
 * the compiler, which is the submitter's program as much as the compiler (Template Haskell, build
 * scripts): only regular files and directories are copied, never followed links, and a box
 * holding anything else is not cached. Each file is checked against the manifest when it is
 * restored, so a truncated or altered entry is found out, not handed to a submission.
 */

export const RECORD = 'record.json';
export const FILES = 'box';
const FORMAT = 1;

export interface FileRecord {
  /** Relative path in the box. */
  path: string;
  /** 0o755 or 0o644. */
  mode: number;
  size: number;
  sha256: string;
  /** Owned by the box's uid (the compiler wrote it), not by the runner. */
  own: boolean;
}

export interface EntryRecord {
  format: number;
  key: string;
  ok: boolean;
  log: string;
  entry: string;
  source: string;
  dirs: { path: string; own: boolean }[];
  files: FileRecord[];
}

/** Why a box is not cached (something other than files and directories, or too large). */
export class NotCacheable extends Error {}

/** Copies the box's files into `dest/box/` and writes the record; answers the bytes copied. */
export async function snapshot(box: Box, dest: string, outcome: Omit<EntryRecord, 'format' | 'dirs' | 'files'>, maxBytes: number): Promise<number> {
  const record: EntryRecord = { format: FORMAT, ...outcome, dirs: [], files: [] };
  let total = 0;
  const filesDir = path.join(dest, FILES);
  await fs.promises.mkdir(filesDir, { recursive: true, mode: 0o755 });
  if (outcome.ok) {
    const walk = async (rel: string): Promise<void> => {
      for (const e of await fs.promises.readdir(path.join(box.path, rel), { withFileTypes: true })) {
        const r = rel ? `${rel}/${e.name}` : e.name;
        const st = await fs.promises.lstat(path.join(box.path, r));
        if (st.isDirectory()) {
          record.dirs.push({ path: r, own: st.uid === box.uid });
          await fs.promises.mkdir(path.join(filesDir, r), { mode: 0o755 });
          await walk(r);
        } else if (st.isFile()) {
          total += st.size;
          if (total > maxBytes) throw new NotCacheable(`more than ${maxBytes} bytes`);
          const bytes = await readRegular(path.join(box.path, r));
          const mode = st.mode & 0o111 ? 0o755 : 0o644;
          await fs.promises.writeFile(path.join(filesDir, r), bytes, { mode, flag: 'wx' });
          record.files.push({ path: r, mode, size: bytes.byteLength, sha256: sha256(bytes), own: st.uid === box.uid });
        } else {
          throw new NotCacheable(`${r} is neither a file nor a directory`);
        }
      }
    };
    await walk('');
  }
  const json = JSON.stringify(record);
  await fs.promises.writeFile(path.join(dest, RECORD), json, { mode: 0o644 });
  return total + json.length;
}

/** The entry's record, or undefined when it is missing or not one this runner wrote. */
export async function readRecord(dir: string, key: string): Promise<EntryRecord | undefined> {
  let r: EntryRecord;
  try {
    r = JSON.parse(await fs.promises.readFile(path.join(dir, RECORD), 'utf8')) as EntryRecord;
  } catch {
    return undefined;
  }
  const ok = r && r.format === FORMAT && r.key === key && typeof r.ok === 'boolean' && typeof r.log === 'string' &&
    typeof r.entry === 'string' && typeof r.source === 'string' && Array.isArray(r.dirs) && Array.isArray(r.files);
  return ok ? r : undefined;
}

/**
 * Writes the entry's files into an empty box, as the compiler left them (modes, and the box's uid
 * as owner of what the compiler wrote). False when a file is missing or does not match its record.
 */
export async function restore(dir: string, record: EntryRecord, box: Box): Promise<boolean> {
  const root = process.geteuid?.() === 0;
  for (const d of record.dirs) {
    if (!safe(d.path)) return false;
    const target = path.join(box.path, d.path);
    await fs.promises.mkdir(target, { mode: 0o755 });
    if (root && d.own) await fs.promises.chown(target, box.uid, box.gid);
  }
  for (const f of record.files) {
    if (!safe(f.path)) return false;
    let bytes: Buffer;
    try {
      bytes = await readRegular(path.join(dir, FILES, f.path));
    } catch {
      return false;
    }
    if (bytes.byteLength !== f.size || sha256(bytes) !== f.sha256) return false;
    const target = path.join(box.path, f.path);
    await fs.promises.writeFile(target, bytes, { mode: f.mode, flag: 'wx' });
    await fs.promises.chmod(target, f.mode);
    if (root && f.own) await fs.promises.chown(target, box.uid, box.gid);
  }
  return true;
}

/** A regular file's bytes, never through a symbolic link. */
async function readRegular(file: string): Promise<Buffer> {
  const h = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    if (!(await h.stat()).isFile()) throw new NotCacheable(`${file} is not a regular file`);
    return await h.readFile();
  } finally {
    await h.close();
  }
}

function safe(rel: string): boolean {
  return typeof rel === 'string' && rel !== '' && !rel.startsWith('/') && rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
