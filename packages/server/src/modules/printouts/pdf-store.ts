/**
 * Each printout's PDF, made once and kept: `<filesDir>/.printouts/<printout id>-<key>.pdf`, where
 * the key is the SHA-256 of everything the PDF is made from (service.ts). A repeated fetch reads the
 * kept file; a changed input (a renamed participant) has another key and is made again. In the files
 * directory, so that every server sharing it reads a PDF another made (docs/storage.md, "Files"); in
 * a folder of its own there, since these are a cache that the blob store's checks and backups need
 * not know. The retention worker removes the PDFs of printouts whose source was disposed of
 * (pruneDisposed). Two servers making one PDF at once each rename a whole file into place.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, inArray, isNotNull } from 'drizzle-orm';
import { printouts } from '../../db/schema.js';
import type { Transactor } from '../../db/transactor.js';
import { filesLayout } from '../files/index.js';

const NAME = /^([0-9a-f-]{36})-([0-9a-f]{64})\.pdf$/;

/** The folder of the printouts' PDFs in the files directory `filesRoot`. */
export const printoutPdfDir = (filesRoot: string): string => filesLayout(filesRoot).printouts;

export class PdfStore {
  /** Makings under way, so that two fetches at once make the PDF once. */
  private readonly making = new Map<string, Promise<Buffer>>();

  constructor(private readonly dir: string) {}

  private pathOf(id: string, key: string): string {
    return join(this.dir, `${id}-${key}.pdf`);
  }

  /** The kept PDF, or the one `make` makes (then kept); one making per key at a time. */
  async get(id: string, key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const kept = await readFile(this.pathOf(id, key)).catch(() => undefined);
    if (kept) return kept;
    const running = this.making.get(key);
    if (running) return running;
    const p = (async () => {
      const pdf = await make();
      await this.put(id, key, pdf);
      return pdf;
    })();
    this.making.set(key, p);
    try {
      return await p;
    } finally {
      this.making.delete(key);
    }
  }

  /** Written beside and renamed into place, so a half-written PDF is never served. */
  private async put(id: string, key: string, pdf: Buffer): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o750 });
    const temp = join(this.dir, `.${randomBytes(8).toString('hex')}.tmp`);
    await writeFile(temp, pdf, { mode: 0o640 });
    await rename(temp, this.pathOf(id, key));
    // an earlier PDF of the printout (made from what has since changed) is not needed any more
    for (const name of await readdir(this.dir)) {
      const m = NAME.exec(name);
      if (m && m[1] === id && m[2] !== key) await rm(join(this.dir, name), { force: true });
    }
  }
}

/** How many printout ids one query asks about: well below the bound parameters either engine takes. */
const IDS_PER_QUERY = 500;

/** Removes the PDFs of printouts gone or whose source was disposed of; answers how many. */
export async function pruneDisposed(dir: string, tx: Pick<Transactor, 'read'>): Promise<number> {
  const kept = (await readdir(dir).catch(() => [] as string[])).flatMap((name) => {
    const m = NAME.exec(name);
    return m ? [{ name, id: m[1]! }] : [];
  });
  const ids = [...new Set(kept.map((k) => k.id))];
  const live = new Set<string>();
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const chunk = ids.slice(i, i + IDS_PER_QUERY);
    const rows = await tx.read((q) => q.select({ id: printouts.id }).from(printouts).where(and(inArray(printouts.id, chunk), isNotNull(printouts.source))));
    for (const r of rows) live.add(r.id);
  }
  let removed = 0;
  for (const k of kept) {
    if (live.has(k.id)) continue;
    await rm(join(dir, k.name), { force: true });
    removed++;
  }
  return removed;
}
