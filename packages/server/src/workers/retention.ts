import type Database from 'better-sqlite3';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { iso, type Clock } from '../util.js';

const HOUR = 3_600_000;
const KEEP_ENDED_SESSIONS_DAYS = 90;

/**
 * Removes what nobody can use any more: lapsed secrets, sessions ended long ago, and upload
 * leftovers of requests that died half way. `tick(now)` is what tests call.
 */
export class RetentionWorker {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly incomingDir: string,
    private readonly clock: Clock,
  ) {}

  start(intervalMs = 10 * 60_000): void {
    this.timer = setInterval(() => void this.tick(this.clock.now()), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async tick(now: Date): Promise<{ secrets: number; sessions: number; uploads: number }> {
    const secrets = this.sqlite.prepare('DELETE FROM session_secrets WHERE expires_at <= ?').run(iso(now)).changes;
    const cutoff = iso(new Date(now.getTime() - KEEP_ENDED_SESSIONS_DAYS * 24 * HOUR));
    const sessions = this.sqlite
      .prepare('DELETE FROM sessions WHERE (ended_at IS NOT NULL AND ended_at <= @cutoff) OR (ended_at IS NULL AND expires_at <= @cutoff)')
      .run({ cutoff }).changes;
    let uploads = 0;
    for (const name of await readdir(this.incomingDir).catch(() => [] as string[])) {
      const p = join(this.incomingDir, name);
      const st = await stat(p).catch(() => null);
      if (st && now.getTime() - st.mtimeMs > HOUR) {
        await rm(p, { force: true });
        uploads++;
      }
    }
    return { secrets, sessions, uploads };
  }
}
