import type Database from 'better-sqlite3';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { pruneDisposed } from '../modules/printouts/index.js';
import { iso, type Clock } from '../util.js';
import { IntervalWorker, type WorkerDeps } from './interval.js';

const HOUR = 3_600_000;
const KEEP_ENDED_SESSIONS_DAYS = 90;
/** A resolved printout's source is kept this long, for a reprint or a dispute, then dropped (decisions §7). */
const KEEP_PRINTOUT_SOURCE_DAYS = 7;

type Removed = { secrets: number; sessions: number; uploads: number; printoutSources: number; printoutPdfs: number };

/**
 * Removes what nobody can use any more: lapsed secrets, sessions ended long ago, upload
 * leftovers of requests that died half way, and the sources of printouts resolved a week ago (with their kept PDFs). `tick(now)` is what tests call.
 */
export class RetentionWorker extends IntervalWorker<Promise<Removed>, WorkerDeps> {
  /** Without a log of the server's, failures go to standard error. */
  constructor(
    private readonly sqlite: Database.Database,
    private readonly incomingDir: string,
    clock: Clock,
    log: Logger = pino({ level: 'error' }, pino.destination(2)),
    /** Where the printouts' PDFs are kept: those of disposed sources go with them. */
    private readonly printoutPdfs?: string,
  ) {
    super({ clock, log }, 'retention');
  }

  /** Every 10 minutes: nothing it removes is in anyone's way before then. */
  override start(intervalMs = 10 * 60_000): void {
    super.start(intervalMs);
  }

  async tick(now: Date): Promise<Removed> {
    const secrets = this.sqlite.prepare('DELETE FROM session_secrets WHERE expires_at <= ?').run(iso(now)).changes;
    const cutoff = iso(new Date(now.getTime() - KEEP_ENDED_SESSIONS_DAYS * 24 * HOUR));
    const sessions = this.sqlite
      .prepare('DELETE FROM sessions WHERE (ended_at IS NOT NULL AND ended_at <= @cutoff) OR (ended_at IS NULL AND expires_at <= @cutoff)')
      .run({ cutoff }).changes;
    const printoutSources = this.sqlite
      .prepare('UPDATE printouts SET source = NULL, source_disposed_at = @now WHERE source_disposed_at IS NULL AND resolved_at <= @cutoff')
      .run({ now: iso(now), cutoff: iso(new Date(now.getTime() - KEEP_PRINTOUT_SOURCE_DAYS * 24 * HOUR)) }).changes;
    let uploads = 0;
    for (const name of await readdir(this.incomingDir).catch(() => [] as string[])) {
      const p = join(this.incomingDir, name);
      const st = await stat(p).catch(() => null);
      if (st && now.getTime() - st.mtimeMs > HOUR) {
        await rm(p, { force: true });
        uploads++;
      }
    }
    const printoutPdfs = this.printoutPdfs ? await pruneDisposed(this.printoutPdfs, this.sqlite) : 0;
    return { secrets, sessions, uploads, printoutSources, printoutPdfs };
  }
}
