/**
 * First to solve each problem (decisions §24), the one rule the awards, the room's scoreboard and
 * the standings' stars share: the earliest solve, to the second (the precision contests are timed
 * in), and everyone who solved it within that second. A cell is solved at the first accepted
 * submission (icpc) or the first reaching full marks (points).
 */
export function firstSolves(rows: readonly { userId: string; cells: readonly { problemId: string; solved: boolean; solvedAt?: string | null }[] }[]): Map<string, string[]> {
  const first = new Map<string, { second: number; userIds: string[] }>();
  for (const r of rows) {
    for (const c of r.cells) {
      if (!c.solved || !c.solvedAt) continue;
      const second = Math.floor(Date.parse(c.solvedAt) / 1000);
      const f = first.get(c.problemId);
      if (!f || second < f.second) first.set(c.problemId, { second, userIds: [r.userId] });
      else if (second === f.second) f.userIds.push(r.userId);
    }
  }
  return new Map([...first].map(([problemId, f]) => [problemId, f.userIds]));
}
