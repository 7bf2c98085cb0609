/**
 * The statements of a package (`problem_statement/` or `statement/`, `problem[.<lang>].<format>`),
 * one per language, read and checked when the version is made, with the images they show. All are
 * read before any is stored, so that a statement refused stores nothing.
 */
import { posix } from 'node:path';
import { openPackageZip, readEntry, STATEMENT_PATH, type PackageEntry, type PackageZip } from '@judge/problem-package';
import type { BoundedPool } from '../../../offloop/pool.js';
import { readStatement, type ReadStatement, type SourceFormat } from './convert.js';
import { imageMime, MAX_IMAGE_BYTES } from './images.js';

/** When a language has several, the one kept: Markdown, then LaTeX (converted), HTML, PDF. */
const PREFERENCE: SourceFormat[] = ['md', 'tex', 'html', 'pdf'];
const MAX_TEXT_BYTES = 2 * 1024 * 1024;
const MAX_PDF_BYTES = 64 * 1024 * 1024;
/** The images of all statements together, at most; those beyond are left out of the statements. */
const MAX_IMAGES_BYTES = 64 * 1024 * 1024;
/** The .tex files beside a statement, together, at most (each is at most MAX_TEXT_BYTES); the rest are not read. */
const MAX_SIBLINGS_BYTES = 8 * 1024 * 1024;

export interface PackageStatement extends ReadStatement {
  language: string | undefined;
}

/** An image a statement shows: its name below the statement's directory, its package path and bytes. */
export interface StatementImage {
  name: string;
  path: string;
  bytes: Buffer;
  mimeType: string;
}

/** The best statement of each language. */
function chosen(pkg: PackageZip): { entry: PackageEntry; language: string | undefined; source: SourceFormat }[] {
  const best = new Map<string, { entry: PackageEntry; language: string | undefined; source: SourceFormat }>();
  for (const entry of pkg.entries) {
    const m = entry.directory ? null : STATEMENT_PATH.exec(entry.name);
    if (!m) continue;
    const source = m[2] as SourceFormat;
    const had = best.get(m[1] ?? '');
    if (!had || PREFERENCE.indexOf(source) < PREFERENCE.indexOf(had.source)) best.set(m[1] ?? '', { entry, language: m[1], source });
  }
  return [...best.values()].sort((a, b) => (a.language ?? '').localeCompare(b.language ?? ''));
}

/** The directory's small .tex files by name, for \input (read before the conversion, which cannot wait for them). */
async function texSiblings(pkg: PackageZip, dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let total = 0;
  for (const e of pkg.entries) {
    if (!e.directory && posix.dirname(e.name) === dir && e.name.endsWith('.tex') && e.entry.uncompressedSize <= MAX_TEXT_BYTES) {
      if (total + e.entry.uncompressedSize > MAX_SIBLINGS_BYTES) break;
      total += e.entry.uncompressedSize;
      out.set(posix.basename(e.name), (await readEntry(pkg, e, MAX_TEXT_BYTES)).toString('utf8'));
    }
  }
  return out;
}

/** The package's image files below `dir`, by path, with their sizes. */
function imagesBelow(pkg: PackageZip, dir: string): Map<string, number> {
  return new Map(pkg.entries.filter((e) => !e.directory && e.name.startsWith(`${dir}/`) && imageMime(e.name)).map((e) => [e.name, e.entry.uncompressedSize]));
}

/** The package's statements, read and checked (converted on the bounded pool), and the images they show. */
export async function packageStatements(pool: BoundedPool, path: string): Promise<{ statements: PackageStatement[]; images: StatementImage[] }> {
  const pkg = await openPackageZip(path);
  try {
    const byName = new Map(pkg.entries.filter((e) => !e.directory).map((e) => [e.name, e]));
    const statements: PackageStatement[] = [];
    const images = new Map<string, StatementImage>();
    let imageBytes = 0;
    for (const s of chosen(pkg)) {
      const dir = posix.dirname(s.entry.name);
      const siblings = s.source === 'tex' ? await texSiblings(pkg, dir) : new Map<string, string>();
      const bytes = await readEntry(pkg, s.entry, s.source === 'pdf' ? MAX_PDF_BYTES : MAX_TEXT_BYTES);
      const context = { dir, siblings, imageSizes: imagesBelow(pkg, dir), included: [...images.keys()], imageBytesLeft: MAX_IMAGES_BYTES - imageBytes };
      const { fresh, ...read } = await readStatement(pool, s.source, bytes, s.entry.name, context);
      statements.push({ ...read, language: s.language });
      for (const p of fresh) {
        const e = byName.get(p)!;
        imageBytes += e.entry.uncompressedSize;
        images.set(p, { name: p.slice(dir.length + 1), path: p, bytes: await readEntry(pkg, e, MAX_IMAGE_BYTES), mimeType: imageMime(p)! });
      }
    }
    return { statements, images: [...images.values()] };
  } finally {
    pkg.close();
  }
}
