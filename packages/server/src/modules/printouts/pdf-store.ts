/**
 * Each printout's PDF, made once and kept: `<dataDir>/printouts/<printout id>-<key>.pdf`, where the
 * key is the SHA-256 of everything the PDF is made from (service.ts). A repeated fetch reads the
 * kept file; a changed input (a renamed participant) has another key and is made again. Outside
 * files/, since these are a cache the blob store's checks and backups need not know. The retention
 * worker removes the PDFs of printouts whose source was disposed of (pruneDisposed).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type Database from 'better-sqlite3';

const NAME = /^([0-9a-f-]{36})-([0-9a-f]{64})\.pdf$/;

export const printoutPdfDir = (dataDir: string): string => join(dataDir, 'printouts');

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

/** Removes the PDFs of printouts gone or whose source was disposed of; answers how many. */
export async function pruneDisposed(dir: string, sqlite: Database.Database): Promise<number> {
  const live = sqlite.prepare<[string], { id: string }>('SELECT id FROM printouts WHERE id = ? AND source IS NOT NULL');
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = NAME.exec(name);
    if (!m || live.get(m[1]!)) continue;
    await rm(join(dir, name), { force: true });
    removed++;
  }
  return removed;
}
