import { CreateUserRequest } from '@judge/contract';
import { CsvSyntaxError, decodeCsv, readCsv, type CsvRecord } from './csv.js';
import { usernameFor } from './usernames.js';

/** The columns a class list may have, by their normalised header. */
const COLUMNS = { username: 'username', firstname: 'firstName', lastname: 'lastName', email: 'email' } as const;
type Column = (typeof COLUMNS)[keyof typeof COLUMNS];

/** One account of a class list. */
export interface ImportRow {
  line: number;
  username: string;
  /** The username as the file spells it, when it was not in the username alphabet and `username` was made of it. */
  usernameInFile?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
}

/** A checked class list: its accounts, and how the file was written (for a credentials file written back). */
export interface ClassList {
  rows: ImportRow[];
  separator: string;
  encoding: 'utf-8' | 'windows-1252';
}

/**
 * Why a class list was refused, before anything was created: `empty` (not even a header),
 * `headerOnly` (no accounts), `fatal` (a syntax or header fault that stops the reading), or
 * `faults` (every faulty line, each its own message).
 */
export type ClassListProblem = { kind: 'empty' } | { kind: 'headerOnly' } | { kind: 'fatal'; message: string } | { kind: 'faults'; faults: string[] };

export type ClassListResult = { ok: true; list: ClassList } | { ok: false; problem: ClassListProblem };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The request that creates a row's account (only the fields it has). */
export const requestOf = (r: { username: string; firstName?: string | undefined; lastName?: string | undefined; email?: string | undefined }) => ({
  username: r.username,
  ...(r.firstName ? { firstName: r.firstName } : {}),
  ...(r.lastName ? { lastName: r.lastName } : {}),
  ...(r.email ? { email: r.email } : {}),
});

function columnsOf(header: CsvRecord): Column[] | string {
  const columns: Column[] = [];
  for (const h of header.fields) {
    const key = h.trim().toLowerCase().replace(/[^a-z]/g, '') as keyof typeof COLUMNS;
    const col = COLUMNS[key];
    if (!col) return `line ${header.line}: unknown column "${h}" (the columns are username, firstName, lastName, email)`;
    if (columns.includes(col)) return `line ${header.line}: the column ${col} appears twice`;
    columns.push(col);
  }
  if (!columns.includes('username')) return `line ${header.line}: the header has no username column`;
  return columns;
}

/** One record as an account, its username made into the alphabet if need be; or what is wrong with it. */
function rowOf(r: CsvRecord, columns: Column[]): ImportRow | string {
  if (r.fields.length !== columns.length) return `line ${r.line}: ${plural(r.fields.length, 'field')}, the header has ${columns.length}`;
  const row: ImportRow = { line: r.line, username: '' };
  columns.forEach((c, i) => {
    const v = r.fields[i]!.trim();
    if (v) row[c] = v;
  });
  const made = row.username ? usernameFor(row.username) : undefined;
  if (made && made !== row.username) Object.assign(row, { usernameInFile: row.username, username: made });
  const checked = CreateUserRequest.safeParse(requestOf(row));
  if (checked.success) return row;
  const what = checked.error.issues.map((i) => {
    const col = String(i.path[0] ?? 'line');
    const value = col === 'username' ? (row.usernameInFile ?? row.username) : row[col as Column];
    if (!value) return `${col} is missing`;
    return col === 'username' && !made ? `username "${value}": no username can be made of it (${i.message})` : `${col} "${value}": ${i.message}`;
  });
  return `line ${r.line}: ${what.join('; ')}`;
}

/** Repeated usernames (compared as they will be created) and addresses: a fault for each later line. */
function repeats(rows: ImportRow[]): string[] {
  const faults: string[] = [];
  const seen = new Map<string, ImportRow>();
  for (const row of rows) {
    for (const key of [`u:${row.username.toLowerCase()}`, ...(row.email ? [`e:${row.email.toLowerCase()}`] : [])]) {
      const before = seen.get(key);
      if (!before) seen.set(key, row);
      else if (key.startsWith('e:')) faults.push(`line ${row.line}: email ${key.slice(2)} already appears on line ${before.line}`);
      else faults.push(`line ${row.line}: username ${row.username}${row.usernameInFile ? ` (made of ${row.usernameInFile})` : ''} already appears on line ${before.line}${before.usernameInFile ? ` (made of ${before.usernameInFile})` : ''}`);
    }
  }
  return faults;
}

/**
 * Reads and checks a whole class list (header `username,firstName,lastName,email`, username
 * required) before anything is created: the header, every line's shape and values (as the server
 * would check them), and repeated usernames or addresses. The same in judgectl and in the browser,
 * so a file the one takes the other takes too.
 */
export function readClassList(bytes: Uint8Array): ClassListResult {
  const { text, encoding } = decodeCsv(bytes);
  let table;
  try {
    table = readCsv(text);
  } catch (e) {
    if (e instanceof CsvSyntaxError) return { ok: false, problem: { kind: 'fatal', message: e.message } };
    throw e;
  }
  const [header, ...body] = table.records;
  if (!header) return { ok: false, problem: { kind: 'empty' } };
  const columns = columnsOf(header);
  if (typeof columns === 'string') return { ok: false, problem: { kind: 'fatal', message: columns } };
  if (body.length === 0) return { ok: false, problem: { kind: 'headerOnly' } };
  const faults: string[] = [];
  const rows: ImportRow[] = [];
  for (const r of body) {
    const row = rowOf(r, columns);
    if (typeof row === 'string') faults.push(row);
    else rows.push(row);
  }
  faults.push(...repeats(rows));
  faults.sort((a, b) => lineOf(a) - lineOf(b));
  if (faults.length) return { ok: false, problem: { kind: 'faults', faults } };
  return { ok: true, list: { rows, separator: table.separator, encoding } };
}

const lineOf = (fault: string) => Number(/^line (\d+)/.exec(fault)?.[1] ?? 0);
