import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { PackageError } from './errors.js';

/**
 * The zip safety rules of a problem package, decided in one place: the server applies them when a
 * package is uploaded and the runner before it unpacks one, so the server never stores a package
 * the runner would refuse, and both say why in the same words.
 */

export interface ZipLimits {
  /** Most entries in the central directory (folders included). */
  maxEntries: number;
  /** Most bytes the entries may declare (and, when unpacking, really inflate to). */
  maxExtractedBytes: number;
}

const GiB = 1024 ** 3;

/** What the server takes at upload; the runner's own limits are at least these. */
export const UPLOAD_ZIP_LIMITS: ZipLimits = { maxEntries: 10_000, maxExtractedBytes: GiB };

/**
 * Deflate inflates at most about 1032 bytes per compressed byte: an entry declaring more was
 * crafted, whatever it really holds (a zip bomb or a lie about its size).
 */
export const MAX_COMPRESSION_RATIO = 1100;

/** A content entry, named relative to the package root (a wrapping folder stripped, no trailing slash). */
export interface PackageEntry {
  name: string;
  entry: Entry;
  directory: boolean;
  /** Unix execute bits are set (build and run scripts). */
  executable: boolean;
}

/** An opened package zip whose every entry passed the rules; close it when done. */
export interface PackageZip {
  zip: ZipFile;
  entries: PackageEntry[];
  close(): void;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** `the package unpacks to more than 1 GiB` / `... 1048576 bytes`. */
export const tooLargeMessage = (max: number) => `the package unpacks to more than ${max % GiB === 0 ? `${max / GiB} GiB` : `${max} bytes`}`;

/** macOS archivers add this folder beside the real content; it is never part of a package. */
export const isMacMetadata = (name: string) => name.startsWith('__MACOSX/') || name === '__MACOSX';

/**
 * Opens a package zip (its bytes or its path) and checks every entry of the central directory:
 * the number of entries, the bytes they declare, names that would land outside the package
 * (absolute paths, drive letters, `..`, backslashes, NUL), symbolic links and other special files,
 * encryption, compression methods other than stored and deflate, impossible compression ratios, and
 * names given twice. Throws PackageError with the reason; nothing is inflated here.
 */
export async function openPackageZip(source: Uint8Array | string, limits: ZipLimits = UPLOAD_ZIP_LIMITS): Promise<PackageZip> {
  const zip = await open(source);
  try {
    if (zip.entryCount > limits.maxEntries) throw new PackageError(`the package holds ${zip.entryCount} entries; at most ${limits.maxEntries} are allowed`);
    const raw: Entry[] = [];
    let declared = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        declared += entry.uncompressedSize;
        if (declared > limits.maxExtractedBytes) throw new PackageError(tooLargeMessage(limits.maxExtractedBytes));
        raw.push(entry);
      }
    } catch (e) {
      throw zipFault(e);
    }
    for (const entry of raw) checkEntry(entry);
    const entries = contentOf(raw);
    return { zip, entries, close: () => zip.close() };
  } catch (e) {
    zip.close();
    throw e;
  }
}

/** Why the package zip is refused (the message of openPackageZip's PackageError), or undefined when it passes. */
export async function zipRefusal(source: Uint8Array | string, limits: ZipLimits = UPLOAD_ZIP_LIMITS): Promise<string | undefined> {
  try {
    (await openPackageZip(source, limits)).close();
    return undefined;
  } catch (e) {
    if (e instanceof PackageError) return e.message;
    throw e;
  }
}

async function open(source: Uint8Array | string): Promise<ZipFile> {
  // autoClose off: entries are read after the whole directory has been listed
  const options = { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true, strictFileNames: true } as const;
  try {
    if (typeof source === 'string') return await yauzl.openPromise(source, options);
    return await yauzl.fromBufferPromise(Buffer.from(source.buffer, source.byteOffset, source.byteLength), options);
  } catch (e) {
    throw new PackageError(`the package is not a zip file (${(e as Error).message})`);
  }
}

function checkEntry(entry: Entry): void {
  const name = entry.fileName;
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name) || name.split('/').includes('..') || name.includes('\\')) {
    throw new PackageError(`the entry "${name}" points outside the package (an absolute path, a drive letter, .. or a backslash escape)`);
  }
  if (name.includes('\0')) throw new PackageError(`the entry ${JSON.stringify(name)} has a NUL in its name`);
  const type = unixMode(entry) & S_IFMT;
  if (type === S_IFLNK) throw new PackageError(`the entry "${name}" is a symbolic link; packages must hold regular files only`);
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) throw new PackageError(`the entry "${name}" is a special file; packages must hold regular files only`);
  if (entry.isEncrypted()) throw new PackageError(`the entry "${name}" is encrypted`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw new PackageError(`the entry "${name}" uses compression method ${entry.compressionMethod}; packages must be stored or deflated`);
  }
  if (entry.uncompressedSize > Math.max(entry.compressedSize, 1) * MAX_COMPRESSION_RATIO) {
    throw new PackageError(`the entry "${name}" declares ${entry.uncompressedSize} bytes from ${entry.compressedSize} compressed bytes, more than deflate can produce (a zip bomb)`);
  }
}

/** The entries that are content (no macOS metadata), named relative to the package root; a name given twice is refused. */
function contentOf(raw: Entry[]): PackageEntry[] {
  const content = raw.filter((e) => !isMacMetadata(e.fileName));
  const prefix = wrapperPrefix(content.map((e) => e.fileName));
  const seen = new Set<string>();
  const out: PackageEntry[] = [];
  for (const entry of content) {
    const name = entry.fileName.slice(prefix.length).replace(/\/+$/, '');
    if (name === '') continue;
    if (seen.has(name)) throw new PackageError(`the package holds "${entry.fileName}" twice`);
    seen.add(name);
    out.push({ name, entry, directory: isDirectoryEntry(entry), executable: (unixMode(entry) & 0o111) !== 0 });
  }
  return out;
}

/**
 * Many tools zip a package as one folder (`hello/problem.yaml`, `hello/data/...`): when a single
 * top-level folder wraps everything and there is no problem.yaml at the root, the folder is stripped.
 */
export function wrapperPrefix(names: string[]): string {
  if (names.length === 0 || names.includes('problem.yaml')) return '';
  const top = names[0]!.split('/')[0]!;
  if (!top || !names.every((n) => n.startsWith(`${top}/`) || n === top)) return '';
  return `${top}/`;
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

/** A zip library fault as a PackageError: names yauzl refuses point outside the package. */
export function zipFault(e: unknown, entry?: string): Error {
  if (e instanceof PackageError) return e;
  const message = e instanceof Error ? e.message : String(e);
  const escape = /^(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(message);
  if (escape) return new PackageError(`the entry "${escape[1]}" points outside the package (an absolute path, a drive letter, .. or a backslash escape)`);
  if ((e as NodeJS.ErrnoException).code === 'EEXIST') return new PackageError(`the package holds "${entry}" twice`);
  return new PackageError(`the zip is damaged${entry ? ` at "${entry}"` : ''} (${message})`);
}

/** The bytes of one entry, refused when it declares more than `maxBytes`. */
export async function readEntry(pkg: PackageZip, e: PackageEntry, maxBytes: number, what = e.name): Promise<Buffer> {
  if (e.entry.uncompressedSize > maxBytes) throw new PackageError(`${what} is larger than ${maxBytes >= 1024 ** 2 ? `${maxBytes / 1024 ** 2} MiB` : `${maxBytes} bytes`}`);
  try {
    const stream = await pkg.zip.openReadStreamPromise(e.entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch (err) {
    throw new PackageError(`${what} cannot be read: ${zipFault(err).message}`);
  }
}
