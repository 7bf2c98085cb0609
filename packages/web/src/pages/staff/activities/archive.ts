import { hasOwnStatement, packagesInArchive, type PackageInArchive } from '@judge/sdk/browser';
import { strFromU8, unzipSync, zipSync, type Unzipped } from 'fflate';

/** One package of an uploaded contest archive, zipped on its own as judgectl uploads it. */
export interface ArchivePackage extends PackageInArchive {
  zip: Uint8Array;
  /** problem.yaml's name (the English one of a map), when it says one plainly. */
  name: string | undefined;
  hasStatement: boolean;
}

export type ArchiveReading = { packages: ArchivePackage[]; skipped: string[] } | { error: 'notZip' | 'tooBig' | 'empty' };

/** More than this unpacked is refused before anything is inflated: a browser tab holds it all in memory. */
const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;

function unzip(bytes: Uint8Array): Unzipped | 'notZip' | 'tooBig' {
  let total = 0;
  try {
    return unzipSync(bytes, {
      filter: (f) => {
        total += f.originalSize;
        if (total > MAX_UNPACKED_BYTES) throw new RangeError('too big');
        return true;
      },
    });
  } catch (e) {
    return e instanceof RangeError ? 'tooBig' : 'notZip';
  }
}

/**
 * problem.yaml's name when it is written plainly: `name: Sum` or, by language, `name:` followed by
 * `  en: Sum`. Anything fancier is left to the server, which reads the whole file and whose name
 * the problem takes once its version is made.
 */
export function manifestName(text: string): string | undefined {
  const unquote = (s: string) => s.trim().replace(/^(['"])(.*)\1$/, '$2').trim() || undefined;
  const plain = /^name:[ \t]*([^\n#]+?)[ \t]*$/m.exec(text);
  if (plain) return unquote(plain[1]!);
  const map = /^name:[ \t]*\n((?:[ \t]+[^\n]*\n?)+)/m.exec(text);
  if (!map) return undefined;
  const en = /^[ \t]+en:[ \t]*([^\n#]+)/m.exec(map[1]!) ?? /^[ \t]+[A-Za-z-]+:[ \t]*([^\n#]+)/m.exec(map[1]!);
  return en ? unquote(en[1]!) : undefined;
}

/** The files of a package by their path inside it, one wrapping folder looked through (as the server does). */
function packageFiles(entries: Unzipped, prefix: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const [path, bytes] of Object.entries(entries)) if (path.startsWith(prefix) && !path.endsWith('/')) out.set(path.slice(prefix.length), bytes);
  const tops = new Set([...out.keys()].map((p) => p.split('/')[0]));
  if (!out.has('problem.yaml') && tops.size === 1 && [...out.keys()].every((p) => p.includes('/'))) {
    const wrapper = `${[...tops][0]}/`;
    return new Map([...out].map(([p, b]) => [p.slice(wrapper.length), b]));
  }
  return out;
}

function describe(found: PackageInArchive, files: Map<string, Uint8Array>, zip: Uint8Array): ArchivePackage {
  const manifest = files.get('problem.yaml');
  return { ...found, zip, name: manifest ? manifestName(strFromU8(manifest)) : undefined, hasStatement: hasOwnStatement(files.keys()) };
}

/**
 * Reads a contest archive in the browser: each top-level folder with a problem.yaml is zipped on
 * its own, each top-level zip holding one is taken as it is; the rest is named as skipped.
 */
export function readArchive(bytes: Uint8Array): ArchiveReading {
  const entries = unzip(bytes);
  if (entries === 'notZip' || entries === 'tooBig') return { error: entries };
  const { found, skipped } = packagesInArchive(Object.keys(entries));
  const packages: ArchivePackage[] = [];
  for (const f of found) {
    if (f.kind === 'folder') {
      const files = packageFiles(entries, f.path);
      packages.push(describe(f, files, zipSync(Object.fromEntries(files))));
      continue;
    }
    const inner = unzip(entries[f.path]!);
    const files = typeof inner === 'string' ? undefined : packageFiles(inner, '');
    if (files?.has('problem.yaml')) packages.push(describe(f, files, entries[f.path]!));
    else skipped.push(f.path.split('/').pop()!);
  }
  if (!packages.length) return { error: 'empty' };
  return { packages, skipped };
}
