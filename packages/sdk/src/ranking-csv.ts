import type { Ranking, RankingCell } from '@judge/contract';

/**
 * The standings as a CSV file for a spreadsheet, made in one place for judgectl (`ranking --csv`)
 * and the staff standings page (its download): no Node module here, the browser imports it too.
 */

/** ICPC's penalty for each rejected attempt before the accepted one, in minutes. */
export const PENALTY_MINUTES = 20;

/**
 * The byte-order mark a CSV file for people starts with: spreadsheets (Excel above all) read a file
 * without one in the machine's legacy code page and garble every umlaut.
 */
export const CSV_BOM = '\uFEFF';

/** A CSV field, quoted when it has to be. */
export function csvField(v: string | undefined, separator = ','): string {
  const s = v ?? '';
  return s.includes(separator) || /["\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (values: (string | undefined)[], separator = ',') => `${values.map((v) => csvField(v, separator)).join(separator)}\r\n`;

/** A text a spreadsheet would run as a formula: `=`, `+`, `-`, `@`, tab or CR first (OWASP's CSV injection rule). */
const FORMULA = /^[=+\-@\t\r]/;
/** A text a spreadsheet would read as a date, a time or a number: `1-2`, `3/4`, `12:30`, `1.2`, `007`, `Mar 5`. */
const DATE_OR_NUMBER = /^\s*(\d[\d\s./:-]*|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[\s./-]*\d[\d\s./:-]*)$/i;

/**
 * A person's text (a name, a username) kept as text: a leading apostrophe, which spreadsheets
 * show rather than run, in front of what would otherwise become a formula, a date or a number.
 */
export function asCsvText(v: string): string {
  return FORMULA.test(v) || DATE_OR_NUMBER.test(v) ? `'${v}` : v;
}

/** The minute an ICPC problem was solved in: its penalty less the rejected attempts' share. */
export function solveMinute(c: RankingCell): number | undefined {
  return c.solved ? (c.penalty ?? 0) - PENALTY_MINUTES * (c.attempts - 1) : undefined;
}

/**
 * A number as the spreadsheet reads it: with a decimal comma where the separator is a semicolon
 * (a spreadsheet set to German, where `12.5` is the 12th of May).
 */
function num(n: number, separator: string): string {
  const s = String(n);
  return separator === ';' ? s.replace('.', ',') : s;
}

/** One problem's columns: numbers each, so that no spreadsheet reads `1/6` as a date. */
function csvCells(r: Ranking, c: RankingCell | undefined, separator: string): string[] {
  const tries = String(c?.attempts ?? 0);
  if (r.rankingType === 'points') return [c?.points !== undefined && (c.points > 0 || c.attempts > 0) ? num(c.points, separator) : '', tries];
  const minute = c ? solveMinute(c) : undefined;
  return [c?.solved ? '1' : '0', tries, minute === undefined ? '' : String(minute)];
}

export interface RankingCsvOptions {
  /** Logins by user id, for rows that carry none (RankingRow.username comes first). */
  usernames?: ReadonlyMap<string, string> | null;
  /** `,` (the default), `;` (a spreadsheet set to German) or a tab. */
  separator?: string;
}

/**
 * The standings as CSV, one row per participant, for a spreadsheet, a gradebook or a script: a
 * byte-order mark (so a spreadsheet reads umlauts), the username next to the name (which stays
 * ambiguous without), and every value a plain number or text: per problem `solved` (1 or 0),
 * `tries` and the `minute` it was solved in (icpc), or `points` and `tries`. Frozen submissions
 * count as the ranking given counts them: export the view you mean to publish.
 */
export function rankingCsv(r: Ranking, opts: RankingCsvOptions = {}): string {
  const separator = opts.separator ?? ',';
  const icpc = r.rankingType === 'icpc';
  const perProblem = icpc ? ['solved', 'tries', 'minute'] : ['points', 'tries'];
  const head = ['rank', 'username', 'name', 'userId', ...(icpc ? ['solved', 'penalty'] : ['points']), ...r.problems.flatMap((p) => perProblem.map((k) => `${p.slug} ${k}`))];
  const rows = r.rows.map((row) => {
    const byProblem = new Map(row.cells.map((c) => [c.problemId, c]));
    const totals = icpc ? [String(row.solved), String(row.penalty ?? 0)] : [num(row.points ?? 0, separator)];
    const username = row.username ?? opts.usernames?.get(row.userId) ?? '';
    return [
      String(row.rank),
      asCsvText(username),
      asCsvText(row.userName),
      row.userId,
      ...totals,
      ...r.problems.flatMap((p) => csvCells(r, byProblem.get(p.id), separator)),
    ];
  });
  return CSV_BOM + [head.map((h) => asCsvText(h)), ...rows].map((values) => csvLine(values, separator)).join('');
}
