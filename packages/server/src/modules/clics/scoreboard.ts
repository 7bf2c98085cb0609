import type { clics, Ranking } from '@judge/contract';
import type { ClicsServices, Contest } from './contest.js';
import { clicsTime, contestTime } from './times.js';

/**
 * The state and the scoreboard (decisions §25). The scoreboard is the ranking service's: staff get
 * the final standings (through the freeze), everybody else its public view, in which the freeze
 * hides results as it does from participants (pending counts include the frozen submissions).
 */

const reached = (c: Contest, at: string | null): string | null => (at && at <= c.now ? clicsTime(at) : null);

export function stateOf(c: Contest): clics.State {
  const started = reached(c, c.start);
  const ended = started ? reached(c, c.end) : null;
  const frozen = started && c.freezeAt && c.freezeAt < c.end ? reached(c, c.freezeAt) : null;
  const thawed = frozen && ended && c.thawAt ? reached(c, c.thawAt > c.end ? c.thawAt : c.end) : null;
  const finalized = ended && c.a.finalizedAt ? reached(c, c.a.finalizedAt) : null;
  // nothing changes any more once final and (if frozen) thawed: the later of the two
  const end_of_updates = finalized && (!frozen || thawed) ? [finalized, thawed ?? finalized].sort()[1]! : null;
  return { started, frozen, ended, thawed, finalized, end_of_updates };
}

const minutesSince = (c: Contest, at: string) => Math.max(0, Math.floor((Date.parse(at) - Date.parse(c.start)) / 60_000));

function rowOf(c: Contest, r: Ranking['rows'][number], problems: Map<string, string>, icpc: boolean): clics.ScoreboardRow {
  const cells = r.cells.filter((x) => problems.has(x.problemId));
  const solvedTimes = cells.filter((x) => x.solved && x.solvedAt).map((x) => minutesSince(c, x.solvedAt!));
  const last = solvedTimes.length ? Math.max(...solvedTimes) : null;
  return {
    rank: r.rank,
    team_id: r.userId,
    score: icpc ? { num_solved: r.solved, total_time: r.penalty ?? 0, time: r.solved > 0 ? last : null } : { score: r.points ?? 0, time: r.solved > 0 ? last : null },
    problems: cells.map((x) => {
      const time = x.solved && x.solvedAt ? { time: minutesSince(c, x.solvedAt) } : {};
      return { problem_id: problems.get(x.problemId)!, num_judged: x.attempts, num_pending: x.pending + x.frozen, ...(icpc ? { solved: x.solved } : { score: x.points ?? 0 }), ...time };
    }),
  };
}

/** `problems`: the contest's problems by assignment id; `teams`: the team ids the rows may name. */
export async function scoreboardOf(s: ClicsServices, c: Contest, problems: Map<string, string>, teams: Set<string>): Promise<clics.Scoreboard> {
  const ranking = c.role === 'admin' ? await s.ranking.finalStandings(c.a) : (await s.ranking.publicView(c.a)).ranking;
  const icpc = ranking.rankingType === 'icpc';
  return {
    time: clicsTime(c.now),
    contest_time: contestTime(c.start, c.now),
    state: stateOf(c),
    rows: ranking.rows.filter((r) => teams.has(r.userId)).map((r) => rowOf(c, r, problems, icpc)),
  };
}
