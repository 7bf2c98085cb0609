import { firstSolves, type Ranking, type RankingRow, type Scoreboard } from '@judge/contract';
import type { ActivityRow } from '../policy/index.js';
import { activeFreeze, awardRulesOf, medalOf, type RankedSeries } from '../ranking/index.js';
import { compact } from '../../util.js';

/**
 * The board a scoreboard page or projector shows, made from the public view alone (decisions §23):
 * every member here is read off `ranking` and the series' own dates, so a result the freeze hides
 * from participants cannot reach a board through any of them.
 */
export function boardOf(a: ActivityRow, view: { ranking: Ranking; series: RankedSeries[] }, now: string): Scoreboard {
  const rules = awardRulesOf(a);
  return compact({
    activity: compact({ id: a.id, slug: a.slug, name: a.name, startDate: a.startDate, endDate: a.endDate }),
    serverTime: now,
    series: view.series.map((s) => compact({ id: s.id, rankingFreezeAt: s.rankingFreezeAt, rankingRevealAt: s.rankingRevealAt })),
    freeze: freezeOf(view.series, now),
    awardRules: { gold: rules.gold, silver: rules.silver, bronze: rules.bronze, extraBronze: rules.extraBronze },
    medals: view.ranking.rows.flatMap((r) => {
      const medal = scored(r, view.ranking.rankingType) ? medalOf(r.rank, rules) : undefined;
      return medal ? [{ userId: r.userId, medal }] : [];
    }),
    firstSolves: firstSolvesOf(view.ranking.rows),
    ranking: view.ranking,
  }) as Scoreboard;
}

/** A row that scored nothing gets no medal, whatever its rank (all tied at the bottom are not all gold). */
function scored(r: RankingRow, type: Ranking['rankingType']): boolean {
  return type === 'points' ? (r.points ?? 0) > 0 : r.solved > 0;
}

/** The freeze in force now: the earliest among the counted series, with its series' reveal. */
function freezeOf(series: RankedSeries[], now: string): Scoreboard['freeze'] {
  let found: { at: string; revealAt: string | null } | undefined;
  for (const s of series) {
    const at = activeFreeze(s, now);
    if (at !== null && (!found || at < found.at)) found = { at, revealAt: s.rankingRevealAt };
  }
  return found ? compact({ at: found.at, revealAt: found.revealAt }) : undefined;
}

/** Per problem, the row(s) with the earliest solve the rows show (the rule of `firstSolves`: to the second, ties each of them). */
function firstSolvesOf(rows: RankingRow[]): Scoreboard['firstSolves'] {
  const solvedAt = (userId: string, problemId: string) => rows.find((r) => r.userId === userId)!.cells.find((c) => c.problemId === problemId)!.solvedAt!;
  return [...firstSolves(rows)].flatMap(([problemId, userIds]) => userIds.map((userId) => ({ problemId, userId, solvedAt: solvedAt(userId, problemId) })));
}
