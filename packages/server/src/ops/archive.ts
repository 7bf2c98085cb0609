import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';

/** What a backup archive says about itself; its last entry, so that a cut-off archive has none. */
export interface Manifest {
  format: 'judge-backup';
  formatVersion: 1;
  judgeVersion: string;
  createdAt: string;
  /** Which database the backup holds: `judge.db` (SQLite; also when absent, as older backups) or `database.pgdump` (PostgreSQL). */
  engine?: 'sqlite' | 'postgres';
  /** Rows of every table in the database snapshot, for a reader to compare with. */
  tables: Record<string, number>;
  entries: { path: string; size: number; sha256: string }[];
}

export const MANIFEST = 'manifest.json';
export const DB_ENTRY = 'judge.db';
/** A judge on PostgreSQL: pg_dump's custom format of the whole database. */
export const PG_DUMP_ENTRY = 'database.pgdump';

/** A pass-through that counts and hashes what flows by. */
export class HashTap extends Transform {
  private readonly h = createHash('sha256');
  bytes = 0;

  constructor(private readonly onBytes: (n: number) => void = () => {}) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null, d?: Buffer) => void): void {
    this.h.update(chunk);
    this.bytes += chunk.length;
    this.onBytes(chunk.length);
    cb(null, chunk);
  }

  digest(): string {
    return this.h.digest('hex');
  }
}

/** Entries a backup may hold, and so the only paths a restore writes: no `..`, no absolute path. */
export function isAllowedEntry(path: string): boolean {
  if (path === DB_ENTRY || path === PG_DUMP_ENTRY || path === MANIFEST || path === 'judge.json') return true;
  if (/^runner\/[A-Za-z0-9._-]+\.json$/.test(path)) return true;
  const m = /^files\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})$/.exec(path);
  return !!m && m[3]!.startsWith(m[1]! + m[2]!);
}

/** Table row counts of a database, by name. */
export function tableCounts(db: { prepare(sql: string): { all(): unknown[]; get(): unknown } }): Record<string, number> {
  const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  return Object.fromEntries(names.map((n) => [n, (db.prepare(`SELECT count(*) AS n FROM "${n}"`).get() as { n: number }).n]));
}

export const human = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KiB` : bytes < 1024 ** 3 ? `${(bytes / 1024 ** 2).toFixed(1)} MiB` : `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
