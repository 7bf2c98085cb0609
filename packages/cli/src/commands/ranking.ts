import { ops, type Ranking, type RankingCell } from '@judge/contract';
import { Option, type Command } from 'commander';
import { accountDirectory } from '../accounts.js';
import { api } from '../client.js';
import { CSV_BOM, csvLine } from '@judge/sdk';
import { emit, note, table, type JsonOption } from '../output.js';
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

/** The totals and one cell per problem of each row, as the table shows them. */
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

/** A text a spreadsheet would run as a formula (=, +, -, @ first) is kept as text by a leading apostrophe (OWASP's CSV injection rule). */
const asText = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/** One problem's columns of the CSV: numbers each, so that no spreadsheet reads `1/6` as a date. */
function csvCells(r: Ranking, c: RankingCell | undefined): string[] {
  const tries = String(c?.attempts ?? 0);
  if (r.rankingType === 'points') return [c?.points !== undefined && (c.points > 0 || c.attempts > 0) ? String(c.points) : '', tries];
  const minute = c?.solved ? String((c.penalty ?? 0) - PENALTY_MINUTES * (c.attempts - 1)) : '';
  return [c?.solved ? '1' : '0', tries, minute];
}

/**
 * The standings as CSV, one row per participant, for a spreadsheet, a gradebook or a script: a
 * byte-order mark (so a spreadsheet reads umlauts), the username next to the name (which stays
 * ambiguous without), and every value a plain number or text: per problem `solved` (1 or 0),
 * `tries` and the `minute` it was solved in (icpc), or `points` and `tries`.
 */
export function rankingCsv(r: Ranking, usernames: Map<string, string> | null, separator = ','): string {
  const perProblem = r.rankingType === 'icpc' ? ['solved', 'tries', 'minute'] : ['points', 'tries'];
  const head = ['rank', 'username', 'name', 'userId', ...totalsHead(r), ...r.problems.flatMap((p) => perProblem.map((k) => `${p.slug} ${k}`))];
  const rows = r.rows.map((row) => {
    const byProblem = new Map(row.cells.map((c) => [c.problemId, c]));
    const totals = r.rankingType === 'icpc' ? [row.solved, row.penalty ?? 0] : [row.points ?? 0];
    return [String(row.rank), asText(usernames?.get(row.userId) ?? ''), asText(row.userName), row.userId, ...totals.map(String), ...r.problems.flatMap((p) => csvCells(r, byProblem.get(p.id)))];
  });
  return CSV_BOM + [head, ...rows].map((values) => csvLine(values, separator)).join('');
}

const SEPARATORS = { comma: ',', semicolon: ';', tab: '\t' } as const;

export function rankingCommand(program: Command): void {
  sub(program, 'ranking <activity>', 'Show the standings of an activity, as the server computes them for you')
    .option('--series <slug>', "only this series' own standings")
    .addOption(
      new Option('--csv', 'print CSV for a spreadsheet or a script: rank, username, name, userId, totals, then numbers per problem (solved, tries, minute; or points, tries)').conflicts(
        'json',
      ),
    )
    .addOption(new Option('--separator <separator>', 'with --csv: what separates the values (semicolon for a spreadsheet set to German)').choices(Object.keys(SEPARATORS)).default('comma'))
    .action(async (activity: string, o: JsonOption & { series?: string; csv?: boolean; separator: keyof typeof SEPARATORS }) => {
      const c = await api();
      const seriesId = o.series ? (await resolveSeries(c, activity, o.series)).id : undefined;
      const r = await c.call(ops.getRanking, { params: { idOrSlug: activity }, query: seriesId ? { seriesId } : {} });
      if (!o.csv) return emit(o, r, () => rankingText(r));
      const directory = await accountDirectory(c);
      if (!directory) note('judgectl: the username column is empty: looking usernames up needs the permission user:read:all');
      const usernames = directory && new Map([...directory.values()].map((u) => [u.id, u.username]));
      process.stdout.write(rankingCsv(r, usernames, SEPARATORS[o.separator]));
    });
}
