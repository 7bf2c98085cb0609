import { ops, type Ranking, type RankingCell } from '@judge/contract';
import { Option, type Command } from 'commander';
import { api } from '../client.js';
import { csvLine } from '../csv.js';
import { emit, table, type JsonOption } from '../output.js';
import { resolveSeries } from '../resolve.js';
import { sub } from './common.js';

const PENALTY_MINUTES = 20;

/**
 * One cell as scoreboards show it. icpc: `a/m` solved at attempt a in minute m, `-a` a rejected
 * attempts; points: the points. Then `?n` for n not judged yet and `*n` for n hidden by the freeze.
 */
export function cellText(r: Ranking, c: RankingCell | undefined): string {
  if (!c) return '';
  let s = '';
  if (r.rankingType === 'icpc') {
    if (c.solved) s = `${c.attempts}/${(c.penalty ?? 0) - PENALTY_MINUTES * (c.attempts - 1)}`;
    else if (c.attempts) s = `-${c.attempts}`;
  } else if (c.points !== undefined && (c.points > 0 || c.attempts > 0)) s = String(c.points);
  if (c.pending) s += `${s ? ' ' : ''}?${c.pending}`;
  if (c.frozen) s += `${s ? ' ' : ''}*${c.frozen}`;
  return s;
}

/** The totals and one cell per problem of each row, as the table and the CSV both show them. */
function rowValues(r: Ranking): { row: Ranking['rows'][number]; values: (string | number)[] }[] {
  const icpc = r.rankingType === 'icpc';
  return r.rows.map((row) => {
    const byProblem = new Map(row.cells.map((c) => [c.problemId, c]));
    return { row, values: [...(icpc ? [row.solved, row.penalty ?? 0] : [row.points ?? 0]), ...r.problems.map((p) => cellText(r, byProblem.get(p.id)))] };
  });
}

const totalsHead = (r: Ranking) => (r.rankingType === 'icpc' ? ['solved', 'penalty'] : ['points']);

export function rankingText(r: Ranking): string {
  const icpc = r.rankingType === 'icpc';
  const head = ['rank', 'name', ...totalsHead(r), ...r.problems.map((p) => (p.maxPoints !== undefined && !icpc ? `${p.slug} (${p.maxPoints})` : p.slug))];
  const rows = rowValues(r).map(({ row, values }) => [row.rank, row.userName, ...values]);
  const legend = icpc ? 'a/m: solved at attempt a in minute m; -a: a rejected attempts' : 'cells: points';
  const marks = `${legend}; ?n: n waiting for a verdict; *n: n hidden by the freeze`;
  const frozen = r.frozen ? '\nThe ranking is frozen: results marked * are hidden until it is revealed.' : '';
  return `${r.rows.length ? table(head, rows) : 'Nobody in the standings yet.'}\n${marks}${frozen}`;
}

/**
 * The standings as CSV, one row per participant, for a spreadsheet or a gradebook: the cells as the
 * table shows them, plus the user id, which names stay ambiguous without.
 */
export function rankingCsv(r: Ranking): string {
  const head = ['rank', 'userId', 'name', ...totalsHead(r), ...r.problems.map((p) => p.slug)];
  const rows = rowValues(r).map(({ row, values }) => [String(row.rank), row.userId, row.userName, ...values.map(String)]);
  return [head, ...rows].map(csvLine).join('');
}

export function rankingCommand(program: Command): void {
  sub(program, 'ranking <activity>', 'Show the standings of an activity, as the server computes them for you')
    .option('--series <slug>', "only this series' own standings")
    .addOption(new Option('--csv', 'print CSV (rank, userId, name, totals, one column per problem) for a spreadsheet').conflicts('json'))
    .action(async (activity: string, o: JsonOption & { series?: string; csv?: boolean }) => {
      const c = await api();
      const seriesId = o.series ? (await resolveSeries(c, activity, o.series)).id : undefined;
      const r = await c.call(ops.getRanking, { params: { idOrSlug: activity }, query: seriesId ? { seriesId } : {} });
      if (o.csv) process.stdout.write(rankingCsv(r));
      else emit(o, r, () => rankingText(r));
    });
}
