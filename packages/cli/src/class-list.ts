import { readClassList as readList, requestOf, type ClassList, type ImportRow } from '@judge/sdk';
import { readFileSync } from 'node:fs';
import { CliError } from './errors.js';

// the reading itself is shared with the web app (@judge/sdk): one file, one answer in both
export { requestOf, type ClassList, type ImportRow };

const refusal = (file: string, faults: string[]) =>
  new CliError(`${file}: ${faults.slice(0, 20).join('\n  ')}${faults.length > 20 ? `\n  ... and ${faults.length - 20} more` : ''}\nnothing was created`);

/**
 * Reads and checks a whole class list before anything is created (see @judge/sdk readClassList):
 * answers the accounts, or throws one message naming every faulty line.
 */
export function readClassList(file: string): ClassList {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const read = readList(bytes);
  if (read.ok) return read.list;
  const p = read.problem;
  if (p.kind === 'empty') throw new CliError(`${file} is empty: it needs a header line (username,firstName,lastName,email) and one line per account`);
  if (p.kind === 'headerOnly') throw new CliError(`${file} holds no accounts, only the header`);
  if (p.kind === 'fatal') throw new CliError(`${file}: ${p.message}; nothing was created`);
  throw refusal(file, p.faults);
}

/** Throws the faults of a class list found against the server, as readClassList throws its own. */
export function refuseList(file: string, faults: string[]): void {
  if (faults.length) throw refusal(file, faults);
}
