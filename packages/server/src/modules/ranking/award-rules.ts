import type { AwardRules } from '../../db/schema.js';

/** The ICPC World Finals' usual counts: four of each medal, no extra bronze. */
export const DEFAULT_AWARD_RULES: AwardRules = { gold: 4, silver: 4, bronze: 4, extraBronze: 0 };

/** An activity's medal counts, the judge's defaults where it sets none. */
export function awardRulesOf(activity: { awardRules: AwardRules | null }): AwardRules {
  return activity.awardRules ?? DEFAULT_AWARD_RULES;
}

/** The medal of a row of the given rank (1-based), if any: bronze reaches extraBronze rows further. */
export function medalOf(rank: number, rules: AwardRules): 'gold' | 'silver' | 'bronze' | undefined {
  if (rank <= rules.gold) return 'gold';
  if (rank <= rules.gold + rules.silver) return 'silver';
  if (rank <= rules.gold + rules.silver + rules.bronze + rules.extraBronze) return 'bronze';
  return undefined;
}
