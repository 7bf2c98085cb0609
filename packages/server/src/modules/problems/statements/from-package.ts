/**
 * The statements of a package (`problem_statement/` or `statement/`, `problem[.<lang>].<format>`),
 * one per language, read and converted once when the version is made, with the images they show.
 */
import { posix } from 'node:path';
import { openPackageZip, readEntry, STATEMENT_PATH, type PackageEntry, type PackageZip } from '@judge/problem-package';
import { convertStatement, type SourceFormat, type StatementFormat } from './convert.js';
import { imageMime, MAX_IMAGE_BYTES, resolveImage } from './images.js';

/** When a language has several, the one kept: Markdown, then LaTeX (converted), HTML, PDF. */
const PREFERENCE: SourceFormat[] = ['md', 'tex', 'html', 'pdf'];
const MAX_TEXT_BYTES = 2 * 1024 * 1024;
const MAX_PDF_BYTES = 64 * 1024 * 1024;

export interface PackageStatement {
  language: string | undefined;
  format: StatementFormat;
  bytes: Buffer;
}

/** An image a statement shows, by its name below the statement's directory; answers the URL it is served at. */
export type ImageStore = (image: { name: string; bytes: Buffer; mimeType: string }) => Promise<string>;

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

/** The statements converted; their images stored once each through `store`. */
export async function packageStatements(path: string, store: ImageStore): Promise<PackageStatement[]> {
  const pkg = await openPackageZip(path);
  try {
    const byName = new Map(pkg.entries.filter((e) => !e.directory).map((e) => [e.name, e]));
    const urls = new Map<string, string>();
    const out: PackageStatement[] = [];
    for (const s of chosen(pkg)) {
      const dir = posix.dirname(s.entry.name);
      // \input reads a file synchronously: the directory's small text files are read beforehand
      const siblings = new Map<string, string>();
      if (s.source === 'tex') {
        for (const e of byName.values()) {
          if (posix.dirname(e.name) === dir && e.name.endsWith('.tex') && e.entry.uncompressedSize <= MAX_TEXT_BYTES) {
            siblings.set(posix.basename(e.name), (await readEntry(pkg, e, MAX_TEXT_BYTES)).toString('utf8'));
          }
        }
      }
      const bytes = await readEntry(pkg, s.entry, s.source === 'pdf' ? MAX_PDF_BYTES : MAX_TEXT_BYTES);
      const converted = await convertStatement(
        s.source,
        bytes,
        {
          sibling: (name) => siblings.get(name),
          image: (ref) => resolveImage(dir, ref, (p) => (byName.get(p)?.entry.uncompressedSize ?? Infinity) <= MAX_IMAGE_BYTES),
          imageUrl: async (p) => {
            if (!urls.has(p)) {
              const name = p.slice(dir.length + 1);
              urls.set(p, await store({ name, bytes: await readEntry(pkg, byName.get(p)!, MAX_IMAGE_BYTES), mimeType: imageMime(p)! }));
            }
            return urls.get(p);
          },
        },
        s.entry.name,
      );
      out.push({ language: s.language, ...converted });
    }
    return out;
  } finally {
    pkg.close();
  }
}
