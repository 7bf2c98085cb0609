import { and, eq, isNotNull, isNull, lte, notExists, or } from 'drizzle-orm';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { accountCodes, printouts, rememberedMachines, sessions, sessionSecrets, submissions, userMerges, users } from '../db/schema.js';
import type { Transactor } from '../db/transactor.js';
import { iso, type Clock } from '../util.js';
import { IntervalWorker, type WorkerDeps } from './interval.js';

const HOUR = 3_600_000;
const KEEP_ENDED_SESSIONS_DAYS = 90;
/** An expired temporary account is removed this long after it lapsed, unless it submitted (its results stay). */
const KEEP_EXPIRED_TEMPORARY_DAYS = 30;
/** A resolved printout's source is kept this long, for a reprint or a dispute, then dropped (decisions §7). */
const KEEP_PRINTOUT_SOURCE_DAYS = 7;

type Removed = { secrets: number; accountCodes: number; rememberedMachines: number; temporaryUsers: number; sessions: number; uploads: number; printoutSources: number; printoutPdfs: number; mergedSources: number };

/** Where the printouts' PDFs are kept, and how those of disposed sources are removed (the printouts area's). */
export interface PrintoutPdfs {
  dir: string;
  prune(dir: string): Promise<number>;
}

/**
 * Removes what nobody can use any more: lapsed secrets and mailed codes, temporary accounts a month
 * past their end that never submitted, sessions ended long ago, upload
 * leftovers of requests that died half way, and the sources of printouts resolved a week ago (with their kept PDFs). `tick(now)` is what tests call.
 * Its deletes are one write that decides nothing from what it read, so a retried one (PostgreSQL) does the same.
 */
export class RetentionWorker extends IntervalWorker<Promise<Removed>, WorkerDeps> {
  /** Without a log of the server's, failures go to standard error. */
  constructor(
    private readonly tx: Pick<Transactor, 'write'>,
    private readonly incomingDir: string,
    clock: Clock,
    log: Logger = pino({ level: 'error' }, pino.destination(2)),
    /** The printouts' PDFs: those of disposed sources go with them. */
    private readonly printoutPdfs?: PrintoutPdfs,
    /** Anonymises the sources of merges past undoing (the user-merges area's); answers how many. */
    private readonly anonymiseMerged?: (now: Date) => Promise<number>,
  ) {
    super({ clock, log }, 'retention');
  }

  /** Every 10 minutes: nothing it removes is in anyone's way before then. */
  override start(intervalMs = 10 * 60_000): void {
    super.start(intervalMs);
  }

  async tick(now: Date): Promise<Removed> {
    const cutoff = iso(new Date(now.getTime() - KEEP_ENDED_SESSIONS_DAYS * 24 * HOUR));
    const sourcesBefore = iso(new Date(now.getTime() - KEEP_PRINTOUT_SOURCE_DAYS * 24 * HOUR));
    const removed = await this.tx.write(async (q) => {
      const secrets = await q.delete(sessionSecrets).where(lte(sessionSecrets.expiresAt, iso(now))).returning({ hash: sessionSecrets.hash });
      const codes = await q.delete(accountCodes).where(lte(accountCodes.expiresAt, iso(now))).returning({ hash: accountCodes.hash });
      const machines = await q.delete(rememberedMachines).where(lte(rememberedMachines.expiresAt, iso(now))).returning({ hash: rememberedMachines.hash });
      const lapsedBefore = iso(new Date(now.getTime() - KEEP_EXPIRED_TEMPORARY_DAYS * 24 * HOUR));
      const temporary = await q
        .delete(users)
        .where(
          and(
            eq(users.isTemporary, true),
            lte(users.expiresAt, lapsedBefore),
            notExists(q.select({ one: submissions.id }).from(submissions).where(eq(submissions.userId, users.id))),
            // a merged guest account waits for its merge to become final (or be undone)
            notExists(q.select({ one: userMerges.id }).from(userMerges).where(and(eq(userMerges.sourceUserId, users.id), isNull(userMerges.undoneAt), isNull(userMerges.sourceAnonymisedAt)))),
          ),
        )
        .returning({ id: users.id });
      const ended = await q
        .delete(sessions)
        .where(or(and(isNotNull(sessions.endedAt), lte(sessions.endedAt, cutoff)), and(isNull(sessions.endedAt), lte(sessions.expiresAt, cutoff))))
        .returning({ id: sessions.id });
      const disposed = await q
        .update(printouts)
        .set({ source: null, sourceDisposedAt: iso(now) })
        .where(and(isNull(printouts.sourceDisposedAt), lte(printouts.resolvedAt, sourcesBefore)))
        .returning({ id: printouts.id });
      return { secrets: secrets.length, accountCodes: codes.length, rememberedMachines: machines.length, temporaryUsers: temporary.length, sessions: ended.length, printoutSources: disposed.length };
    });
    let uploads = 0;
    for (const name of await readdir(this.incomingDir).catch(() => [] as string[])) {
      const p = join(this.incomingDir, name);
      const st = await stat(p).catch(() => null);
      if (st && now.getTime() - st.mtimeMs > HOUR) {
        await rm(p, { force: true });
        uploads++;
      }
    }
    const printoutPdfs = this.printoutPdfs ? await this.printoutPdfs.prune(this.printoutPdfs.dir) : 0;
    const mergedSources = this.anonymiseMerged ? await this.anonymiseMerged(now) : 0;
    return { ...removed, uploads, printoutPdfs, mergedSources };
  }
}
