import type { ManagedUser } from '@judge/contract';
import type { ImportRow } from './class-list.js';

/** An account of the list that exists already, and whether it is a member of the activity. */
export interface Existing {
  row: ImportRow;
  account: ManagedUser;
  member: boolean;
}

/** The list sorted against the server: accounts to create, accounts that exist, and lines that clash with someone else's account. */
export interface Sorted {
  fresh: ImportRow[];
  existing: Existing[];
  faults: string[];
}

const same = (a: string | undefined, b: string | undefined) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/** "first last" of an account or a row, as the messages name people. */
export const fullName = (u: { firstName?: string | undefined; lastName?: string | undefined }) => [u.firstName, u.lastName].filter(Boolean).join(' ');

/** A row's username, and the file's spelling when it was made of it. */
export const spelled = (r: ImportRow) => (r.usernameInFile ? `${r.username} (${r.usernameInFile} in the file)` : r.username);

/**
 * Sorts a class list against every account on the server. A line whose username exists is that
 * account (the same class list imported for the next contest) unless the file names somebody else:
 * a first or last name the account does not have. An address belonging to another account clashes.
 * The address of an existing account may differ: it is its holder's own to change.
 */
export function sortAgainst(rows: ImportRow[], accounts: ManagedUser[], members: Set<string>): Sorted {
  const byName = new Map(accounts.map((u) => [u.username.toLowerCase(), u]));
  const byMail = new Map(accounts.filter((u) => u.email).map((u) => [u.email!.toLowerCase(), u]));
  const out: Sorted = { fresh: [], existing: [], faults: [] };
  for (const r of rows) {
    const u = byName.get(r.username.toLowerCase());
    const mailOwner = r.email ? byMail.get(r.email.toLowerCase()) : undefined;
    if (mailOwner && mailOwner.id !== u?.id) out.faults.push(`line ${r.line}: the email ${r.email} belongs to the account ${mailOwner.username}`);
    if (!u) {
      out.fresh.push(r);
      continue;
    }
    const otherName = (r.firstName && u.firstName && !same(r.firstName, u.firstName)) || (r.lastName && u.lastName && !same(r.lastName, u.lastName));
    if (otherName) out.faults.push(`line ${r.line}: the username ${spelled(r)} is taken by ${fullName(u)}, not ${fullName(r)}: give this line another username`);
    else out.existing.push({ row: r, account: u, member: members.has(u.id) });
  }
  return out;
}
