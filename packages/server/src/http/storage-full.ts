import type { Logger } from 'pino';

/**
 * The errors a full file system or an exhausted quota raise: Node's, SQLite's, and PostgreSQL's
 * SQLSTATE 53100 (disk_full: the database server's disk, which node-postgres reports as the code).
 */
const FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);

/** Whether an error, or any error it was caused by, says the disk is full. */
export function isStorageFull(err: unknown): boolean {
  for (let e = err, hops = 0; e && typeof e === 'object' && hops < 5; e = (e as { cause?: unknown }).cause, hops++) {
    if (FULL.has(String((e as { code?: unknown }).code))) return true;
  }
  return false;
}

/** A full disk refuses every write until space is freed; the log says so once per this long. */
const REPEAT_MS = 10 * 60_000;

/**
 * Logs a full disk once, clearly, rather than once per refused request: again only after
 * REPEAT_MS, with the number of refusals in between.
 */
export class StorageFullAlarm {
  private lastLogged = -Infinity;
  private refusedSince = 0;

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  refused(err: unknown): void {
    this.refusedSince++;
    const t = this.now();
    if (t - this.lastLogged < REPEAT_MS) return;
    const code = (err as { code?: unknown }).code;
    this.log.error(
      { code, refused: this.refusedSince },
      'storage full: the data directory has no space left; requests that write answer 507 until space is freed',
    );
    this.lastLogged = t;
    this.refusedSince = 0;
  }
}
