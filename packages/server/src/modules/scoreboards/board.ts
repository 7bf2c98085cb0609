import type { Ranking, RankingRow, Scoreboard } from '@judge/contract';
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
    firstSolves: firstSolves(view.ranking.rows),
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

/** Per problem, the row(s) with the earliest solve the rows show (ties: each of them). */
function firstSolves(rows: RankingRow[]): Scoreboard['firstSolves'] {
  const first = new Map<string, { solvedAt: string; userIds: string[] }>();
  for (const r of rows) {
    for (const c of r.cells) {
      if (!c.solved || !c.solvedAt) continue;
      const f = first.get(c.problemId);
      if (!f || c.solvedAt < f.solvedAt) first.set(c.problemId, { solvedAt: c.solvedAt, userIds: [r.userId] });
      else if (c.solvedAt === f.solvedAt) f.userIds.push(r.userId);
    }
  }
  return [...first].flatMap(([problemId, f]) => f.userIds.map((userId) => ({ problemId, userId, solvedAt: f.solvedAt })));
}
