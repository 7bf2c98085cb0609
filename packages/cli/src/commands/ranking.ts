import { ops, type Ranking, type RankingCell } from '@judge/contract';
import { Option, type Command } from 'commander';
import { rankingCsv, solveMinute } from '@judge/sdk';
import { accountDirectory } from '../accounts.js';
import { api } from '../client.js';
import { emit, note, table, type JsonOption } from '../output.js';
import { resolveSeries } from '../resolve.js';
import { sub } from './common.js';

/**
 * One cell as scoreboards show it. icpc: `a/m` solved at attempt a in minute m, `-a` a rejected
 * attempts; points: the points. Then `?n` for n not judged yet and `*n` for n hidden by the freeze.
 */
export function cellText(r: Ranking, c: RankingCell | undefined): string {
  if (!c) return '';
  let s = '';
  if (r.rankingType === 'icpc') {
    if (c.solved) s = `${c.attempts}/${solveMinute(c)}`;
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

const SEPARATORS = { comma: ',', semicolon: ';', tab: '\t' } as const;

export function rankingCommand(program: Command): void {
  sub(program, 'ranking <activity>', 'Show the standings of an activity, as the server computes them for you')
    .option('--series <slug>', "only this series' own standings")
    .option('--public', 'as participants see them, whatever you may see: the freeze hides what it hides (for a projector); no usernames')
    .addOption(
      new Option('--csv', 'print CSV for a spreadsheet or a script: rank, username, name, userId, totals, then numbers per problem (solved, tries, minute; or points, tries)').conflicts(
        'json',
      ),
    )
    .addOption(new Option('--separator <separator>', 'with --csv: what separates the values (semicolon for a spreadsheet set to German)').choices(Object.keys(SEPARATORS)).default('comma'))
    .action(async (activity: string, o: JsonOption & { series?: string; public?: boolean; csv?: boolean; separator: keyof typeof SEPARATORS }) => {
      const c = await api();
      const seriesId = o.series ? (await resolveSeries(c, activity, o.series)).id : undefined;
      const query = { ...(seriesId ? { seriesId } : {}), ...(o.public ? { view: 'public' as const } : {}) };
      const r = await c.call(ops.getRanking, { params: { idOrSlug: activity }, query });
      if (!o.csv) return emit(o, r, () => rankingText(r));
      // staff get each row's username from the ranking itself; the public view names none
      let usernames: Map<string, string> | null = null;
      if (!o.public && r.rows.some((row) => row.username === undefined)) {
        const directory = await accountDirectory(c);
        if (!directory) note('judgectl: the username column is empty: looking usernames up needs the permission user:read:all');
        usernames = directory && new Map([...directory.values()].map((u) => [u.id, u.username]));
      }
      process.stdout.write(rankingCsv(r, { usernames, separator: SEPARATORS[o.separator] }));
    });
}
