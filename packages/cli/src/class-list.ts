import { CreateUserRequest } from '@judge/contract';
import { readFileSync } from 'node:fs';
import { CsvSyntaxError, decodeCsv, readCsv, type CsvRecord } from './csv.js';
import { CliError } from './errors.js';
import { plural } from './output.js';
import { usernameFor } from './usernames.js';

/** The columns a users CSV may have, by their normalised header. */
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

/** A checked class list: its accounts, and how the file was written (for the credentials file written back). */
export interface ClassList {
  rows: ImportRow[];
  separator: string;
  encoding: 'utf-8' | 'windows-1252';
}

export const requestOf = (r: { username: string; firstName?: string | undefined; lastName?: string | undefined; email?: string | undefined }) => ({
  username: r.username,
  ...(r.firstName ? { firstName: r.firstName } : {}),
  ...(r.lastName ? { lastName: r.lastName } : {}),
  ...(r.email ? { email: r.email } : {}),
});

const refusal = (file: string, faults: string[]) =>
  new CliError(`${file}: ${faults.slice(0, 20).join('\n  ')}${faults.length > 20 ? `\n  ... and ${faults.length - 20} more` : ''}\nnothing was created`);

function columnsOf(file: string, header: CsvRecord): Column[] {
  const columns: Column[] = [];
  for (const h of header.fields) {
    const key = h.trim().toLowerCase().replace(/[^a-z]/g, '') as keyof typeof COLUMNS;
    const col = COLUMNS[key];
    if (!col) throw new CliError(`${file}: line ${header.line}: unknown column "${h}" (the columns are username, firstName, lastName, email); nothing was created`);
    if (columns.includes(col)) throw new CliError(`${file}: line ${header.line}: the column ${col} appears twice; nothing was created`);
    columns.push(col);
  }
  if (!columns.includes('username')) throw new CliError(`${file}: line ${header.line}: the header has no username column; nothing was created`);
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

/**
 * Reads and checks a whole class list before anything is created: the header, every line's shape
 * and values (as the server would check them), and repeated usernames or addresses, the usernames
 * compared as they will be created. Answers the accounts, or throws one message naming every
 * faulty line.
 */
export function readClassList(file: string): ClassList {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const { text, encoding } = decodeCsv(bytes);
  let table;
  try {
    table = readCsv(text);
  } catch (e) {
    if (e instanceof CsvSyntaxError) throw new CliError(`${file}: ${e.message}; nothing was created`);
    throw e;
  }
  const [header, ...body] = table.records;
  if (!header) throw new CliError(`${file} is empty: it needs a header line (username,firstName,lastName,email) and one line per account`);
  const columns = columnsOf(file, header);
  if (body.length === 0) throw new CliError(`${file} holds no accounts, only the header`);

  const faults: string[] = [];
  const rows: ImportRow[] = [];
  const seen = new Map<string, ImportRow>();
  for (const r of body) {
    const row = rowOf(r, columns);
    if (typeof row === 'string') {
      faults.push(row);
      continue;
    }
    for (const key of [`u:${row.username.toLowerCase()}`, ...(row.email ? [`e:${row.email.toLowerCase()}`] : [])]) {
      const before = seen.get(key);
      if (!before) seen.set(key, row);
      else if (key.startsWith('e:')) faults.push(`line ${row.line}: email ${key.slice(2)} already appears on line ${before.line}`);
      else faults.push(`line ${row.line}: username ${row.username}${row.usernameInFile ? ` (made of ${row.usernameInFile})` : ''} already appears on line ${before.line}${before.usernameInFile ? ` (made of ${before.usernameInFile})` : ''}`);
    }
    rows.push(row);
  }
  if (faults.length) throw refusal(file, faults);
  return { rows, separator: table.separator, encoding };
}

/** Throws the faults of a class list found against the server, as readClassList throws its own. */
export function refuseList(file: string, faults: string[]): void {
  if (faults.length) throw refusal(file, faults);
}
