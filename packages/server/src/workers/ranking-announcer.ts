import type Database from 'better-sqlite3';
import { event } from '../events/bus.js';
import type { Deps } from '../services.js';
import { iso } from '../util.js';
import { IntervalWorker } from './interval.js';

export interface RankingAnnouncement {
  activityId: string;
  seriesId: string;
  change: 'unfrozen' | 'windowOpened';
}

interface Due {
  activityId: string;
  seriesId: string;
  unfrozen: number;
  windowOpened: number;
}

/**
 * Tells the ranking's readers when the standings change by the clock alone (decisions §10,
 * `rankingChanged`): `unfrozen` when a series passes its rankingRevealAt after a freeze, and
 * `windowOpened` when it passes the start of its ranking window (rankingVisibleFrom, else its
 * start). Nothing about those instants is stored: each tick announces what fell in
 * (previous tick, now], and the first tick after start only records now, so a restart never
 * repeats an announcement (it may miss one that passed while the server was down: readers who
 * connect afterwards fetch the standings anyway). `tick(now)` is what tests call with a fake clock.
 */
export class RankingAnnouncer extends IntervalWorker<RankingAnnouncement[]> {
  private last: string | undefined;
  private readonly due: Database.Statement<{ since: string; now: string }, Due>;

  constructor(d: Deps) {
    super(d, 'ranking announcer');
    // a few hundred series at most: scanned, no index needed
    this.due = d.sqlite.prepare(
      `SELECT * FROM (
         SELECT s.activity_id AS activityId, s.id AS seriesId, s."order" AS "order",
                coalesce(s.ranking_freeze_at < s.ranking_reveal_at AND s.ranking_reveal_at > @since AND s.ranking_reveal_at <= @now, 0) AS unfrozen,
                coalesce(coalesce(s.ranking_visible_from, s.start_date) > @since AND coalesce(s.ranking_visible_from, s.start_date) <= @now
                  AND (s.ranking_visible_to IS NULL OR s.ranking_visible_to > @now), 0) AS windowOpened
         FROM series s JOIN activities a ON a.id = s.activity_id
         WHERE a.published_at IS NOT NULL AND a.archived_at IS NULL)
       WHERE unfrozen = 1 OR windowOpened = 1
       ORDER BY activityId, "order", seriesId`,
    );
  }

  /** Ticks once at once (recording now), then every 5 s. */
  override start(intervalMs = 5_000): void {
    this.tick(this.d.clock.now());
    super.start(intervalMs);
  }

  /** Announces the instants in (previous tick, now] to holders of ranking:read in each activity. */
  tick(now: Date): RankingAnnouncement[] {
    const t = iso(now);
    const since = this.last;
    // a clock set back must not announce the same instants twice
    if (since === undefined || t > since) this.last = t;
    if (since === undefined || t <= since) return [];
    const done: RankingAnnouncement[] = [];
    for (const r of this.due.all({ since, now: t })) {
      if (r.unfrozen) done.push({ activityId: r.activityId, seriesId: r.seriesId, change: 'unfrozen' });
      if (r.windowOpened) done.push({ activityId: r.activityId, seriesId: r.seriesId, change: 'windowOpened' });
    }
    if (done.length) {
      this.d.tx.run((out) => {
        for (const a of done) out.emit(event('rankingChanged', a, { kind: 'permission', key: 'ranking:read', activityId: a.activityId }));
      });
    }
    return done;
  }
}
