import type { Ceremony } from '@judge/contract';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { activities } from '../../db/schema.js';
import { event } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { visibleActivity, type ActivityRow } from '../policy/index.js';
import type { RankingService } from '../ranking/index.js';

/** An award as the ceremony shows it. */
export interface CeremonyAward {
  key: string;
  citation: string;
  userIds: string[];
}

/** Where the ceremony reads the activity's awards (the awards module's, once computed at finalisation). */
export type AwardsOf = (actor: Actor, a: ActivityRow) => Promise<CeremonyAward[]>;

/**
 * The award ceremony (decisions §26): one staff-only payload from which every screen computes the
 * same standings for a step number, and the presenter's step, kept with the activity so that a
 * screen that follows the presenter starts where the presenter is, on whichever server it asks.
 */
export class CeremonyService {
  constructor(
    private readonly d: Deps,
    private readonly ranking: RankingService,
    private readonly awardsOf: AwardsOf,
  ) {}

  /** GET /activities/{idOrSlug}/ceremony */
  async get(actor: Actor, idOrSlug: string): Promise<Ceremony> {
    const a = await this.staffActivity(actor, idOrSlug);
    const awards = await this.awardsOf(actor, a);
    const byUser = new Map<string, string[]>();
    for (const w of awards) for (const u of w.userIds) byUser.set(u, [...(byUser.get(u) ?? []), w.key]);
    const c = await this.ranking.ceremony(a, byUser);
    return {
      rankingType: c.type,
      problems: c.problems,
      rows: c.rows,
      steps: c.steps,
      awards: awards.map((w) => ({ key: w.key, citation: w.citation, userIds: w.userIds })),
      step: Math.min(a.ceremonyStep, c.steps.length),
      finalized: a.finalizedAt !== null,
    };
  }

  /** PUT /activities/{idOrSlug}/ceremony/step */
  async setStep(actor: Actor, idOrSlug: string, step: number): Promise<{ step: number }> {
    const a = await this.staffActivity(actor, idOrSlug);
    await this.d.tx.write(async (q, out) => {
      await q.update(activities).set({ ceremonyStep: step }).where(eq(activities.id, a.id));
      out.emit(event('ceremonyStepChanged', { activityId: a.id, step }, { kind: 'permission', key: 'ranking:read:unfrozen', activityId: a.id }));
    });
    return { step };
  }

  /** The payload holds every hidden result: only those who see through the freeze may have it. */
  private async staffActivity(actor: Actor, idOrSlug: string): Promise<ActivityRow> {
    const a = await visibleActivity(this.d, actor, idOrSlug);
    (await this.d.permissions.of(actor.userId)).require('ranking:read:unfrozen', a.id);
    return a;
  }
}
