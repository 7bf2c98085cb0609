import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { activities, series } from '../db/schema.js';
import type { Q } from '../db/storage.js';
import { event } from '../events/bus.js';
import type { Deps } from '../services.js';
import { iso } from '../util.js';
import { IntervalWorker } from './interval.js';

export interface RankingAnnouncement {
  activityId: string;
  seriesId: string;
  change: 'unfrozen' | 'windowOpened';
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
export class RankingAnnouncer extends IntervalWorker<Promise<RankingAnnouncement[]>> {
  private last: string | undefined;

  constructor(d: Deps) {
    super(d, 'ranking announcer');
  }

  /** Ticks once at once (recording now), then every 5 s. */
  override start(intervalMs = 5_000): void {
    // the first tick only records now: it reads nothing, so nothing is left to wait for
    void this.tick(this.d.clock.now());
    super.start(intervalMs);
  }

  /** Announces the instants in (previous tick, now] to holders of ranking:read in each activity. */
  async tick(now: Date): Promise<RankingAnnouncement[]> {
    const t = iso(now);
    const since = this.last;
    // a clock set back must not announce the same instants twice
    if (since === undefined || t > since) this.last = t;
    if (since === undefined || t <= since) return [];
    const done: RankingAnnouncement[] = [];
    for (const r of await this.d.tx.read((q) => dueSeries(q, since, t))) {
      if (r.unfrozen) done.push({ activityId: r.activityId, seriesId: r.seriesId, change: 'unfrozen' });
      if (r.windowOpened) done.push({ activityId: r.activityId, seriesId: r.seriesId, change: 'windowOpened' });
    }
    if (done.length) {
      await this.d.tx.write(async (_q, out) => {
        for (const a of done) out.emit(event('rankingChanged', a, { kind: 'permission', key: 'ranking:read', activityId: a.activityId }));
      });
    }
    return done;
  }
}

/**
 * The series of published, unarchived activities with an instant in (since, now]: a reveal after a
 * freeze, or the start of the ranking window (rankingVisibleFrom, else the start) while it is open.
 * A few hundred series at most: scanned, no index needed; the instants are compared here.
 */
async function dueSeries(q: Q, since: string, now: string): Promise<{ activityId: string; seriesId: string; unfrozen: boolean; windowOpened: boolean }[]> {
  const rows = await q
    .select({
      activityId: series.activityId,
      seriesId: series.id,
      freezeAt: series.rankingFreezeAt,
      revealAt: series.rankingRevealAt,
      visibleFrom: series.rankingVisibleFrom,
      visibleTo: series.rankingVisibleTo,
      startDate: series.startDate,
    })
    .from(series)
    .innerJoin(activities, eq(activities.id, series.activityId))
    .where(and(isNotNull(activities.publishedAt), isNull(activities.archivedAt)))
    .orderBy(series.activityId, series.order, series.id);
  const within = (at: string | null): at is string => at !== null && at > since && at <= now;
  const out = [];
  for (const r of rows) {
    const unfrozen = r.freezeAt !== null && r.revealAt !== null && r.freezeAt < r.revealAt && within(r.revealAt);
    const opens = r.visibleFrom ?? r.startDate;
    const windowOpened = within(opens) && (r.visibleTo === null || r.visibleTo > now);
    if (unfrozen || windowOpened) out.push({ activityId: r.activityId, seriesId: r.seriesId, unfrozen, windowOpened });
  }
  return out;
}
