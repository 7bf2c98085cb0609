import { eq } from 'drizzle-orm';
import { ApiError, notFound, type Activity, type ActivityAward, type ActivityAwards, type FinalizeBlocker } from '@judge/contract';
import type { Actor } from '../../auth/permissions.js';
import { activities, activityAwards } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { event } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';
import { toActivity } from '../activities/index.js';
import { managedActivity, managerAudience, participantAudience, requireNotArchived, visibleActivity, type ActivityRow } from '../policy/index.js';
import { awardRulesOf, groupsOfTags, type RankingService } from '../ranking/index.js';
import { computeAwards, type ComputedAward } from './compute.js';
import { awardRows, lastSeriesEnd, storeAwards, tagsOf, toAwards, unansweredCount, unjudgedCount } from './queries.js';

/** What keeps an activity from being finalised, one sentence under each key that applies. */
export type Blockers = Partial<Record<FinalizeBlocker, string[]>>;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Finalising an activity and its awards (decisions §24). The awards come from the ranking's final
 * standings (through any freeze, every row); staff may adjust their citations; participants see
 * them once the activity is final and no freeze hides results from them.
 */
export class AwardsService {
  constructor(
    private readonly d: Deps,
    private readonly ranking: RankingService,
  ) {}

  /** Why the activity cannot be finalised now; empty when it can. */
  private async blockers(q: Q, a: ActivityRow): Promise<Blockers> {
    const out: Blockers = {};
    const now = iso(this.d.clock.now());
    const end = a.endDate ?? (await lastSeriesEnd(q, a.id));
    if (!end) out.notEnded = ['The activity has no end: give it (or each of its series) an end date first'];
    else if (end > now) out.notEnded = [`The activity has not ended yet: it ends at ${end}`];
    const unjudged = await unjudgedCount(q, a.id);
    if (unjudged) out.unjudged = [`${plural(unjudged, 'submission is', 'submissions are')} not judged yet`];
    const unanswered = await unansweredCount(q, a.id);
    if (unanswered) out.unanswered = [`${plural(unanswered, 'question is', 'questions are')} unanswered`];
    return out;
  }

  private async requireFinalizable(q: Q, a: ActivityRow): Promise<void> {
    requireNotArchived(a);
    if (a.finalizedAt) throw ApiError.of('activity.finalized', `The activity was finalised at ${a.finalizedAt}`);
    const blockers = await this.blockers(q, a);
    const reasons = Object.values(blockers).flat();
    if (reasons.length) throw ApiError.of('activity.finalize.blocked', `The activity cannot be finalised yet: ${reasons.join('; ')}`, blockers);
  }

  /** Tells participants the standings are final (or no longer), and managers the whole record. */
  private async announce(q: Q, row: ActivityRow, out: Outbox): Promise<Activity> {
    const view = await toActivity(q, row);
    out.emit(event('activityFinalized', row.finalizedAt ? { activityId: row.id, finalizedAt: row.finalizedAt } : { activityId: row.id }, participantAudience(row)));
    out.emit(event('activityChanged', { activity: view }, managerAudience(row.id)));
    return view;
  }

  /** POST /activities/{idOrSlug}/finalize */
  async finalize(actor: Actor, idOrSlug: string): Promise<Activity> {
    const a = await managedActivity(this.d, actor, idOrSlug);
    // refused early, before the standings are computed; checked again inside the write
    await this.d.tx.read((q) => this.requireFinalizable(q, a));
    const computed = await this.compute(a);
    return this.d.tx.write(async (q, out) => {
      const now = await managedActivity(this.d, actor, a.id, q);
      await this.requireFinalizable(q, now);
      const at = iso(this.d.clock.now());
      await storeAwards(q, a.id, computed, at);
      const [row] = await q.update(activities).set({ finalizedAt: at }).where(eq(activities.id, a.id)).returning();
      return this.announce(q, row!, out);
    });
  }

  /** The awards of the activity's final standings, by its medal counts and its participants' groups. */
  private async compute(a: ActivityRow): Promise<ComputedAward[]> {
    const standings = await this.ranking.finalStandings(a);
    const tags = await this.d.tx.read((q) => tagsOf(q, standings.rows.map((r) => r.userId)));
    return computeAwards({ standings, rules: awardRulesOf(a), groupsOf: (userId) => groupsOfTags(tags.get(userId)) });
  }

  /** DELETE /activities/{idOrSlug}/finalize: the standings may change again; the awards stay until the next finalisation. */
  async reopen(actor: Actor, idOrSlug: string): Promise<Activity> {
    return this.d.tx.write(async (q, out) => {
      const a = await managedActivity(this.d, actor, idOrSlug, q);
      if (!a.finalizedAt) throw ApiError.of('activity.notFinalized', 'The activity is not finalised');
      const [row] = await q.update(activities).set({ finalizedAt: null }).where(eq(activities.id, a.id)).returning();
      return this.announce(q, row!, out);
    });
  }

  /**
   * GET /activities/{idOrSlug}/awards. Staff see them once computed. Others who may read the
   * ranking see them once the activity is final, no freeze is in force, and the activity shows
   * everyone's results (scoreVisibility everyone, or they hold result:read:all): medals would
   * otherwise tell what the freeze or the visibility hides. Until then an empty list. Those who
   * may finalise also see what keeps it from being finalised.
   */
  async list(actor: Actor, idOrSlug: string): Promise<ActivityAwards> {
    const a = await visibleActivity(this.d, actor, idOrSlug);
    const held = await this.d.permissions.of(actor.userId);
    const staff = held.has('activity:update', a.id) || held.has('ranking:read:unfrozen', a.id);
    if (!staff) held.require('ranking:read', a.id);
    const awards = await this.shownTo(a, staff ? 'staff' : held.has('result:read:all', a.id) ? 'readsAll' : 'others');
    if (!awards) return { awards: [] };
    if (a.finalizedAt) return { finalizedAt: a.finalizedAt, awards };
    // who may finalise sees what stands in the way before trying
    const blockers = held.has('activity:update', a.id) ? await this.d.tx.read((q) => this.blockers(q, a)) : {};
    return Object.keys(blockers).length ? { awards, finalizeBlockers: blockers } : { awards };
  }

  /**
   * The awards as `list` shows them, for a reader already let see the activity: `staff` see them
   * once computed, `readsAll` (result:read:all) and `others` once it is final with no freeze in
   * force, `others` only where everyone's results show; null while they are not shown to the
   * reader. The CLICS API reads them here too.
   */
  async shownTo(a: ActivityRow, who: 'staff' | 'readsAll' | 'others'): Promise<ActivityAward[] | null> {
    if (who !== 'staff') {
      const shown = !!a.finalizedAt && (who === 'readsAll' || a.scoreVisibility === 'everyone') && !(await this.ranking.freezeInForce(a.id));
      if (!shown) return null;
    }
    return this.d.tx.read(async (q) => toAwards(q, await awardRows(q, a.id)));
  }

  /** PUT /activities/{idOrSlug}/awards/{key}: a citation of staff's own, kept over later finalisations. */
  async setCitation(actor: Actor, idOrSlug: string, key: string, citation: string): Promise<ActivityAward> {
    return this.d.tx.write(async (q, out) => {
      const a = await managedActivity(this.d, actor, idOrSlug, q);
      const found = (await awardRows(q, a.id)).find((r) => r.key === key);
      if (!found) throw notFound('award');
      const [row] = await q.update(activityAwards).set({ citation, adjusted: true }).where(eq(activityAwards.id, found.id)).returning();
      out.emit(event('activityChanged', { activity: await toActivity(q, a) }, managerAudience(a.id)));
      return (await toAwards(q, [row!]))[0]!;
    });
  }
}
